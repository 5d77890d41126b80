/**
 * Catalogue benchmarks (`npm run bench`), loopback only, bounded in count and time:
 *  1. sync: time to page and write a catalogue of N products from the Shopify emulator
 *     (Shopify's throttle waits run on the emulator's test clock, so this is our own cost);
 *  2. GET /api/products: requests per second and latency percentiles at a fixed concurrency,
 *     full bodies and ETag revalidations (304), and the list's size on the wire in each coding
 *     (read raw: the identity figure is the real uncompressed body).
 * Results are printed as a Markdown table to paste into bench/README.md.
 */
import { performance } from 'node:perf_hooks';
import { startHarness } from '../server/test/harness';
import { fetchRaw } from '../server/test/raw-http';
import { storedForm } from './http-load';
import { growCatalogue } from './grow-catalogue';

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 500);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 4000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const DB = (process.env.BENCH_DB ?? 'pglite') as 'pglite' | 'postgres';

async function load(url: string, init: RequestInit, total: number, concurrency: number) {
  const latencies: number[] = [];
  let next = 0;
  let bytes = 0;
  const deadline = performance.now() + 60_000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total && performance.now() < deadline) {
        next++;
        const t0 = performance.now();
        const res = await fetch(url, init);
        bytes += (await res.arrayBuffer()).byteLength;
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(1);
  return {
    rps: Math.round(latencies.length / seconds),
    p50: pct(50),
    p95: pct(95),
    p99: pct(99),
    /** The decoded body (fetch decompresses): the JSON's size whatever the coding on the wire. */
    decodedKb: Math.round(bytes / latencies.length / 1024),
  };
}

async function main() {
  const h = await startHarness(DB, { pageSize: 10, variantsFirst: 50 });
  try {
    const shopProducts = growCatalogue(h, PRODUCTS);

    let t0 = performance.now();
    const first = await h.catalogue.sync();
    const firstMs = performance.now() - t0;
    t0 = performance.now();
    await h.catalogue.sync();
    const againMs = performance.now() - t0;
    await h.catalogue.seedDemoPrices();

    const url = `${h.baseUrl}/api/products`;
    t0 = performance.now();
    const warm = await fetch(url);
    const etag = warm.headers.get('etag')!;
    await warm.arrayBuffer();
    const rebuildMs = performance.now() - t0;

    // The bytes on the wire, read raw (fetch() would count the decoded body): the stored forms, once ready.
    const bytes: Record<string, number> = {};
    for (const coding of ['identity', 'gzip', 'br']) {
      if (coding !== 'identity') await storedForm(url, { 'accept-encoding': coding }, 120_000);
      bytes[coding] = (await fetchRaw(url, { 'accept-encoding': coding })).body.length;
    }

    const full = await load(url, { headers: { 'accept-encoding': 'identity' } }, REQUESTS, CONCURRENCY);
    const gzip = await load(url, { headers: { 'accept-encoding': 'gzip' } }, REQUESTS, CONCURRENCY);
    const revalidate = await load(url, { headers: { 'if-none-match': etag } }, REQUESTS, CONCURRENCY);

    console.log(
      `\nCatalogue benchmark on ${DB}: ${shopProducts} products, ${first.variants} variants, ${first.pages} pages; ${REQUESTS} requests at concurrency ${CONCURRENCY}\n`,
    );
    console.log('| measure | result |');
    console.log('|---|---|');
    console.log(`| first sync (insert) | ${firstMs.toFixed(0)} ms |`);
    console.log(`| re-sync (no changes) | ${againMs.toFixed(0)} ms |`);
    console.log(`| first GET /api/products after a change (rebuild) | ${rebuildMs.toFixed(0)} ms |`);
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    console.log(`| list size on the wire: identity / gzip / br | ${kb(bytes.identity)} / ${kb(bytes.gzip)} / ${kb(bytes.br)} |`);
    for (const [name, r] of [
      ['GET /api/products, identity', full],
      ['GET /api/products, gzip', gzip],
      ['GET /api/products, If-None-Match → 304', revalidate],
    ] as const) {
      console.log(`| ${name} | ${r.rps} req/s, p50 ${r.p50} ms, p95 ${r.p95} ms, p99 ${r.p99} ms, ${r.decodedKb} KB decoded/response |`);
    }
  } finally {
    await h.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
