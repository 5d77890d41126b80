/**
 * GET /api/products and GET /api/products/:id against their ceiling (`npm run bench:products`): a
 * shop beside a bare `node:http` server (in this process) that answers the exact bytes and headers
 * the shop answered for a gzip request. Both are loaded by the same client, in alternating rounds,
 * and the ratios shop / bare are printed.
 *
 * The shops (`BENCH_SHOPS`, bench-shops.ts; here `harness,start`, and `production` too with
 * TEST_DATABASE_URL):
 *  - `harness`: the app in this process (PGlite or Postgres, the catalogue of BENCH_PRODUCTS synced
 *    from the emulator and priced), logging every request with the running server's logger as
 *    main.ts makes it (server/lib/logger.ts), to a file here;
 *  - `start`: the shop as `npm start` runs it, its demo store grown to BENCH_PRODUCTS, logging for a
 *    terminal;
 *  - `production`: the production build (NODE_ENV=production, Postgres), its JSON log to a file, at
 *    the demo's 27 products.
 *
 * The load client runs in a worker thread (its own event loop), keep-alive sockets through a
 * `node:http` Agent, reading each body without decompressing it. Each server's cost is its main
 * thread's CPU time per answer (the kernel's count), whichever side is the bottleneck.
 *
 * Knobs: BENCH_DB (harness: pglite | postgres), BENCH_PRODUCTS (500), BENCH_REQUESTS (4000 per
 * round), BENCH_CONCURRENCY (32), BENCH_ROUNDS (3), BENCH_SHOPS.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../server/lib/logger';
import { startHarness } from '../server/test/harness';
import { SHOP_KINDS, startBenchShop, type ShopKind } from './bench-shops';
import { againstBare, storedForm } from './http-load';
import { growCatalogue } from './grow-catalogue';

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 500);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 4000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DB = (process.env.BENCH_DB ?? 'pglite') as 'pglite' | 'postgres';
const SHOPS: ShopKind[] = process.env.BENCH_SHOPS
  ? SHOP_KINDS
  : ['harness', 'start', ...(process.env.TEST_DATABASE_URL ? (['production'] as const) : [])];

interface Measured {
  baseUrl: string;
  productId: string;
  pid: number;
  products: number;
  stop(): Promise<void>;
}

/** The app in this process, logging as the running server does, to a file. */
async function harness(): Promise<Measured> {
  const logDir = mkdtempSync(join(tmpdir(), 'pogs-bench-log-'));
  const logger = createLogger({ level: 'info', requestLines: 'gathered', destination: join(logDir, 'shop.log') });
  const h = await startHarness(DB, { pageSize: 10, variantsFirst: 50, logger });
  growCatalogue(h, PRODUCTS);
  await h.catalogue.sync();
  await h.catalogue.seedDemoPrices();
  const list = (await h.catalogue.list()).products;
  return {
    baseUrl: h.baseUrl,
    productId: list[0]!.id,
    pid: process.pid,
    products: list.length,
    stop: async () => {
      await h.close();
      rmSync(logDir, { recursive: true, force: true });
    },
  };
}

async function main() {
  const headers = { 'accept-encoding': 'gzip' };
  console.log(
    `\n${ROUNDS} rounds × ${REQUESTS} requests at concurrency ${CONCURRENCY}, client in a worker thread; load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}\n`,
  );
  console.log(
    '| shop | route | body (gzip) | bare node:http, same bytes: req/s, p50, p95, server µs/answer | the shop: req/s, p50, p95, server µs/answer | ratio shop / bare: throughput, server time |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const kind of SHOPS) {
    const shop = kind === 'harness' ? await harness() : await startBenchShop(kind, PRODUCTS);
    const label = `${kind} (${shop.products} products${kind === 'harness' ? `, ${DB}` : ''})`;
    try {
      for (const [name, path] of [
        ['GET /api/products', '/api/products'],
        ['GET /api/products/:id', `/api/products/${encodeURIComponent(shop.productId)}`],
      ] as const) {
        // The stored gzip form is made on the first ask: ask, and wait until it is there.
        await storedForm(shop.baseUrl + path, headers);
        const opts = { rounds: ROUNDS, requests: REQUESTS, concurrency: CONCURRENCY, appPid: shop.pid };
        const { bare: b, app: a, ratio, costRatio, bytes } = await againstBare(shop.baseUrl + path, path, headers, opts);
        console.log(
          `| ${label} | ${name} | ${(bytes / 1024).toFixed(1)} KB | ${Math.round(b.rps)} (${b.each}), ${b.p50} ms, ${b.p95} ms, ${b.usPerRequest.toFixed(1)} | ` +
            `${Math.round(a.rps)} (${a.each}), ${a.p50} ms, ${a.p95} ms, ${a.usPerRequest.toFixed(1)} | ${ratio.toFixed(2)}×, ${costRatio.toFixed(2)}× |`,
        );
        if (a.failures || b.failures) console.log(`failed requests: shop ${a.failures}, bare ${b.failures}`);
      }
    } finally {
      await shop.stop();
    }
  }
  console.log(
    `\nload average after: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}; ratios: medians of paired rounds (each shop round against the bare round just before it); throughput is shop / bare, ` +
      'server time is bare / shop (the server thread’s CPU time per answer: what an answer costs whichever side is the bottleneck); target ≥ 0.80×',
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
