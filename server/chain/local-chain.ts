/**
 * The embedded development chain: anvil from the `@foundry-rs/anvil` npm package, with Base's
 * chain id (8453) so wallets and payment code behave as on Base. Its state is dumped to a file
 * (and loaded on the next start) so local payments survive restarts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import type { Logger } from '../lib/logger';
import { sleep } from '../lib/sleep';

export const LOCAL_CHAIN_ID = 8453;

/** Anvil's well-known dev accounts (mnemonic "test test … junk"), unlocked on the node. */
export const DEV_ACCOUNTS = [
  '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
] as const;
/** The account behind the shop's Demo Wallet. */
export const DEMO_WALLET_ACCOUNT = DEV_ACCOUNTS[1];

export interface LocalChain {
  rpcUrl: string;
  port: number;
  stop(): Promise<void>;
}

export async function startLocalChain(opts: { port: number; stateFile?: string; logger?: Logger }): Promise<LocalChain> {
  const port = opts.port || (await freePort());
  const require = createRequire(import.meta.url);
  const bin = path.join(path.dirname(require.resolve('@foundry-rs/anvil/package.json')), 'bin.mjs');
  const args = ['--chain-id', String(LOCAL_CHAIN_ID), '--host', '127.0.0.1', '--port', String(port), '--silent'];
  if (opts.stateFile) {
    fs.mkdirSync(path.dirname(opts.stateFile), { recursive: true });
    args.push('--state', opts.stateFile, '--state-interval', '10');
  }
  const child: ChildProcess = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr = (stderr + d).slice(-2000)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  // A child is not ended with its parent: make sure no anvil outlives this process.
  const killOnExit = () => child.kill('SIGTERM');
  process.once('exit', killOnExit);

  const rpcUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`anvil exited (${child.exitCode}): ${stderr.trim()}`);
    try {
      const res = await fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      });
      if ((await res.json()).result === `0x${LOCAL_CHAIN_ID.toString(16)}`) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`anvil did not answer on ${rpcUrl} within 30 s: ${stderr.trim()}`);
    }
    await sleep(100);
  }
  opts.logger?.info({ rpcUrl }, 'local chain ready');

  return {
    rpcUrl,
    port,
    async stop() {
      process.removeListener('exit', killOnExit);
      if (child.exitCode !== null) return;
      child.kill('SIGTERM'); // anvil dumps its state on a clean exit
      await Promise.race([exited, sleep(5000).then(() => child.kill('SIGKILL'))]);
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}
