/**
 * One local chain per data folder, played the way crashes and stale files happen: real anvil,
 * real processes, real signals. (The whole server killed with kill -9 while an order is paid is
 * in local-mode-crash.int.test.ts.)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { sleep } from '../lib/sleep';
import { anvilsOn, argvOf, isAnvilBinary, onLinux, parentOf, running, waitUntilGone } from '../test/processes';
import { ChainClient } from '../modules/payments';
import { lockFileOf, readLock } from './chain-state.mjs';
import { startLocalChain, type LocalChain } from './local-chain';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** A logger whose lines the test can read. */
function recordingLogger() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(
        ...String(chunk)
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l).msg as string),
      );
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines };
}

async function rpc(url: string, method: string, params: unknown[] = []) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = await res.json();
  if (body.error) throw new Error(body.error.message);
  return body.result;
}

async function blockHashes(url: string, upTo: number): Promise<string[]> {
  const hashes = [];
  for (let n = 0; n <= upTo; n++) hashes.push((await rpc(url, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false]))?.hash ?? null);
  return hashes;
}

async function waitFor<T>(
  what: string,
  ms: number,
  probe: () => T | null | undefined | false | Promise<T | null | undefined | false>,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    let value;
    try {
      value = await probe();
    } catch {
      value = null; // not there yet
    }
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(50);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

describe.runIf(onLinux)('one local chain per data folder', () => {
  const cleanup: Array<() => unknown> = [];
  const stateFiles: string[] = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn();
    // Whatever a failed test left running on its files.
    for (const file of stateFiles.splice(0)) {
      for (const pid of anvilsOn(file)) process.kill(pid, 'SIGKILL');
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });
  function tempStateFile() {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pogs-chain-')), 'anvil-state.json');
    stateFiles.push(file);
    return file;
  }
  async function start(stateFile?: string, logger?: pino.Logger): Promise<LocalChain> {
    const chain = await startLocalChain({ port: 0, stateFile, logger });
    cleanup.push(() => chain.stop());
    return chain;
  }
  function spawnKept(cmd: string, args: string[], opts: Parameters<typeof spawn>[2] = {}): ChildProcess {
    const child = spawn(cmd, args, { stdio: 'ignore', ...opts });
    cleanup.push(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    return child;
  }

  it("a stale lock naming a dead process, an unrelated process and another folder's anvil: the chain starts and none of them is touched", async () => {
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((r) => dead.once('exit', r));
    const unrelated = spawnKept('sleep', ['300']);
    const otherFolders = await start(tempStateFile());
    const stateFile = tempStateFile();
    // Everything a forged or stale lock could point at, down to the other anvil's port.
    fs.writeFileSync(
      lockFileOf(stateFile),
      JSON.stringify({
        owner: 'stale',
        stateFile,
        port: otherFolders.port,
        serverPid: dead.pid,
        guardPid: unrelated.pid,
        anvilPid: otherFolders.anvilPid,
      }),
    );

    const { logger, lines } = recordingLogger();
    const chain = await start(stateFile, logger);

    expect(running(unrelated.pid!)).toBe(true);
    expect(running(otherFolders.anvilPid)).toBe(true);
    expect(await rpc(otherFolders.rpcUrl, 'eth_chainId')).toBe('0x2105');
    expect(lines.find((l) => l.startsWith('local chain state'))).toMatch(
      /is stale: no such process runs this chain any more; nothing was ended/,
    );
    expect(anvilsOn(stateFile)).toEqual([chain.anvilPid]);
    expect(readLock(lockFileOf(stateFile))).toMatchObject({ anvilPid: chain.anvilPid, port: chain.port, serverPid: process.pid });
  });

  it('a second start on a data folder whose server still runs is refused, and the running chain keeps its state file', async () => {
    const stateFile = tempStateFile();
    const first = await start(stateFile);
    const lock = readLock(lockFileOf(stateFile));

    await expect(startLocalChain({ port: 0, stateFile })).rejects.toThrow(/belongs to a POGS Shop server that is still running/);

    expect(anvilsOn(stateFile)).toEqual([first.anvilPid]);
    expect(readLock(lockFileOf(stateFile))).toEqual(lock);
    // Its guard still owns the file: new blocks are still saved.
    const before = await first.savedHead!();
    await rpc(first.rpcUrl, 'anvil_mine', ['0x2']);
    await waitFor('the new blocks saved', 10_000, async () => (await first.savedHead!()) >= before + 2);
  });

  it("an anvil an earlier version left running on the state file (npm wrapper, anvil's own --state) is ended at start, and its blocks are kept", async () => {
    const stateFile = tempStateFile();
    const wrapper = path.join(path.dirname(createRequire(import.meta.url).resolve('@foundry-rs/anvil/package.json')), 'bin.mjs');
    const port = await freePort();
    // What `npm start` did before: the wrapper, anvil writing the state file itself every 10 s.
    const legacy = spawnKept(
      process.execPath,
      [wrapper, '--chain-id', '8453', '--port', String(port), '--silent', '--state', stateFile, '--state-interval', '10'],
      { detached: true },
    );
    const legacyUrl = `http://127.0.0.1:${port}`;
    await waitFor('the legacy anvil answering', 30_000, () => rpc(legacyUrl, 'eth_chainId').catch(() => null));
    await rpc(legacyUrl, 'anvil_mine', ['0x3']);
    const before = await blockHashes(legacyUrl, 3);
    const legacyAnvil = anvilsOn(stateFile);
    expect(legacyAnvil).toHaveLength(1);
    expect(parentOf(legacyAnvil[0])).toBe(legacy.pid);

    const { logger, lines } = recordingLogger();
    const chain = await start(stateFile, logger);

    expect(lines.find((l) => l.startsWith('local chain state'))).toMatch(
      new RegExp(`ended .*anvil pid ${legacyAnvil[0]}.*anvil npm wrapper pid ${legacy.pid}`),
    );
    await waitUntilGone([legacy.pid!, legacyAnvil[0]], 5_000);
    expect(anvilsOn(stateFile)).toEqual([chain.anvilPid]);
    expect(await blockHashes(chain.rpcUrl, 3)).toEqual(before);
  });

  it('a restart right after kill -9, while the old guard is still at work, gets one chain with every block', async () => {
    const stateFile = tempStateFile();
    // The old server: another process holding a chain on the state file.
    const holder = spawnKept(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        "const { startLocalChain } = await import('./server/chain/local-chain.ts'); await startLocalChain({ port: 0, stateFile: process.env.STATE_FILE }); console.log('ready'); setInterval(() => {}, 1000);",
      ],
      { cwd: ROOT, env: { ...process.env, STATE_FILE: stateFile }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    holder.stdout!.on('data', (d) => (out += d));
    await waitFor("the old server's chain started", 30_000, () => out.includes('ready'));
    const old = readLock(lockFileOf(stateFile))!;
    const oldUrl = `http://127.0.0.1:${old.port}`;
    await rpc(oldUrl, 'anvil_mine', ['0x5']);
    const hashes = await blockHashes(oldUrl, 5);

    // The old guard is slow to finish (stopped for a moment) when the new start comes.
    process.kill(old.guardPid!, 'SIGSTOP');
    holder.kill('SIGKILL');
    await new Promise((r) => holder.once('exit', r));
    const { logger, lines } = recordingLogger();
    const starting = start(stateFile, logger);
    await sleep(300);
    process.kill(old.guardPid!, 'SIGCONT');
    const chain = await starting;

    // Either the old guard finished (the new start waited for it) or the new start ended its
    // anvil after saving it: both keep the chain.
    expect(lines.find((l) => l.startsWith('local chain state'))).toMatch(
      /waited [\d.]+ s for the previous run's guard|ended .*anvil pid \d+ \(its chain saved first\)/,
    );
    console.info(lines.find((l) => l.startsWith('local chain state')));
    await waitUntilGone([old.guardPid!, old.anvilPid!], 15_000);
    expect(anvilsOn(stateFile)).toEqual([chain.anvilPid]);
    expect(await blockHashes(chain.rpcUrl, 5)).toEqual(hashes);
  });

  it('the whole server process group killed with SIGKILL (how Playwright stops its web server): no anvil is left on the port', async () => {
    const stateFile = tempStateFile();
    const holder = spawnKept(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        "const { startLocalChain } = await import('./server/chain/local-chain.ts'); await startLocalChain({ port: 0, stateFile: process.env.STATE_FILE }); console.log('ready'); setInterval(() => {}, 1000);",
      ],
      { cwd: ROOT, env: { ...process.env, STATE_FILE: stateFile }, stdio: ['ignore', 'pipe', 'inherit'], detached: true },
    );
    let out = '';
    holder.stdout!.on('data', (d) => (out += d));
    await waitFor("the server's chain started", 30_000, () => out.includes('ready'));
    const { anvilPid, guardPid, port } = readLock(lockFileOf(stateFile))!;

    process.kill(-holder.pid!, 'SIGKILL');

    await waitUntilGone([anvilPid!, guardPid!], 10_000);
    // The port is free for the next run (which may use another data folder, so it would never
    // find this anvil by its state file).
    const other = await startLocalChain({ port: port!, stateFile: tempStateFile() });
    cleanup.push(() => other.stop());
    expect(other.port).toBe(port);
  });

  it("a LOCAL_CHAIN_PORT taken by another shop's anvil: the start is refused, and that chain never lands in this state file", async () => {
    const stateFile = tempStateFile();
    const mine = await startLocalChain({ port: 0, stateFile });
    await rpc(mine.rpcUrl, 'anvil_mine', ['0x3']);
    await mine.stop();
    const before = fs.readFileSync(stateFile);
    const other = await start();
    await rpc(other.rpcUrl, 'anvil_mine', ['0x9']);

    await expect(startLocalChain({ port: other.port, stateFile })).rejects.toThrow(
      `port ${other.port} (LOCAL_CHAIN_PORT) is already in use`,
    );

    expect(fs.readFileSync(stateFile).equals(before)).toBe(true);
    expect(fs.existsSync(lockFileOf(stateFile))).toBe(false);
  });

  it('a total crash (server, guard and anvil killed at once) loses no block the shop was told was saved', async () => {
    const stateFile = tempStateFile();
    const chain = await startLocalChain({ port: 0, stateFile });
    const { guardPid, anvilPid } = readLock(lockFileOf(stateFile))!;
    const seen: string[] = await blockHashes(chain.rpcUrl, 0);
    // Blocks keep coming while the guard saves, so the crash lands between saves.
    const deadline = Date.now() + 2_000;
    while (Date.now() < deadline) {
      await rpc(chain.rpcUrl, 'anvil_mine', ['0x1']);
      const head = await rpc(chain.rpcUrl, 'eth_getBlockByNumber', ['latest', false]);
      seen[Number(head.number)] = head.hash;
      await sleep(10);
    }
    process.kill(anvilPid!, 'SIGKILL');
    process.kill(guardPid!, 'SIGKILL');
    await waitUntilGone([anvilPid!, guardPid!], 5_000);
    await chain.stop(); // only collects the dead guard; every saved event has been read by now
    const saved = await chain.savedHead!();
    expect(saved).toBeGreaterThan(0);

    const again = await start(stateFile);
    const head = Number(await rpc(again.rpcUrl, 'eth_blockNumber'));
    expect(head).toBeGreaterThanOrEqual(saved);
    expect(await blockHashes(again.rpcUrl, saved)).toEqual(seen.slice(0, saved + 1));
    console.info(`total crash: ${seen.length - 1} blocks mined, ${saved} reported saved, ${head} back after the restart`);
  });

  it("a block not saved yet does not count: the shop's chain client sees it only once the guard has saved it", async () => {
    const stateFile = tempStateFile();
    const chain = await start(stateFile);
    const { guardPid } = readLock(lockFileOf(stateFile))!;
    const zero = '0x0000000000000000000000000000000000000000';
    const client = new ChainClient({
      rpcUrl: chain.rpcUrl,
      chainId: 8453,
      tokenAddress: zero,
      storeWallet: zero,
      savedHead: chain.savedHead,
    });
    cleanup.push(() => client.destroy());
    const before = await client.blockNumber();

    process.kill(guardPid!, 'SIGSTOP'); // the guard cannot save now
    try {
      await rpc(chain.rpcUrl, 'anvil_mine', ['0x1']);
      expect(Number(await rpc(chain.rpcUrl, 'eth_blockNumber'))).toBe(before + 1);
      expect(await client.blockNumber()).toBe(before);
    } finally {
      process.kill(guardPid!, 'SIGCONT');
    }

    await waitFor('the new block saved and counted', 10_000, async () => (await client.blockNumber()) === before + 1);
  });

  it('a test chain (no state file) ends with its test process, even on kill -9', async () => {
    const holder = spawnKept(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        "const { startTestChain } = await import('./server/test/chain.ts'); const c = await startTestChain(); console.log(JSON.stringify({ anvilPid: c.chain.anvilPid })); setInterval(() => {}, 1000);",
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    holder.stdout!.on('data', (d) => (out += d));
    const { anvilPid } = await waitFor(
      'the test chain started',
      30_000,
      () => out.includes('\n') && (JSON.parse(out) as { anvilPid: number }),
    );
    expect(isAnvilBinary(argvOf(anvilPid))).toBe(true);

    holder.kill('SIGKILL');

    await waitUntilGone([anvilPid], 10_000);
  });
});
