/**
 * One local chain per data folder. Before a server starts anvil on a state file, it looks for
 * processes still running that chain: an anvil a crashed server left behind (its guard was killed
 * too, or it was started by a version of the shop without the guard), that anvil's npm wrapper,
 * or a guard still saving and ending the anvil of a server that just died.
 *
 * Processes are recognised by what they run, never by a pid alone: a pid in a stale lock file
 * may by now belong to anything. An anvil counts only when its arguments name the state file
 * (`--state`, `--load-state`, `--dump-state`) or its environment carries the guard's tag
 * (POGS_ANVIL_STATE_FILE); a guard only when it runs anvil-guard.mjs for that file.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sleep } from '../lib/sleep';
import { saveChainState, type ChainLock } from './chain-state.mjs';

export const GUARD_SCRIPT_NAME = 'anvil-guard.mjs';
export const STATE_TAG = 'POGS_ANVIL_STATE_FILE';
const STATE_FLAGS = ['--state', '--load-state', '--dump-state'];

export interface ProcessInfo {
  pid: number;
  ppid: number;
  argv: string[];
}

/**
 * The processes of this user, or null where they cannot be listed (Windows): then no leftover
 * can be found, and the lock's owner check in the guard is what keeps a second chain from
 * writing the state file.
 */
export function listProcesses(): ProcessInfo[] | null {
  if (process.platform === 'linux') {
    const out: ProcessInfo[] = [];
    for (const name of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      const info = readProc(Number(name));
      if (info) out.push(info);
    }
    return out;
  }
  if (process.platform === 'win32') return null;
  try {
    // macOS and other Unixes: arguments come space-joined, so a path with spaces is not matched
    // (then nothing is ended, which is the safe side).
    const text = execFileSync('ps', ['-axww', '-o', 'pid=,ppid=,command='], { encoding: 'utf8' });
    return text
      .split('\n')
      .map((line) => line.trim().match(/^(\d+)\s+(\d+)\s+(.*)$/))
      .filter((m): m is RegExpMatchArray => m !== null)
      .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), argv: m[3].split(' ') }));
  } catch {
    return null;
  }
}

/** A live (not zombie) process's pid, parent and arguments; null when it is gone. */
function readProc(pid: number): ProcessInfo | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ')'.
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (state === 'Z' || state === 'X') return null;
    const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    if (argv[argv.length - 1] === '') argv.pop();
    return { pid, ppid: Number(ppid), argv };
  } catch {
    return null;
  }
}

function processInfo(pid: number): ProcessInfo | null {
  if (process.platform === 'linux') return readProc(pid);
  return listProcesses()?.find((p) => p.pid === pid) ?? null;
}

function alive(pid: number): boolean {
  if (process.platform === 'linux') return readProc(pid) !== null;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether `pid` is (still) a running anvil binary: checked before signalling a remembered pid. */
export function anvilRunning(pid: number): boolean {
  const p = processInfo(pid);
  return p !== null && isAnvilBinary(p);
}

function namesStateFile(argv: string[], stateFile: string): boolean {
  return argv.some((a, i) => (a === stateFile && STATE_FLAGS.includes(argv[i - 1])) || STATE_FLAGS.some((f) => a === `${f}=${stateFile}`));
}

/** Started with anvil's own dumping (an earlier version's `--state`): it saves itself on SIGTERM. */
function dumpsItself(argv: string[]): boolean {
  return argv.some((a) => ['--state', '--dump-state'].includes(a.split('=')[0]));
}

function taggedWith(pid: number, stateFile: string): boolean {
  if (process.platform !== 'linux') return false;
  try {
    return fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`${STATE_TAG}=${stateFile}`);
  } catch {
    return false;
  }
}

export function isAnvilBinary(p: ProcessInfo): boolean {
  return ['anvil', 'anvil.exe'].includes(path.basename(p.argv[0] ?? ''));
}

/** The real anvil binary running the chain of this state file. */
export function isAnvilFor(p: ProcessInfo, stateFile: string): boolean {
  return isAnvilBinary(p) && (namesStateFile(p.argv, stateFile) || taggedWith(p.pid, stateFile));
}

/** The `@foundry-rs/anvil` npm wrapper (node bin.mjs …) an earlier version started on this file. */
function isWrapperFor(p: ProcessInfo, stateFile: string): boolean {
  return (p.argv[1] ?? '').endsWith(path.join('@foundry-rs', 'anvil', 'bin.mjs')) && namesStateFile(p.argv, stateFile);
}

export function isGuardFor(p: ProcessInfo, stateFile: string): boolean {
  return path.basename(p.argv[1] ?? '') === GUARD_SCRIPT_NAME && p.argv.some((a, i) => a === stateFile && p.argv[i - 1] === '--state-file');
}

