/**
 * GET /api/products against its ceiling (`npm run bench`): the real app (harness: PGlite or
 * Postgres, the catalogue synced from the Shopify emulator and priced) beside a bare `node:http`
 * server that answers the exact bytes and headers the app answered for a gzip request. Both are
 * loaded by the same client, in alternating rounds, and the ratio app / bare is printed.
 *
 * The servers run on this process's main thread; the load client runs in a worker thread (its own
 * event loop), keep-alive sockets through a `node:http` Agent, reading each body without
 * decompressing it, so the figures are the servers' and not the client's.
 *
 * Knobs: BENCH_DB (pglite | postgres), BENCH_PRODUCTS (500), BENCH_REQUESTS (4000 per round),
 * BENCH_CONCURRENCY (32), BENCH_ROUNDS (3).
 */
import { createServer, request, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { startHarness, type Harness } from '../server/test/harness';

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 500);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 4000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DB = (process.env.BENCH_DB ?? 'pglite') as 'pglite' | 'postgres';

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

interface Round {
  latencies: number[];
  seconds: number;
  bytes: number;
  failures: number;
}

function load(url: string, headers: Record<string, string>): Promise<Round> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(LOADER, { eval: true, workerData: { url, total: REQUESTS, concurrency: CONCURRENCY, headers } });
    worker.once('message', (m: Round) => {
      void worker.terminate();
      resolve(m);
    });
    worker.once('error', reject);
  });
}

/** One raw answer (no decompression): status, headers and body bytes. */
function fetchRaw(url: string, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

function growCatalogue(h: Harness, products: number): void {
  const demo = h.emulator.state.listProducts();
  for (let i = demo.length; i < products; i++) {
    const base = demo[i % demo.length];
    h.emulator.upsertProduct({
      title: `${base.title} #${i}`,
      handle: `${base.handle}-${i}`,
      descriptionHtml: base.descriptionHtml,
      vendor: base.vendor,
      productType: base.productType,
      tags: base.tags,
      status: 'ACTIVE',
      images: base.images.map((img) => ({ alt: img.alt })),
      variants: base.variants.map((v) => ({
        title: v.title,
        price: v.price,
        inventoryQuantity: v.inventoryQuantity + 1,
        selectedOptions: v.selectedOptions,
      })),
    });
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function summary(rounds: Round[]) {
  const all = rounds.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const rps = rounds.map((r) => r.latencies.length / r.seconds);
  return {
    rps: median(rps),
    each: rps.map((x) => Math.round(x)).join(', '),
    p50: percentile(all, 50).toFixed(1),
    p95: percentile(all, 95).toFixed(1),
    failures: rounds.reduce((n, r) => n + r.failures, 0),
    kb: (rounds[0].bytes / Math.max(1, rounds[0].latencies.length) / 1024).toFixed(1),
  };
}

async function main() {
  const h = await startHarness(DB, { pageSize: 10, variantsFirst: 50 });
  const bare = createServer();
  try {
    growCatalogue(h, PRODUCTS);
    await h.catalogue.sync();
    await h.catalogue.seedDemoPrices();

    const path = '/api/products';
    const headers = { 'accept-encoding': 'gzip' };
    const answer = await fetchRaw(h.baseUrl + path, headers);
    if (answer.status !== 200 || answer.headers['content-encoding'] !== 'gzip') throw new Error(`unexpected answer ${answer.status}`);
    // The same headers as the app's (minus the per-response ones node:http writes itself).
    const same: OutgoingHttpHeaders = {};
    for (const [k, v] of Object.entries(answer.headers)) {
      if (!['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(k) && v !== undefined) same[k] = v;
    }
    const body = answer.body;
    bare.on('request', (req, res) => {
      if (req.method === 'GET' && req.url === path) {
        res.writeHead(200, same);
        res.end(body);
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}${path}`;
    const appUrl = h.baseUrl + path;

    // Warm both (JIT, sockets), then alternate so that a noisy neighbour hits both alike.
    await load(bareUrl, headers);
    await load(appUrl, headers);
    const bareRounds: Round[] = [];
    const appRounds: Round[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      bareRounds.push(await load(bareUrl, headers));
      appRounds.push(await load(appUrl, headers));
    }
    const b = summary(bareRounds);
    const a = summary(appRounds);

    console.log(
      `\nGET /api/products (gzip, ${(body.length / 1024).toFixed(1)} KB, ${PRODUCTS} products) on ${DB}: ` +
        `${ROUNDS} rounds × ${REQUESTS} requests at concurrency ${CONCURRENCY}, client in a worker thread\n`,
    );
    console.log('| server | req/s (median of rounds; each round) | p50 | p95 | failed |');
    console.log('|---|---|---|---|---|');
    console.log(`| bare node:http, same bytes | ${Math.round(b.rps)} (${b.each}) | ${b.p50} ms | ${b.p95} ms | ${b.failures} |`);
    console.log(`| the app (Koa) | ${Math.round(a.rps)} (${a.each}) | ${a.p50} ms | ${a.p95} ms | ${a.failures} |`);
    // Each app round beside the bare round just before it, so a noisy neighbour weighs on both.
    const paired = median(
      appRounds.map((r, i) => r.latencies.length / r.seconds / (bareRounds[i].latencies.length / bareRounds[i].seconds)),
    );
    console.log(
      `\nratio app / bare: ${paired.toFixed(2)}× (median of paired rounds; medians' ratio ${(a.rps / b.rps).toFixed(2)}×; target ≥ 0.70×)`,
    );
  } finally {
    await new Promise((r) => bare.close(r));
    await h.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
