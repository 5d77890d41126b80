/**
 * The embedded development chain: anvil from the `@foundry-rs/anvil` npm package, with Base's
 * chain id (8453) so wallets and payment code behave as on Base.
 *
 * anvil runs under a small guard process (anvil-guard.mjs) whose stdin is a pipe from this
 * process: however this process ends, even by kill -9, the guard notices the pipe close and ends
 * anvil, so no anvil outlives the process that started it.
 *
 * With a state file (local mode keeps one in DATA_DIR) the chain survives restarts, and there is
 * one chain per state file: a start first ends whatever an earlier run left running on it
 * (leftover-chain.ts), then claims the lock beside it. The guard saves the chain to the file
 * whenever a block is added, and `savedHead()` says how far the file goes: the shop acts only on
 * saved blocks, so no crash can take back a block it has seen (a payment's block, the watcher's
 * cursor), and the watcher never mistakes a restart for a chain reorganisation.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BASE_CHAIN_ID, BASE_CHAIN_ID_HEX } from '../../common/chain';
import type { Logger } from '../lib/logger';
import { sleep } from '../lib/sleep';
import { lockFileOf, readLock, rpc, writeFileAtomic, type ChainLock } from './chain-state.mjs';
import { anvilRunning, endLeftoverChain, GUARD_SCRIPT_NAME } from './leftover-chain';

/** Anvil's well-known dev accounts (mnemonic "test test … junk"), unlocked on the node. */
export const DEV_ACCOUNTS = [
  '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
] as const;
/** The account behind the shop's Demo Wallet. */
export const DEMO_WALLET_ACCOUNT = DEV_ACCOUNTS[1];

const GUARD = path.join(path.dirname(fileURLToPath(import.meta.url)), GUARD_SCRIPT_NAME);
const READY_TIMEOUT_MS = 30_000;
const SAVE_WAIT_MS = 1_000;

export interface LocalChain {
  rpcUrl: string;
  port: number;
  /** The pid of the anvil binary itself. */
  anvilPid: number;
  /**
   * With a state file: the newest block saved to it, once `head` is saved or after at most
   * SAVE_WAIT_MS. Blocks above it may still be lost in a crash, so the shop treats them as not
   * yet mined (ChainTarget.savedHead); the short wait spares a shopper's "is my payment
   * confirmed?" a retry when it lands between a block and its save (about 0.1 s).
   */
  savedHead?: (head?: number) => Promise<number>;
  /**
   * With `historySeconds`, on a new chain: true while the chain's clock runs behind the wall clock
   * (until `catchUpWithClock`).
   */
  inThePast: boolean;
  /** Moves the chain's clock to the wall clock and mines a block there, when it was behind (a new chain with history). */
  catchUpWithClock(): Promise<void>;
  stop(): Promise<void>;
}

