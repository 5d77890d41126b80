/**
 * Runs one anvil for the server that started it, and never lets it outlive that server.
 *
 *   node anvil-guard.mjs --rpc <url> [--state-file <file> --owner <id>] -- <anvil binary> <args…>
 *
 * Started by server/chain/local-chain.ts with a pipe as stdin. A server can die without running
 * any cleanup (kill -9, OOM); the kernel still closes its end of the pipe, and then the guard
 * saves the chain and ends anvil. The guard runs the real anvil binary (not the npm package's
 * node wrapper), so the process it ends is the one holding the port and the state.
 *
 * With a state file the guard is the only writer of it: it saves the chain (atomically, see
 * chain-state.mjs) each time the head block changes, at most every POLL_MS, reports each save
 * on stdout so the server acts only on saved blocks, and saves once more before ending anvil.
 * It writes only while the lock beside the state file still names its owner id, so a chain that
 * another start has taken over can never overwrite the state.
 *
 * anvil stays in the server's process group, so a kill of the whole group (Playwright stops its
 * web server with SIGKILL to the group) ends it too instead of leaving it on its port. Ctrl-C
 * then reaches anvil as well and the last save may miss the newest blocks; the shop has not
 * counted those yet (see savedHead in local-chain.ts), so nothing it acted on is lost.
 *
 * stdout carries one JSON event per line: {event: 'spawned', anvilPid}, {event: 'saved', block,
 * hash}, {event: 'info' | 'error', message}, {event: 'anvil-exit', code, signal},
 * {event: 'stopped', reason}.
 */
import { spawn } from 'node:child_process';
import { lockFileOf, readLock, rpc, saveChainState } from './chain-state.mjs';

const POLL_MS = 100;
const STOP_TIMEOUT_MS = 5_000;
/** Bounds the last save, so a restart waiting for this guard (up to 15 s) is not kept waiting. */
const FINAL_SAVE_TIMEOUT_MS = 8_000;

const sep = process.argv.indexOf('--');
const opts = parseOptions(process.argv.slice(2, sep));
const [bin, ...anvilArgs] = process.argv.slice(sep + 1);
const stateFile = opts['state-file'];
const rpcUrl = opts.rpc;
let stopping = null;

// The server may be gone: writing to its pipes then fails (EPIPE), which must not end the guard
// before anvil is ended.
process.stdout.on('error', () => {});
process.stderr.on('error', () => {});
const emit = (event) => {
  try {
    process.stdout.write(`${JSON.stringify(event)}\n`);
  } catch {
    // nobody is listening any more
  }
};

const anvil = spawn(bin, anvilArgs, {
  stdio: ['ignore', 'ignore', 'pipe'],
  windowsHide: true,
  // Tags the process so a later start finds an anvil left running on this state file even when
  // its command line does not name the file (a fresh chain is started without --load-state).
  env: stateFile ? { ...process.env, POGS_ANVIL_STATE_FILE: stateFile } : process.env,
});
anvil.stderr.on('data', (d) => {
  try {
    process.stderr.write(d);
  } catch {
    // the server is gone
  }
});
let anvilExited = false;
const anvilExit = new Promise((resolve) =>
  anvil.once('exit', (code, signal) => {
    anvilExited = true;
    resolve();
    if (!stopping) {
      emit({ event: 'anvil-exit', code, signal });
      process.exit(1);
    }
  }),
);
anvil.once('error', (err) => {
  emit({ event: 'error', message: `anvil could not be started: ${err.message}` });
  process.exit(1);
});
emit({ event: 'spawned', anvilPid: anvil.pid });

process.stdin.on('end', () => void stop('the server closed the pipe'));
process.stdin.on('close', () => void stop('the server closed the pipe'));
process.stdin.on('error', () => void stop('the server pipe failed'));
process.stdin.resume();
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => void stop(signal));

// Saves run one at a time; the final one waits for the one under way.
let saving = Promise.resolve();
let savedHash = null;
let lostLock = false;

function ownsLock() {
  const lock = readLock(lockFileOf(stateFile));
  // A missing lock (someone removed it) is not a take-over; another start always writes its own.
  return !lock || lock.owner === opts.owner;
}

function save() {
  const run = saving.then(async () => {
    if (lostLock || anvilExited) return;
    if (!ownsLock()) {
      lostLock = true;
      emit({ event: 'error', message: `${stateFile} was claimed by another start; this chain is ended without saving` });
      void stop('lock taken over');
      return;
    }
    const saved = await saveChainState(rpcUrl, stateFile);
    savedHash = saved.hash;
    emit({ event: 'saved', ...saved });
  });
  saving = run.catch(() => {});
  return run;
}

async function saveLoop() {
  let answered = false;
  let lastError = '';
  while (!stopping && !anvilExited) {
    let gap = POLL_MS;
    try {
      const head = await rpc(rpcUrl, 'eth_getBlockByNumber', ['latest', false], 5_000);
      answered = true;
      if (head && head.hash !== savedHash && !stopping) {
        const started = Date.now();
        await save();
        // A big chain takes a while to dump: keep anvil free at least two thirds of the time.
        gap = Math.max(POLL_MS, 2 * (Date.now() - started));
      }
      lastError = '';
    } catch (err) {
      // Not listening yet is normal at start; after that, say each new problem once.
      const message = `could not save the chain to ${stateFile}: ${err.message}`;
      if (answered && message !== lastError) emit({ event: 'error', message });
      lastError = message;
    }
    await new Promise((r) => setTimeout(r, gap));
  }
}

function stop(reason) {
  stopping ??= (async () => {
    if (stateFile && !anvilExited && !lostLock) {
      try {
        await Promise.race([save(), sleep(FINAL_SAVE_TIMEOUT_MS).then(() => Promise.reject(new Error('timed out')))]);
      } catch (err) {
        // Ctrl-C reaches anvil too, and it may be gone before the last save: not a fault, the
        // file holds every block the shop counted.
        const ended = await Promise.race([anvilExit.then(() => true), sleep(1_000).then(() => false)]);
        emit(
          ended
            ? {
                event: 'info',
                message: `anvil ended (${reason}) before a last save; ${stateFile} holds the chain as saved before (every block the shop counted)`,
              }
            : { event: 'error', message: `the last save of ${stateFile} failed: ${err.message}` },
        );
      }
    }
    if (!anvilExited) {
      anvil.kill('SIGTERM');
      const ended = await Promise.race([anvilExit.then(() => true), sleep(STOP_TIMEOUT_MS).then(() => false)]);
      if (!ended) {
        anvil.kill('SIGKILL');
        await anvilExit; // reaped: no zombie is left behind
      }
    }
    emit({ event: 'stopped', reason });
    process.exit(0);
  })();
  return stopping;
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

function parseOptions(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i += 2) out[argv[i].replace(/^--/, '')] = argv[i + 1];
  return out;
}

if (stateFile) void saveLoop();