function portOf(argv: string[]): number | null {
  const i = argv.indexOf('--port');
  return i >= 0 ? Number(argv[i + 1]) || null : null;
}

async function waitGone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (alive(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

/** Ends a process after checking, right before each signal, that it still is what was found. */
async function end(pid: number, stillIt: (p: ProcessInfo) => boolean): Promise<void> {
  for (const [signal, ms] of [
    ['SIGTERM', 5_000],
    ['SIGKILL', 5_000],
  ] as const) {
    const p = processInfo(pid);
    if (!p || !stillIt(p)) return;
    try {
      process.kill(pid, signal);
    } catch {
      return; // gone meanwhile
    }
    if (await waitGone(pid, ms)) return;
  }
  throw new Error(`process ${pid} did not end after SIGKILL`);
}

export interface LeftoverReport {
  /** One line for the log: what was found on the state file and what was done about it. */
  summary: string;
  ended: Array<{ pid: number; kind: 'anvil' | 'anvil npm wrapper'; saved: boolean }>;
}

/**
 * Makes the state file free for a new chain: waits for a guard that is winding down, ends every
 * anvil (and npm wrapper) still running on it, after saving the chain of the one the lock names.
 * Throws when the chain belongs to a server that is still running.
 */
export async function endLeftoverChain(stateFile: string, lock: Partial<ChainLock> | null): Promise<LeftoverReport> {
  const notes: string[] = [];
  const ended: LeftoverReport['ended'] = [];
  const procs = listProcesses();
  if (!procs) {
    return { summary: `cannot list processes on ${process.platform}; an anvil left running on ${stateFile} would not be found`, ended };
  }
  const others = (list: ProcessInfo[]) => list.filter((p) => p.pid !== process.pid);

  for (const guard of others(procs).filter((p) => isGuardFor(p, stateFile))) {
    // A guard whose server is alive belongs to a running shop: two servers on one data folder
    // would run two chains (and share one embedded database), so this start is refused.
    if (lock?.serverPid && guard.ppid === lock.serverPid && alive(lock.serverPid)) {
      throw new Error(
        `the local chain on ${stateFile} belongs to a POGS Shop server that is still running (pid ${lock.serverPid}); stop it first, or start this one with another DATA_DIR`,
      );
    }
    const started = Date.now();
    // A dying guard makes a last save (at most 8 s) and ends its anvil (at most 5 s more).
    if (!(await waitGone(guard.pid, 15_000))) {
      throw new Error(`the guard (pid ${guard.pid}) of an earlier local chain on ${stateFile} is still running; end it first`);
    }
    notes.push(
      `waited ${((Date.now() - started) / 1000).toFixed(1)} s for the previous run's guard (pid ${guard.pid}) to save its chain and end its anvil`,
    );
  }

  const after = others(listProcesses() ?? []);
  // Only the lock's own anvil holds the chain the shop last acted on: it is ended last, after its
  // chain is saved. Any other one (an earlier version's, or one that lost the lock) is ended
  // first, as it is: one started with anvil's own --state writes the file as it exits, and
  // must not overwrite the save of the chain that counts.
  const anvils = after
    .filter((p) => isAnvilFor(p, stateFile))
    .sort((a, b) => Number(a.pid === lock?.anvilPid) - Number(b.pid === lock?.anvilPid));
  for (const anvil of anvils) {
    let saved = false;
    const port = portOf(anvil.argv);
    if (lock?.anvilPid === anvil.pid && port && !dumpsItself(anvil.argv)) {
      try {
        await saveChainState(`http://127.0.0.1:${port}`, stateFile);
        saved = true;
      } catch {
        // not answering: its last periodic save stands
      }
    }
    await end(anvil.pid, (p) => isAnvilFor(p, stateFile));
    ended.push({ pid: anvil.pid, kind: 'anvil', saved });
  }
  for (const wrapper of after.filter((p) => isWrapperFor(p, stateFile))) {
    // It exits by itself once its anvil is gone; end it if it has not.
    if (!(await waitGone(wrapper.pid, 2_000))) await end(wrapper.pid, (p) => isWrapperFor(p, stateFile));
    ended.push({ pid: wrapper.pid, kind: 'anvil npm wrapper', saved: false });
  }

  if (ended.length) {
    const what = ended.map((e) => `${e.kind} pid ${e.pid}${e.saved ? ' (its chain saved first)' : ''}`).join(', ');
    notes.push(`ended what an earlier run left running on it: ${what}`);
  } else if (lock && !notes.length) {
    const pids = [lock.guardPid && `guard ${lock.guardPid}`, lock.anvilPid && `anvil ${lock.anvilPid}`].filter(Boolean).join(', ');
    notes.push(`its lock${pids ? ` (${pids})` : ''} is stale: no such process runs this chain any more; nothing was ended`);
  }
  return { summary: notes.length ? notes.join('; ') : 'no earlier chain was running on it', ended };
}