export async function startLocalChain(opts: {
  port: number;
  stateFile?: string;
  logger?: Logger;
  /** A block every this many seconds, as on Base, instead of one per transaction (the live rehearsal). */
  blockTimeSeconds?: number;
  /**
   * A new chain (no state loaded) begins this many seconds in the past, so that what is deployed
   * first has a history by the time `catchUpWithClock` brings the chain to the present (local
   * mode's Uniswap pool, whose time-weighted average needs one).
   */
  historySeconds?: number;
}): Promise<LocalChain> {
  const stateFile = opts.stateFile && path.resolve(opts.stateFile);
  if (stateFile) {
    fs.mkdirSync(path.dirname(stateFile), { recursive: true });
    const leftovers = await endLeftoverChain(stateFile, readLock(lockFileOf(stateFile)));
    opts.logger?.info(`local chain state ${stateFile}: ${leftovers.summary}`);
  }
  // A fixed port must be free: whatever else answers there (another shop's anvil, say) would be
  // taken for this chain, and the guard would save that chain into this state file.
  if (opts.port && !(await portFree(opts.port))) {
    throw new Error(
      `port ${opts.port} (LOCAL_CHAIN_PORT) is already in use; free it, or leave LOCAL_CHAIN_PORT unset to use any free port`,
    );
  }
  const port = opts.port || (await freePort());
  const rpcUrl = `http://127.0.0.1:${port}`;
  const args = ['--chain-id', String(BASE_CHAIN_ID), '--host', '127.0.0.1', '--port', String(port), '--silent'];
  if (opts.blockTimeSeconds) args.push('--block-time', String(opts.blockTimeSeconds));
  const guardArgs = ['--rpc', rpcUrl];

  let lock: ChainLock | undefined;
  let loaded = false;
  if (stateFile) {
    const lockFile = lockFileOf(stateFile);
    lock = { owner: randomUUID(), stateFile, port, serverPid: process.pid, startedAt: new Date().toISOString() };
    writeFileAtomic(lockFile, JSON.stringify(lock));
    guardArgs.push('--state-file', stateFile, '--owner', lock.owner);
    loaded = fs.existsSync(stateFile);
    // anvil keeps nothing itself: the guard saves (atomically) and this process loads.
    if (loaded) args.push('--load-state', stateFile);
  }
  const inThePast = Boolean(opts.historySeconds) && !loaded;
  if (inThePast) args.push('--timestamp', String(Math.floor(Date.now() / 1000) - opts.historySeconds!));

  const child: ChildProcess = spawn(process.execPath, [GUARD, ...guardArgs, '--', anvilBinary(), ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr = (stderr + d).slice(-2000)));
  let stopping = false;
  let anvilPid: number | undefined;
  let saved: number | undefined;
  const onSaved: Array<() => void> = [];
  let lastError = '';
  // 'close', not 'exit': by then every event the guard wrote has been read.
  const guardExit = new Promise<void>((resolve) => child.once('close', () => resolve()));
  // A guard that died (killed on its own) makes writing to its stdin fail; stop() still works.
  child.stdin?.on('error', () => {});
  let guardExited = false;
  let ready = false;
  void guardExit.then(() => {
    guardExited = true;
    if (stopping || !ready) return; // a failed start throws its own error below
    opts.logger?.error(
      { rpcUrl, stderr: stderr.trim() || undefined },
      'the local chain stopped unexpectedly; payments wait until the server is restarted',
    );
    // The guard was killed before it could end anvil: end it here.
    if (anvilPid && anvilRunning(anvilPid)) killQuietly(anvilPid, 'SIGTERM');
  });

  let buffered = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      let event: { event?: string; anvilPid?: number; block?: number; message?: string; code?: number | null; signal?: string | null };
      try {
        event = JSON.parse(line);
      } catch {
        continue;
      }
      if (event.event === 'spawned') anvilPid = event.anvilPid;
      else if (event.event === 'saved' && typeof event.block === 'number') {
        saved = Math.max(saved ?? 0, event.block);
        for (const wake of onSaved.splice(0)) wake();
      } else if (event.event === 'error') {
        lastError = event.message ?? '';
        opts.logger?.error({ stateFile }, `local chain: ${event.message}`);
      } else if (event.event === 'info') {
        opts.logger?.info(`local chain: ${event.message}`);
      } else if (event.event === 'anvil-exit' && !stopping)
        opts.logger?.error({ code: event.code, signal: event.signal }, 'anvil exited unexpectedly');
    }
  });

  const stop = async () => {
    if (stopping) return guardExit;
    stopping = true;
    child.stdin?.end(); // the guard saves the chain and ends anvil
    await Promise.race([guardExit, sleep(15_000)]);
    if (!guardExited) {
      child.kill('SIGKILL');
      if (anvilPid && anvilRunning(anvilPid)) killQuietly(anvilPid, 'SIGKILL');
      await guardExit;
    }
    if (stateFile && lock && readLock(lockFileOf(stateFile))?.owner === lock.owner) fs.rmSync(lockFileOf(stateFile), { force: true });
  };

  // Ready once anvil answers with Base's chain id and, with a state file, the guard has saved
  // it once (so savedHead() always has a value).
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (guardExited) {
      await stop(); // frees the lock
      const hint =
        stateFile && /failed to parse/.test(stderr)
          ? ` The state file ${stateFile} is damaged; move it away to start a fresh local chain (orders paid on the old one then fail).`
          : '';
      throw new Error(`anvil exited: ${stderr.trim() || lastError}${hint}`);
    }
    if (anvilPid && (!stateFile || saved !== undefined) && (await answersChainId(rpcUrl))) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`anvil did not answer on ${rpcUrl} within ${READY_TIMEOUT_MS / 1000} s: ${stderr.trim() || lastError}`);
    }
    await sleep(50);
  }
  ready = true;

  if (stateFile && lock) {
    lock = { ...lock, guardPid: child.pid, anvilPid };
    writeFileAtomic(lockFileOf(stateFile), JSON.stringify(lock));
  }
  opts.logger?.info(
    { rpcUrl, anvilPid, guardPid: child.pid },
    stateFile ? `local chain ready, ${loaded ? 'loaded from' : 'new, saved to'} ${stateFile} (head block ${saved})` : 'local chain ready',
  );

  let behind = inThePast;
  return {
    rpcUrl,
    port,
    anvilPid: anvilPid!,
    get inThePast() {
      return behind;
    },
    async catchUpWithClock() {
      if (!behind) return;
      // evm_setTime moves the clock of the blocks to come; the block mined now is at the present.
      await rpc(rpcUrl, 'evm_setTime', [Math.floor(Date.now() / 1000)]);
      await rpc(rpcUrl, 'evm_mine', []);
      behind = false;
    },
    savedHead: stateFile
      ? async (head) => {
          const deadline = Date.now() + SAVE_WAIT_MS;
          while (head !== undefined && (saved ?? 0) < head && Date.now() < deadline && !guardExited) {
            await new Promise<void>((wake) => {
              onSaved.push(wake);
              setTimeout(wake, deadline - Date.now()).unref();
            });
          }
          return saved ?? 0;
        }
      : undefined,
    stop,
  };
}

async function answersChainId(rpcUrl: string): Promise<boolean> {
  try {
    const res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    });
    return (await res.json()).result === BASE_CHAIN_ID_HEX;
  } catch {
    return false; // not listening yet
  }
}

/**
 * The anvil binary of this platform, run directly: the npm package's `bin.mjs` is a node wrapper
 * around it, and ending the wrapper is not always ending anvil.
 */
function anvilBinary(): string {
  const require = createRequire(import.meta.url);
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const name = process.platform === 'win32' ? 'anvil.exe' : 'anvil';
  try {
    return require.resolve(`@foundry-rs/anvil-${process.platform}-${arch}/bin/${name}`);
  } catch {
    // Where no platform package was installed, the wrapper's postinstall puts the binary here.
    const fallback = path.join(path.dirname(require.resolve('@foundry-rs/anvil/package.json')), '..', 'dist', name);
    if (fs.existsSync(fallback)) return fallback;
    throw new Error(`no anvil binary for ${process.platform}-${process.arch}: run npm install`);
  }
}

function killQuietly(pid: number, signal: NodeJS.Signals) {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/** A port free on 127.0.0.1 right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}
