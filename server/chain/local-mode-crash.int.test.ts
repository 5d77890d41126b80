/**
 * The server in local mode (`npm start` with nothing configured: PGlite and anvil in DATA_DIR)
 * killed with kill -9 right after an order was paid, then started again on the same folder, as
 * an operator would do it. Before the guard, the killed server's anvil kept running, the restart
 * started a second one on the same state file, and the chain watcher later saw block hashes
 * change and failed the paid order as "reorganised away".
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { JsonRpcProvider } from 'ethers';
import { afterAll, describe, expect, it } from 'vitest';
import { checkoutSchema, productSchema, type Checkout } from '../../common/api';
import { sleep } from '../lib/sleep';
import { sendTokenTransfer } from '../test/chain';
import { anvilsOn, argvOf, isAnvilBinary, onLinux, parentOf, running, waitUntilGone } from '../test/processes';
import { lockFileOf, readLock } from './chain-state.mjs';
import { DEV_ACCOUNTS } from './local-chain';
import { mined } from './mined';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BUYER = DEV_ACCOUNTS[2];

interface Shop {
  child: ChildProcess;
  url: string;
  log: () => string;
}

/** `tsx server/main.ts` as its own process (node with tsx's loader, so the pid is the server's). */
async function startShop(dataDir: string): Promise<Shop> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? os.tmpdir(),
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    // info: the line with the URL and the one saying what was found on the chain's state file
    LOG_LEVEL: 'info',
  };
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += stripVTControlCharacters(String(d))));
  child.stderr!.on('data', (d) => (out += stripVTControlCharacters(String(d))));
  const deadline = Date.now() + 90_000;
  for (;;) {
    const url = out.match(/POGS Shop is running at (\S+)/)?.[1];
    // A newcomer reads the last lines: the address, then the admin password under it.
    if (url && /\n.*admin password: \S+ \(generated/.test(out.slice(out.indexOf('POGS Shop is running at')))) {
      const lines = out.trimEnd().split('\n');
      const at = lines.findIndex((l) => l.includes('POGS Shop is running at'));
      expect(lines[at + 1]).toMatch(
        /admin password: \S+ \(generated (now|on first start), kept in .*admin-password\.json; log in at \/admin\)/,
      );
      return { child, url, log: () => out };
    }
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the shop did not start:\n${out}`);
    await sleep(100);
  }
}

/** A browser: keeps the session cookie. */
class Browser {
  cookie = '';
  constructor(private readonly shop: () => Shop) {}
  async call(p: string, init: { method?: string; body?: unknown } = {}) {
    const res = await fetch(this.shop().url + p, {
      method: init.method ?? 'GET',
      headers: { ...(this.cookie && { cookie: this.cookie }), ...(init.body !== undefined && { 'content-type': 'application/json' }) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    for (const set of res.headers.getSetCookie()) if (set.startsWith('pogs_session=')) this.cookie = set.split(';')[0];
    return { status: res.status, body: await res.json() };
  }
}

async function waitFor<T>(what: string, ms: number, probe: () => Promise<T | null | undefined | false>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(200);
  }
}

describe.runIf(onLinux)('local mode: the server killed with kill -9 after a payment, then restarted', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pogs-crash-'));
  const stateFile = path.join(dataDir, 'anvil-state.json');
  let shop: Shop | undefined;
  const providers: JsonRpcProvider[] = [];
  afterAll(async () => {
    for (const p of providers) p.destroy();
    if (shop && shop.child.exitCode === null && shop.child.signalCode === null) {
      shop.child.kill('SIGTERM');
      await new Promise((r) => shop!.child.once('exit', r));
    }
    for (const pid of anvilsOn(stateFile)) process.kill(pid, 'SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const browser = new Browser(() => shop!);
  const chainOf = () => {
    const { port } = readLock(lockFileOf(stateFile))!;
    const provider = new JsonRpcProvider(`http://127.0.0.1:${port}`, 8453, { staticNetwork: true, cacheTimeout: -1 });
    providers.push(provider);
    return provider;
  };

  async function payAnOrder(provider: JsonRpcProvider): Promise<{ checkout: Checkout; orderId: string; block: number }> {
    const { body } = await browser.call('/api/products');
    const variant = productSchema
      .array()
      .parse(body)
      .flatMap((p) => p.variants)
      .find((v) => !v.isSoldOut)!;
    expect((await browser.call('/api/cart/add', { method: 'POST', body: { variantId: variant.id, quantity: 1 } })).status).toBe(200);
    const created = await browser.call('/api/checkout', { method: 'POST', body: { customerWallet: null } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const checkout = checkoutSchema.parse(created.body);
    const tx = await sendTokenTransfer(provider, BUYER, {
      token: checkout.tokenAddress,
      to: checkout.storeWallet,
      value: BigInt(checkout.amountWei),
    });
    const receipt = (await mined(tx))!;
    // Nobody tells the server about the transfer: its chain watcher finds it.
    const orderId = await waitFor('the watcher turning the payment into an order', 60_000, async () => {
      const { body } = await browser.call(`/api/checkout/${checkout.id}`);
      return body.status === 'paid' && (body.orderId as string);
    });
    return { checkout, orderId, block: receipt.blockNumber };
  }

  it('gets no second chain and no failed order: the anvil ends with the server, the restart loads the same blocks, the order stays paid', async () => {
    shop = await startShop(dataDir);
    const first = readLock(lockFileOf(stateFile))!;
    expect(first.serverPid).toBe(shop.child.pid);
    // The process holding the chain is the anvil binary itself, under the server's guard.
    expect(isAnvilBinary(argvOf(first.anvilPid!))).toBe(true);
    expect(parentOf(first.anvilPid!)).toBe(first.guardPid);
    expect(parentOf(first.guardPid!)).toBe(shop.child.pid);

    const chain1 = chainOf();
    const paid = await payAnOrder(chain1);
    expect((await browser.call(`/api/orders/${paid.orderId}`)).body.status).toBe('paid');
    // More history behind the payment, so the watcher's cursor moves past its block.
    await chain1.send('anvil_mine', ['0x5']);
    const head = await chain1.getBlockNumber();
    const hashes = await Promise.all(Array.from({ length: head + 1 }, async (_, n) => (await chain1.getBlock(n))!.hash));

    shop.child.kill('SIGKILL');
    const killedAt = Date.now();
    await new Promise((r) => shop!.child.once('exit', r));
    // No cleanup code ran in the server; its guard saw the pipe close and ended anvil.
    await waitUntilGone([first.anvilPid!, first.guardPid!], 10_000);
    const goneAfterMs = Date.now() - killedAt;
    expect(anvilsOn(stateFile)).toEqual([]);

    shop = await startShop(dataDir);
    const second = readLock(lockFileOf(stateFile))!;
    expect(shop.log()).toMatch(new RegExp(`local chain state ${stateFile}: `));
    expect(anvilsOn(stateFile)).toEqual([second.anvilPid]);
    expect(running(first.anvilPid!)).toBe(false);

    // The same chain, not a look-alike: every block the first server saw, with its hash.
    const chain2 = chainOf();
    const again = await Promise.all(hashes.map(async (_, n) => (await chain2.getBlock(n))!.hash));
    expect(again).toEqual(hashes);
    console.info(
      `kill -9: anvil and guard gone ${goneAfterMs} ms after; blocks 0-${head} kept their hashes after the restart (payment in block ${paid.block})`,
    );
    const logs = await chain2.getLogs({ address: paid.checkout.tokenAddress, fromBlock: paid.block, toBlock: paid.block });
    expect(logs).toHaveLength(1);

    // A new payment found by the watcher means it has ticked past the restart, each tick first
    // comparing its cursor's block hash with the chain.
    const next = await payAnOrder(chain2);
    expect((await browser.call(`/api/orders/${next.orderId}`)).body.status).toBe('paid');
    expect((await browser.call(`/api/orders/${paid.orderId}`)).body.status).toBe('paid');
    expect(shop.log()).not.toMatch(/reorganisation|order failed/);

    // A clean stop ends the chain too, and frees the data folder.
    shop.child.kill('SIGTERM');
    await new Promise((r) => shop!.child.once('exit', r));
    await waitUntilGone([second.anvilPid!, second.guardPid!], 10_000);
    expect(fs.existsSync(lockFileOf(stateFile))).toBe(false);
  }, 240_000);
});
