/**
 * What the HTTP benches share: growing the emulator's catalogue to N products, a load client in a
 * worker thread (its own event loop, keep-alive sockets, bodies read without decompressing them),
 * raw requests, a bare `node:http` server answering given bytes, and the paired app / bare ratio.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type OutgoingHttpHeaders, type Server } from 'node:http';
import { fetchRaw } from '../server/test/raw-http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';

/** The load loop, plain JavaScript for the worker thread: `concurrency` keep-alive loops until `total` requests or 60 s. */
const LOADER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { url, total, concurrency, headers } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const latencies = [];
let next = 0, bytes = 0, failures = 0;
const deadline = performance.now() + 60000;
const once = () => new Promise((resolve) => {
  const t0 = performance.now();
  const req = http.get(url, { agent, headers }, (res) => {
    res.on('data', (chunk) => { bytes += chunk.length; });
    res.on('end', () => {
      if (res.statusCode !== 200) failures++;
      latencies.push(performance.now() - t0);
      resolve();
    });
  });
  req.on('error', () => { failures++; resolve(); });
});
(async () => {
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < total && performance.now() < deadline) { next++; await once(); }
  }));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  parentPort.postMessage({ latencies, seconds, bytes, failures });
})();
`;

export interface Round {
  latencies: number[];
  seconds: number;
  bytes: number;
  failures: number;
  /**
   * The server's main thread's time on a CPU during the round, in ms: per request, what an answer
   * costs the server, whether or not the client was the bottleneck, and not counting the time
   * another process had the core.
   */
  serverCpuMs: number;
}

/**
 * A process's main thread's time on a CPU so far, in ms: the kernel's count (Linux,
 * /proc/<pid>/task/<pid>/schedstat, in ns), the thread where a Node server runs its JavaScript.
 */
function mainThreadCpuMs(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
}

/** A round of `total` requests; `serverPid`: the process whose server answers (this one unless said). */
export function load(
  url: string,
  headers: Record<string, string>,
  total: number,
  concurrency: number,
  serverPid = process.pid,
): Promise<Round> {
  // The server thread's CPU time over the round (the client is in a worker thread of its own).
  const before = mainThreadCpuMs(serverPid);
  return new Promise((resolve, reject) => {
    const worker = new Worker(LOADER, { eval: true, workerData: { url, total, concurrency, headers } });
    worker.once('message', (m: Omit<Round, 'serverCpuMs'>) => {
      void worker.terminate();
      resolve({ ...m, serverCpuMs: mainThreadCpuMs(serverPid) - before });
    });
    worker.once('error', reject);
  });
}

/**
 * The probe, plain JavaScript for a worker thread: one small request after another (2 ms apart);
 * the latencies of those sent between the 'start' and 'stop' messages (the ones before warm the
 * connection and the route).
 */
const PROBE = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const latencies = [];
let recording = false, stop = false;
parentPort.on('message', (m) => { if (m === 'start') recording = true; else stop = true; });
const once = () => new Promise((resolve) => {
  const t0 = performance.now();
  const counted = recording;
  http.get(workerData.url, { agent }, (res) => {
    res.resume();
    res.on('end', () => { if (counted) latencies.push(performance.now() - t0); resolve(); });
  }).on('error', () => resolve());
});
(async () => {
  while (!stop) { await once(); await new Promise((r) => setTimeout(r, 2)); }
  agent.destroy();
  parentPort.postMessage(latencies);
})();
`;

/**
 * Requests `url` one after another from a worker thread (its own event loop: a stall of the
 * server's thread shows as a slow answer, not as a late request); `start()` begins counting,
 * `stop()` resolves with the latencies counted.
 */
export function probe(url: string): { start(): void; stop(): Promise<number[]> } {
  const worker = new Worker(PROBE, { eval: true, workerData: { url } });
  const done = new Promise<number[]>((resolve, reject) => {
    worker.once('message', (latencies: number[]) => {
      void worker.terminate();
      resolve(latencies);
    });
    worker.once('error', reject);
  });
  return {
    start: () => worker.postMessage('start'),
    stop() {
      worker.postMessage('stop');
      return done;
    },
  };
}

/**
 * Waits until `url` is answered from its stored compressed form (a Content-Length; an answer
 * compressed on the fly is chunked), asking for it first (the first ask starts the compression).
 */
export async function storedForm(url: string, headers: Record<string, string>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await fetchRaw(url, headers);
    if (res.status === 200 && res.headers['content-encoding'] && res.headers['content-length']) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${url} was not answered from a stored compressed form within ${timeoutMs} ms`);
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export function summary(rounds: Round[]) {
  const all = rounds.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const rps = rounds.map((r) => r.latencies.length / r.seconds);
  return {
    rps: median(rps),
    each: rps.map((x) => Math.round(x)).join(', '),
    p50: percentile(all, 50).toFixed(1),
    p95: percentile(all, 95).toFixed(1),
    failures: rounds.reduce((n, r) => n + r.failures, 0),
    /** The server thread's CPU time per answer, µs (median of rounds). */
    usPerRequest: median(rounds.map((r) => (r.serverCpuMs * 1000) / Math.max(1, r.latencies.length))),
    kb: (rounds[0].bytes / Math.max(1, rounds[0].latencies.length) / 1024).toFixed(1),
  };
}

/** A bare node:http server answering `path` with exactly the app's answer (its headers minus the per-response ones). */
export async function bareServer(
  path: string,
  answer: { headers: IncomingHttpHeaders; body: Buffer },
): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const same: OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(answer.headers)) {
    if (!['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(k) && v !== undefined) same[k] = v;
  }
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === path) {
      res.writeHead(200, same);
      res.end(answer.body);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    server,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * The app against a bare server answering its exact bytes: after a warm-up of each, `rounds`
 * alternating rounds; the ratio is the median of each app round over the bare round just before it.
 */
export async function againstBare(
  appUrl: string,
  path: string,
  headers: Record<string, string>,
  opts: { rounds: number; requests: number; concurrency: number; appPid?: number },
) {
  const appPid = opts.appPid ?? process.pid;
  const answer = await fetchRaw(appUrl, headers);
  if (answer.status !== 200) throw new Error(`${appUrl}: unexpected answer ${answer.status}`);
  const bare = await bareServer(path, answer);
  try {
    await load(bare.url, headers, opts.requests, opts.concurrency);
    await load(appUrl, headers, opts.requests, opts.concurrency, appPid);
    const bareRounds: Round[] = [];
    const appRounds: Round[] = [];
    for (let i = 0; i < opts.rounds; i++) {
      bareRounds.push(await load(bare.url, headers, opts.requests, opts.concurrency));
      appRounds.push(await load(appUrl, headers, opts.requests, opts.concurrency, appPid));
    }
    const ratio = median(
      appRounds.map((r, i) => r.latencies.length / r.seconds / (bareRounds[i].latencies.length / bareRounds[i].seconds)),
    );
    // The same pairing for the server thread's cost per answer: bare's over the app's.
    const costRatio = median(
      appRounds.map((r, i) => bareRounds[i].serverCpuMs / bareRounds[i].latencies.length / (r.serverCpuMs / r.latencies.length)),
    );
    return { bare: summary(bareRounds), app: summary(appRounds), ratio, costRatio, bytes: answer.body.length };
  } finally {
    await bare.close();
  }
}
