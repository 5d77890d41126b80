/**
 * Saving the local chain's state file, shared by the anvil guard (plain node, so it starts fast
 * and needs no TypeScript loader) and server/chain/local-chain.ts.
 *
 * Why not anvil's own `--state`/`--state-interval`: anvil rewrites the file in place (open with
 * O_TRUNC, no fsync, no rename), so a crash while it writes leaves a truncated file that anvil
 * then refuses to load, and two anvils on one file interleave their writes. Here the state comes
 * from `anvil_dumpState` (the same JSON `--load-state` reads, gzipped) and is written to a side
 * file, fsynced and renamed over the state file: a reader sees the old or the new file, never half.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/** The lock beside the state file: who may write it, and which processes run its chain. */
export function lockFileOf(stateFile) {
  return `${stateFile}.lock`;
}

export function readLock(lockFile) {
  try {
    const lock = JSON.parse(fs.readFileSync(lockFile, 'utf8'));
    return lock && typeof lock === 'object' ? lock : null;
  } catch {
    return null; // missing, or not ours: treated as no lock
  }
}

export function writeFileAtomic(file, data) {
  const tmp = `${file}.saving`;
  const fd = fs.openSync(tmp, 'w');
  try {
    fs.writeSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
  // The rename itself is durable only once the folder is synced (not possible on every platform).
  try {
    const dir = fs.openSync(path.dirname(file), 'r');
    try {
      fs.fsyncSync(dir);
    } finally {
      fs.closeSync(dir);
    }
  } catch {
    // best effort
  }
}

export async function rpc(rpcUrl, method, params, timeoutMs = 10_000) {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = await res.json();
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/**
 * Writes the chain's whole state (every block, receipt and account) to `stateFile`, atomically.
 * Resolves with the newest block it is sure the file holds: the head read before the dump (the
 * dump may hold a few more).
 */
export async function saveChainState(rpcUrl, stateFile) {
  const head = await rpc(rpcUrl, 'eth_getBlockByNumber', ['latest', false]);
  const dumped = await rpc(rpcUrl, 'anvil_dumpState', [], 60_000);
  const json = zlib.gunzipSync(Buffer.from(String(dumped).replace(/^0x/, ''), 'hex'));
  writeFileAtomic(stateFile, json);
  return { block: Number(head.number), hash: String(head.hash) };
}
