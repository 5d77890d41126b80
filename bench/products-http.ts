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
import { startHarness } from '../server/test/harness';
import { againstBare, storedForm } from './http-load';
import { growCatalogue } from './grow-catalogue';

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 500);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 4000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DB = (process.env.BENCH_DB ?? 'pglite') as 'pglite' | 'postgres';

async function main() {
  const h = await startHarness(DB, { pageSize: 10, variantsFirst: 50 });
  try {
    growCatalogue(h, PRODUCTS);
    await h.catalogue.sync();
    await h.catalogue.seedDemoPrices();

    const path = '/api/products';
    const headers = { 'accept-encoding': 'gzip' };
    // The stored gzip form is made on the first ask: ask, and wait until it is there.
    await storedForm(h.baseUrl + path, headers);
    const {
      bare: b,
      app: a,
      ratio,
      bytes,
    } = await againstBare(h.baseUrl + path, path, headers, {
      rounds: ROUNDS,
      requests: REQUESTS,
      concurrency: CONCURRENCY,
    });

    console.log(
      `\nGET /api/products (gzip, ${(bytes / 1024).toFixed(1)} KB, ${PRODUCTS} products) on ${DB}: ` +
        `${ROUNDS} rounds × ${REQUESTS} requests at concurrency ${CONCURRENCY}, client in a worker thread\n`,
    );
    console.log('| server | req/s (median of rounds; each round) | p50 | p95 | failed |');
    console.log('|---|---|---|---|---|');
    console.log(`| bare node:http, same bytes | ${Math.round(b.rps)} (${b.each}) | ${b.p50} ms | ${b.p95} ms | ${b.failures} |`);
    console.log(`| the app (Koa) | ${Math.round(a.rps)} (${a.each}) | ${a.p50} ms | ${a.p95} ms | ${a.failures} |`);
    console.log(
      `\nratio app / bare: ${ratio.toFixed(2)}× (median of paired rounds; medians' ratio ${(a.rps / b.rps).toFixed(2)}×; target ≥ 0.70×)`,
    );
  } finally {
    await h.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
