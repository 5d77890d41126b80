/**
 * What an operator would look at with `ps`, for tests about processes left running: read
 * straight from /proc (these tests run on Linux), independently of the shop's own process code.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sleep } from '../lib/sleep';

export const onLinux = process.platform === 'linux';

/** The arguments of a running (not zombie) process; null when it is gone. */
export function argvOf(pid: number): string[] | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (['Z', 'X'].includes(stat.slice(stat.lastIndexOf(')') + 2)[0])) return null;
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return null;
  }
}

export function parentOf(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

export const running = (pid: number) => argvOf(pid) !== null;

export const isAnvilBinary = (argv: string[] | null) => argv !== null && path.basename(argv[0] ?? '') === 'anvil';

/**
 * Every anvil binary running on this state file: it names the file in its arguments, or carries
 * it in its environment (a fresh chain's anvil is started before the file exists).
 */
export function anvilsOn(stateFile: string): number[] {
  const pids: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    const argv = argvOf(pid);
    if (!isAnvilBinary(argv)) continue;
    let env: string[] = [];
    try {
      env = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    } catch {
      // gone meanwhile
    }
    if (argv!.includes(stateFile) || env.some((e) => e.endsWith(`=${stateFile}`))) pids.push(pid);
  }
  return pids;
}

/** Resolves once none of `pids` runs any more; throws after `ms` naming those still running. */
export async function waitUntilGone(pids: number[], ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (pids.some(running)) {
    if (Date.now() > deadline) throw new Error(`still running after ${ms} ms: ${pids.filter(running).join(', ')}`);
    await sleep(50);
  }
}
