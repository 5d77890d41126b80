/**
 * The shop's busiest reads against their ceiling (`npm run bench:products`): a shop beside a bare
 * `node:http` server (in this process) that answers the exact bytes and headers the shop answered
 * for a gzip request. Both are loaded by the same client, in alternating rounds, and the ratios
 * shop / bare are printed. The routes (`BENCH_ROUTES`, comma-separated; all by default):
 *  - `products`: GET /api/products, the whole list;
 *  - `product`: GET /api/products/:id, the first listed product;
 *  - `search`, `filter`, `search-filter-sort`: GET /api/catalogue/products with a search for a word
 *    of about a tenth of the demo's products (a grown store copies them, so the share holds at any
 *    size), a filter on a common product type, and both with a sort;
 *  - `cart`: GET /api/cart for a shopper's session (its cookie) whose cart holds 3 lines
 *    (BENCH_CART_LINES), added through POST /api/cart/add as the shop's own page adds them.
 * Each route's request is the same bytes every round: a cache keyed by the query may answer it.
 *
 * The shops (`BENCH_SHOPS`, bench-shops.ts; here `harness,start`, and `production` too with
 * TEST_DATABASE_URL):
 *  - `harness`: the app in this process (PGlite or Postgres, the catalogue of BENCH_PRODUCTS synced
 *    from the emulator and priced), logging every request with the running server's logger as
 *    main.ts makes it (server/lib/logger.ts), to a file here;
 *  - `start`: the shop as `npm start` runs it, its demo store grown to BENCH_PRODUCTS, logging for a
 *    terminal (`BENCH_ROOT`: another checkout's build). With `BENCH_BEFORE_ROOT` (another checkout,
 *    built), that checkout's `start` shop runs beside it, and each route is measured on both, one
 *    after the other: a before/after in one run;
 *  - `production`: the production build (NODE_ENV=production, Postgres), its JSON log to a file, at
 *    the demo's 27 products.
 *
 * The load client runs in a worker thread (its own event loop), keep-alive sockets through a
 * `node:http` Agent, reading each body without decompressing it. Each server's cost is its main
 * thread's CPU time per answer (the kernel's count), whichever side is the bottleneck.
 *
 * Knobs: BENCH_DB (harness: pglite | postgres), BENCH_PRODUCTS (500; 20,000 works), BENCH_REQUESTS
 * (4000 per round), BENCH_CONCURRENCY (32), BENCH_ROUNDS (3), BENCH_SHOPS, BENCH_ROUTES, BENCH_CART_LINES
 * (3), BENCH_ROOT, BENCH_BEFORE_ROOT.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Cart } from '../common/api';
import type { CataloguePage } from '../common/catalogue-view';
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
const BEFORE_ROOT = process.env.BENCH_BEFORE_ROOT;
const SHOPS: ShopKind[] = process.env.BENCH_SHOPS
  ? SHOP_KINDS
  : ['harness', 'start', ...(process.env.TEST_DATABASE_URL ? (['production'] as const) : [])];

/** The catalogue's views measured: a word in 3 of the demo's 27 products, a type of 4, both sorted. */
const VIEWS = {
  search: '/api/catalogue/products?q=hoodie',
  filter: '/api/catalogue/products?type=T-Shirts',
  'search-filter-sort': '/api/catalogue/products?q=tee&type=T-Shirts&sort=price-asc',
} as const;
const ROUTE_NAMES = ['products', 'product', ...(Object.keys(VIEWS) as Array<keyof typeof VIEWS>), 'cart'] as const;
type RouteName = (typeof ROUTE_NAMES)[number];
const ROUTES = (process.env.BENCH_ROUTES?.split(',') ?? ROUTE_NAMES) as RouteName[];
for (const name of ROUTES) {
  if (!ROUTE_NAMES.includes(name)) throw new Error(`BENCH_ROUTES: unknown route '${name}' (${ROUTE_NAMES.join(', ')})`);
}
/** Lines in the measured cart (from 4 its JSON is over 1 KB: the shop compresses it). */
const CART_LINES = Number(process.env.BENCH_CART_LINES ?? 3);

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

/**
 * A shopper's session whose cart holds CART_LINES lines, added as the shop's page adds them (POST
 * /api/cart/add from the shop's own origin): its cookie.
 */
