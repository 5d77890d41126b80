/**
 * The chain's RPC stops answering (a hung node: it accepts connections and answers nothing): every
 * chain call gives up at the target's timeout. The shopper's order is answered 503
 * chain-unavailable within it, the transaction hint still answers, the admin's refund
 * verification answers chain-unavailable, the watcher's pass fails with an UnavailableError that
 * names the RPC's host only, and the connections to the hung RPC are closed, not kept. Real anvil
 * behind an RPC relay that can be made to hang; a refused connection, HTTP 5xx and a JSON-RPC
 * error answer are told apart on real servers too.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hexlify, randomBytes, ZeroAddress } from 'ethers';
import { ErrorCode } from '../../../common/errors';
import type { Variant } from '../../../common/api';
import { DEV_ACCOUNTS } from '../../chain/local-chain';
import { UnavailableError } from '../../lib/unavailable';
import { testDatabaseKinds } from '../../test/databases';
import { adminSession, startHarness, type Harness } from '../../test/harness';
import { payingKit, type PayingKit } from '../../test/paying';
import { Shopper } from '../../test/shopper';
import { useTestChain } from '../../test/use-test-chain';
import { bumpCatalogueVersion } from '../catalogue';
import { ChainClient } from './chain-client';

/** The timeout of every chain call here; the answers are bounded by twice it, never by a fixed figure. */
const TIMEOUT_MS = 1000;
const BUYER = DEV_ACCOUNTS[2]!;
const POG = 10n ** 18n;
/** Where an RPC provider would put its API key: it must never reach an error or a log. */
const SECRET_PATH = '/v2/secret-api-key';
const testChain = useTestChain();

/**
 * An RPC in front of anvil that relays every call, or holds some (`hang`: the connection is held
 * open and never answered; a number: answered after that many ms). `hanging` counts held requests
 * whose connection the caller has not closed yet; `hung` counts every request held.
 */
