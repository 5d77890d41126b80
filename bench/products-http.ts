/**
 * GET /api/products and GET /api/products/:id against their ceiling (`npm run bench`): the real
 * app (harness: PGlite or Postgres, the catalogue synced from the Shopify emulator and priced),
 * logging every request as production does (pino's JSON lines, written synchronously, here to a
 * file), beside a bare `node:http` server that answers the exact bytes and headers the app
 * answered for a gzip request. Both are loaded by the same client, in alternating rounds, and the
 * ratio app / bare is printed.
 *
 * The servers run on this process's main thread; the load client runs in a worker thread (its own
 * event loop), keep-alive sockets through a `node:http` Agent, reading each body without
 * decompressing it, so the figures are the servers' and not the client's.
 *
 * Knobs: BENCH_DB (pglite | postgres), BENCH_PRODUCTS (500), BENCH_REQUESTS (4000 per round),
 * BENCH_CONCURRENCY (32), BENCH_ROUNDS (3).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { startHarness } from '../server/test/harness';
import { againstBare, storedForm } from './http-load';
import { growCatalogue } from './grow-catalogue';

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 500);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 4000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DB = (process.env.BENCH_DB ?? 'pglite') as 'pglite' | 'postgres';

async function main() {
  // What production's logger is (server/lib/logger.ts: pino's JSON to stdout), to a file here.
  const logDir = mkdtempSync(join(tmpdir(), 'pogs-bench-log-'));
  const logger = pino({ level: 'info' }, pino.destination({ dest: join(logDir, 'shop.log'), sync: true }));
  const h = await startHarness(DB, { pageSize: 10, variantsFirst: 50, logger });
  try {
    growCatalogue(h, PRODUCTS);
    await h.catalogue.sync();
    await h.catalogue.seedDemoPrices();
    const first = (await h.catalogue.list()).products[0]!;
    const headers = { 'accept-encoding': 'gzip' };
    console.log(
      `\n${PRODUCTS} products on ${DB}, every request logged: ${ROUNDS} rounds × ${REQUESTS} requests at concurrency ${CONCURRENCY}, client in a worker thread\n`,
    );
    console.log(
      '| route | body (gzip) | bare node:http, same bytes: req/s, p50, p95, server µs/answer | the app (Koa): req/s, p50, p95, server µs/answer | ratio app / bare: throughput, server time |',
    );
    console.log('|---|---|---|---|---|');
    for (const [name, path] of [
      ['GET /api/products', '/api/products'],
      ['GET /api/products/:id', `/api/products/${encodeURIComponent(first.id)}`],
    ] as const) {
      // The stored gzip form is made on the first ask: ask, and wait until it is there.
      await storedForm(h.baseUrl + path, headers);
      const {
        bare: b,
        app: a,
        ratio,
        costRatio,
        bytes,
      } = await againstBare(h.baseUrl + path, path, headers, {
        rounds: ROUNDS,
        requests: REQUESTS,
        concurrency: CONCURRENCY,
      });
      console.log(
        `| ${name} | ${(bytes / 1024).toFixed(1)} KB | ${Math.round(b.rps)} (${b.each}), ${b.p50} ms, ${b.p95} ms, ${b.usPerRequest.toFixed(1)} | ` +
          `${Math.round(a.rps)} (${a.each}), ${a.p50} ms, ${a.p95} ms, ${a.usPerRequest.toFixed(1)} | ${ratio.toFixed(2)}×, ${costRatio.toFixed(2)}× |`,
      );
      if (a.failures || b.failures) console.log(`failed requests: app ${a.failures}, bare ${b.failures}`);
    }
    console.log(
      '\nratios: medians of paired rounds (each app round against the bare round just before it); throughput is app / bare, ' +
        'server time is bare / app (the main thread busy per answer: what an answer costs whichever side is the bottleneck); target ≥ 0.80×',
    );
  } finally {
    await h.close();
    rmSync(logDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