async function shopperWithCart(baseUrl: string): Promise<string> {
  const page = (await (await fetch(`${baseUrl}/api/catalogue/products?limit=${CART_LINES * 4}`)).json()) as CataloguePage;
  const variants = page.products.flatMap((p) => p.variants.filter((v) => !v.isSoldOut).slice(0, 1)).slice(0, CART_LINES);
  if (variants.length < CART_LINES) throw new Error(`${baseUrl}: fewer than ${CART_LINES} products to put in a cart`);
  let cookie = '';
  for (const variant of variants) {
    const res = await fetch(`${baseUrl}/api/cart/add`, {
      method: 'POST',
      headers: { Origin: new URL(baseUrl).origin, 'Content-Type': 'application/json', ...(cookie ? { Cookie: cookie } : {}) },
      body: JSON.stringify({ variantId: variant.id, quantity: 1 }),
    });
    if (!res.ok) throw new Error(`POST /api/cart/add: ${res.status} ${await res.text()}`);
    cookie ||= res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .join('; ');
  }
  const cart = (await (await fetch(`${baseUrl}/api/cart`, { headers: { Cookie: cookie } })).json()) as Cart;
  if (cart.items.length !== CART_LINES) throw new Error(`the bench's cart holds ${cart.items.length} lines, not ${CART_LINES}`);
  return cookie;
}

/** Each route measured, as [name, path, the request's headers]. */
async function routesOf(shop: Measured): Promise<Array<[string, string, Record<string, string>]>> {
  const gzip = { 'accept-encoding': 'gzip' };
  const routes: Array<[string, string, Record<string, string>]> = [];
  for (const name of ROUTES) {
    if (name === 'products') routes.push(['GET /api/products', '/api/products', gzip]);
    else if (name === 'product') routes.push(['GET /api/products/:id', `/api/products/${encodeURIComponent(shop.productId)}`, gzip]);
    else if (name === 'cart')
      routes.push([`GET /api/cart (${CART_LINES} lines)`, '/api/cart', { ...gzip, cookie: await shopperWithCart(shop.baseUrl) }]);
    else routes.push([`GET ${VIEWS[name].replace('/api/catalogue/products', '…')}`, VIEWS[name], gzip]);
  }
  return routes;
}

/** One route of one shop against the bare server: its table row. */
async function measured(label: string, shop: Measured, name: string, path: string, headers: Record<string, string>): Promise<string> {
  // The stored gzip form is made on the first ask: ask, and wait until it is there. A search page
  // or a cart is stored where the shop stores it: wait a few seconds at most (a shop that compresses
  // it on the fly, or sends it plain, never has one).
  if (path.startsWith('/api/products')) await storedForm(shop.baseUrl + path, headers);
  else await storedForm(shop.baseUrl + path, headers, 3000).catch(() => undefined);
  const opts = { rounds: ROUNDS, requests: REQUESTS, concurrency: CONCURRENCY, appPid: shop.pid };
  const { bare: b, app: a, ratio, costRatio, bytes } = await againstBare(shop.baseUrl + path, path, headers, opts);
  return (
    `| ${label} | ${name} | ${(bytes / 1024).toFixed(1)} KB | ${Math.round(b.rps)} (${b.each}), ${b.p50} ms, ${b.p95} ms, ${b.usPerRequest.toFixed(1)} | ` +
    `${Math.round(a.rps)} (${a.each}), ${a.p50} ms, ${a.p95} ms, ${a.usPerRequest.toFixed(1)} | ${ratio.toFixed(2)}×, ${costRatio.toFixed(2)}× |` +
    (a.failures || b.failures ? `\nfailed requests: shop ${a.failures}, bare ${b.failures}` : '')
  );
}

const loadAverage = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

async function main() {
  console.log(
    `\n${ROUNDS} rounds × ${REQUESTS} requests at concurrency ${CONCURRENCY}, client in a worker thread; load average ${loadAverage()}\n`,
  );
  console.log(
    '| shop | route | body (gzip when compressed) | bare node:http, same bytes: req/s, p50, p95, server µs/answer | the shop: req/s, p50, p95, server µs/answer | ratio shop / bare: throughput, server time |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const kind of SHOPS) {
    const shops: Array<{ label: string; shop: Measured }> = [];
    try {
      if (kind === 'start' && BEFORE_ROOT) {
        shops.push({ label: `start before (${BEFORE_ROOT})`, shop: await startBenchShop('start', PRODUCTS, BEFORE_ROOT) });
      }
      const shop = kind === 'harness' ? await harness() : await startBenchShop(kind, PRODUCTS);
      shops.push({ label: kind, shop });
      const routes = [];
      for (const { shop } of shops) routes.push(await routesOf(shop));
      // Route by route, on each shop in turn: a before and an after minutes apart at most.
      for (let r = 0; r < ROUTES.length; r++) {
        for (const [i, { label, shop }] of shops.entries()) {
          const [name, path, headers] = routes[i]![r]!;
          console.log(
            await measured(`${label} (${shop.products} products${kind === 'harness' ? `, ${DB}` : ''})`, shop, name, path, headers),
          );
        }
      }
    } finally {
      for (const { shop } of shops) await shop.stop();
    }
  }
  console.log(
    `\nload average after: ${loadAverage()}; ratios: medians of paired rounds (each shop round against the bare round just before it); throughput is shop / bare, ` +
      'server time is bare / shop (the server thread’s CPU time per answer: what an answer costs whichever side is the bottleneck)',
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