async function startRelay(upstream: string) {
  let rules: Record<string, 'hang' | number> = {};
  const state = { hanging: 0, hung: 0 };
  const server = await listen(
    createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const body = Buffer.concat(chunks);
        const { method } = JSON.parse(body.toString()) as { method: string };
        const rule = rules[method] ?? rules['*'];
        if (rule === 'hang') {
          state.hung++;
          state.hanging++;
          req.socket.once('close', () => state.hanging--);
          return;
        }
        if (rule) await new Promise((r) => setTimeout(r, rule));
        const answer = await fetch(upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(await answer.text());
      });
    }),
  );
  return {
    server,
    host: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${SECRET_PATH}`,
    state,
    /** Holds the calls of these methods (`*`: every other one); no rules: relays everything. */
    set: (r: Record<string, 'hang' | number>) => void (rules = r),
    hang: () => void (rules = { '*': 'hang' }),
    answer: () => void (rules = {}),
  };
}

async function listen(server: Server): Promise<Server> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
}

/** How long `work` took, in ms, and what it gave. */
async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const began = performance.now();
  const value = await work();
  return { ms: performance.now() - began, value };
}

const randomHash = () => hexlify(randomBytes(32));

describe.each(testDatabaseKinds)('a hung chain RPC, on %s', (kind) => {
  let h: Harness;
  let relay: Awaited<ReturnType<typeof startRelay>>;
  let pay: PayingKit;
  let variant: Variant;
  let admin: string;
  const lines: Array<{ level: number; msg: string }> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as (typeof lines)[number]) });

  beforeAll(async () => {
    relay = await startRelay(testChain.chain.rpcUrl);
    h = await startHarness(kind, { chain: testChain.chain, chainRpc: { rpcUrl: relay.url, timeoutMs: TIMEOUT_MS }, logger });
    await h.catalogue.sync();
    await h.catalogue.seedDemoPrices();
    variant = (await h.catalogue.list()).products.flatMap((p) => p.variants).find((v) => !v.isSoldOut)!;
    await h.database.db('variants').where({ shopify_id: variant.id }).update({ available_stock: null, inventory_quantity: null });
    await bumpCatalogueVersion(h.database.db);
    pay = payingKit(h, testChain);
    admin = await adminSession(h);
  });
  afterAll(async () => {
    await h?.close();
    if (relay) await close(relay.server);
  });

  /** Every hung request's connection is closed by the shop once its timeout passed. */
  const noConnectionKept = () => vi.waitFor(() => expect(relay.state.hanging).toBe(0), { timeout: TIMEOUT_MS, interval: 20 });

  it('answers POST /api/orders/create 503 chain-unavailable within the timeout, and the hint still answers', async () => {
    relay.answer();
    const s = new Shopper(h);
    const checkout = await pay.checkout(s, variant.id, BUYER);
    relay.hang();
    const hash = randomHash();
    const hungBefore = relay.state.hung;

    const warnedBefore = lines.filter((l) => l.level >= 40).length;
    const order = await timed(() => pay.createOrder(s, { checkoutId: checkout.id, transactionHash: hash }));
    expect(order.value.status).toBe(503);
    // Shoppers asking again meet the same outage: it is logged once for the instance, not per ask.
    for (let again = 0; again < 2; again++)
      expect((await pay.createOrder(s, { checkoutId: checkout.id, transactionHash: hash })).status).toBe(503);
    expect(
      lines
        .filter((l) => l.level >= 40)
        .slice(warnedBefore)
        .map((l) => l.msg),
    ).toEqual([expect.stringMatching(/^the chain RPC is unreachable \(timeout after 1 s\); logged again when it answers$/)]);
    expect(order.value.body.code).toBe(ErrorCode.chainUnavailable);
    expect(order.value.body.message).toMatch(/cannot reach the Base network/);
    expect(order.ms).toBeLessThan(2 * TIMEOUT_MS);
    // The RPC was asked, and hung: the answer is the timeout's.
    expect(relay.state.hung).toBeGreaterThan(hungBefore);

    // Only a hint: recorded, answered with the checkout, the chain looked at later.
    const hint = await timed(() => s.post(`/api/checkout/${checkout.id}/transaction`, { transactionHash: hash }));
    expect(hint.value.status).toBe(200);
    expect((await hint.value.json()).transactionHash).toBe(hash);
    expect(hint.ms).toBeLessThan(2 * TIMEOUT_MS);
    await noConnectionKept();
  });

  it('answers 503 within one timeout when a slow answer is followed by a hung one, not one timeout per call', async () => {
    relay.answer();
    const s = new Shopper(h);
    const checkout = await pay.checkout(s, variant.id, BUYER);
    // The receipt comes late (no such transaction), then the head is never answered.
    relay.set({ eth_getTransactionReceipt: 0.6 * TIMEOUT_MS, eth_blockNumber: 'hang' });
    const order = await timed(() => pay.createOrder(s, { checkoutId: checkout.id, transactionHash: randomHash() }));
    expect(order.value.status).toBe(503);
    expect(order.value.body.code).toBe(ErrorCode.chainUnavailable);
    // Each call alone is within its timeout; the two in a row are not.
    expect(order.ms).toBeLessThan(1.5 * TIMEOUT_MS);
    await noConnectionKept();
  });

  it('fails the watcher’s pass with an UnavailableError naming the RPC’s host only, and passes again once it answers', async () => {
    relay.hang();
    const failed = await timed(() => h.payments!.watcher.tick().catch((err: unknown) => err));
    expect(failed.value).toBeInstanceOf(UnavailableError);
    const err = failed.value as UnavailableError;
    expect(err.dependency).toBe(`chain RPC ${relay.host}`);
    expect(err.reason).toBe('timeout after 1 s');
    expect(`${err.message} ${err.stack}`).not.toContain('secret');
    expect(failed.ms).toBeLessThan(2 * TIMEOUT_MS);
    await noConnectionKept();

    relay.answer();
    expect((await h.payments!.watcher.tick()).leader).toBe(true);
  });

  it('answers a sign-in whose signature must be checked on chain 503 chain-unavailable, not "invalid signature"', async () => {
    relay.answer();
    const s = new Shopper(h);
    await s.add({ variantId: variant.id, quantity: 1 }); // a session
    const nonce = await s.request(`/api/auth/nonce?address=${DEV_ACCOUNTS[3]}`);
    const { message } = (await nonce.json()) as { message: string };
    // Signed by another key than the address's: only a contract wallet at that address (EIP-1271,
    // asked on chain) could vouch for it.
    const signature = await (await testChain.provider.getSigner(BUYER)).signMessage(message);
    relay.hang();
    const verify = await timed(() => s.post('/api/auth/verify', { message, signature }));
    expect(verify.value.status).toBe(503);
    expect((await verify.value.json()).code).toBe(ErrorCode.chainUnavailable);
    expect(verify.ms).toBeLessThan(2 * TIMEOUT_MS);
    await noConnectionKept();

    // With the RPC answering, the same kind of signature is what it is: not the wallet's.
    relay.answer();
    const again = await s.request(`/api/auth/nonce?address=${DEV_ACCOUNTS[3]}`);
    const fresh = ((await again.json()) as { message: string }).message;
    const wrong = await (await testChain.provider.getSigner(BUYER)).signMessage(fresh);
    const refused = await s.post('/api/auth/verify', { message: fresh, signature: wrong });
    expect(refused.status).toBe(401);
    expect((await refused.json()).code).toBe(ErrorCode.invalidSignature);
  });

  it('answers the admin’s refund verification 503 chain-unavailable within the timeout', async () => {
    // A transfer to the store that pays no checkout, found by the watcher while the RPC answers.
    relay.answer();
    const paid = await pay.send(BUYER, { value: 7n * POG + 123n });
    await h.payments!.watcher.tick();
    const transfer = await pay.transferRow(paid);
    expect(transfer).toBeDefined();

    relay.hang();
    const refund = await timed(() =>
      h.api(`/api/admin/payments/${transfer!.id}/refund`, {
        method: 'POST',
        headers: { cookie: admin, 'content-type': 'application/json' },
        body: JSON.stringify({ transactionHash: randomHash(), amount: '1.00' }),
      }),
    );
    expect(refund.value.status).toBe(503);
    expect((await refund.value.json()).code).toBe(ErrorCode.chainUnavailable);
    expect(refund.ms).toBeLessThan(2 * TIMEOUT_MS);
    await noConnectionKept();
  });
});

describe('the chain client tells an outage from an answer', () => {
  const servers: Server[] = [];
  afterAll(async () => {
    for (const s of servers) await close(s);
  });
  const client = (rpcUrl: string) =>
    new ChainClient({ rpcUrl, chainId: 8453, tokenAddress: ZeroAddress, storeWallet: ZeroAddress, timeoutMs: TIMEOUT_MS });
  const serve = async (handler: (req: IncomingMessage, res: ServerResponse) => void) => {
    const server = await listen(createServer(handler));
    servers.push(server);
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}${SECRET_PATH}`;
  };

  it('a refused connection is an UnavailableError at once', async () => {
    const server = await listen(createServer());
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    await close(server);
    const c = client(url);
    const failed = await timed(() => c.blockNumber().catch((err: unknown) => err));
    expect(failed.value).toBeInstanceOf(UnavailableError);
    expect(failed.value).toMatchObject({ reason: 'connection refused' });
    expect(failed.ms).toBeLessThan(TIMEOUT_MS);
    c.destroy();
  });

  it('HTTP 5xx is an UnavailableError, naming the host and not the path', async () => {
    const c = client(await serve((_req, res) => res.writeHead(503).end('upstream overloaded')));
    const err = await c.blockNumber().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnavailableError);
    expect(err).toMatchObject({ reason: 'HTTP 503' });
    expect((err as Error).message).toMatch(/^chain RPC 127\.0\.0\.1:\d+ is unreachable: HTTP 503$/);
    c.destroy();
  });

  it('an RPC refusing the call (HTTP 401, a revoked key) is not an outage, and is said without the URL', async () => {
    const c = client(await serve((_req, res) => res.writeHead(401, 'Unauthorized').end('{"error":"invalid API key"}')));
    const err = await c.blockNumber().catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(UnavailableError);
    expect((err as Error).message).toMatch(/^chain RPC 127\.0\.0\.1:\d+ refused the call: HTTP 401 Unauthorized$/);
    // The provider (the sign-in's and the start checks' calls) says it the same way.
    const viaProvider = await c.provider.getCode(ZeroAddress).catch((e: unknown) => e);
    expect((viaProvider as Error).message).not.toContain('secret');
    c.destroy();
  });

  it('a JSON-RPC error the node answered is not an outage', async () => {
    const c = client(testChain.chain.rpcUrl);
    const err = await c.receipt('0x1234').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(UnavailableError);
    // The same client reads the chain when asked something sensible.
    expect(await c.blockNumber()).toBeGreaterThanOrEqual(0);
    c.destroy();
  });

  it('its provider (the sign-in’s contract-wallet check) gives up at the same timeout', async () => {
    let hanging = 0;
    const c = client(
      await serve((req) => {
        hanging++;
        req.socket.once('close', () => hanging--);
      }),
    );
    const failed = await timed(() => c.provider.call({ to: ZeroAddress, data: '0x' }).catch((err: unknown) => err));
    expect(failed.value).toBeInstanceOf(UnavailableError);
    expect(failed.ms).toBeLessThan(2 * TIMEOUT_MS);
    await vi.waitFor(() => expect(hanging).toBe(0), { timeout: TIMEOUT_MS, interval: 20 });
    c.destroy();
  });
});
