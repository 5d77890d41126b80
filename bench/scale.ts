/**
 * How the catalogue's APIs grow with the store (`npm run bench:scale`): in one run, at 27, 1,000
 * and 5,000 products (BENCH_SIZES), the real app on BENCH_DB (pglite | postgres):
 *
 *  1. the list's bytes (identity, gzip, br: the bytes on the wire, read raw);
 *  2. a price edit: the time until GET /api/products shows it, and the longest wait of a small
 *     request (GET /api/health/live, asked one after another from a worker thread) and the server
 *     thread's longest event-loop delay, from the edit until the list is stored compressed again
 *     and a search has been answered;
 *  3. GET /api/catalogue/products?q=…: the first answer after the edit and the median of warm ones;
 *  4. GET /api/products/:id and GET /api/cart (a session with three lines) against a bare node:http
 *     server answering the same bytes (http-load.ts: paired rounds, the client in a worker thread).
 *
 * Knobs: BENCH_SIZES (27,1000,5000), BENCH_ROUNDS (3), BENCH_REQUESTS (2000 per round),
 * BENCH_CONCURRENCY (32). Prints a Markdown table with each measure's growth (largest / smallest).
 */
import { monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import type { Cart, Product } from '../common/api';
import { startHarness, type Harness } from '../server/test/harness';
import { bumpCatalogueVersion } from '../server/modules/catalogue';
import { fetchRaw } from '../server/test/raw-http';
import { againstBare, median, probe, storedForm } from './http-load';
import { growCatalogue } from './grow-catalogue';

const SIZES = (process.env.BENCH_SIZES ?? '27,1000,5000').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const DB = (process.env.BENCH_DB ?? 'pglite') as 'pglite' | 'postgres';
const load = { rounds: ROUNDS, requests: REQUESTS, concurrency: CONCURRENCY };

type Row = Record<string, number>;

async function measure(h: Harness, size: number): Promise<Row> {
  growCatalogue(h, size);
  await h.catalogue.sync();
  await h.catalogue.seedDemoPrices();
  await h.database
    .db('variants')
    .whereNull('pog_price')
    .whereNotNull('shopify_price')
    .update({ pog_price: h.database.db.raw('shopify_price * 10'), is_active: true });
  await bumpCatalogueVersion(h.database.db);
  const listUrl = `${h.baseUrl}/api/products`;
  const products = JSON.parse((await fetchRaw(listUrl, {})).body.toString()) as Product[];
  const row: Row = { products: products.length };

  for (const coding of ['identity', 'gzip', 'br']) {
    if (coding !== 'identity') await storedForm(listUrl, { 'accept-encoding': coding }, 120_000);
    row[`${coding} KB`] = (await fetchRaw(listUrl, { 'accept-encoding': coding })).body.length / 1024;
  }

  // A price edit, as the admin's price change commits it, then the shop's next reads.
  const word = products[0].title.split(/\s+/)[0].toLowerCase();
  const searchUrl = `${h.baseUrl}/api/catalogue/products?q=${encodeURIComponent(word)}&limit=24`;
  await fetchRaw(searchUrl, {});
  const variant = products[0].variants[0];
  const price = (Number(variant.price) + 1).toFixed(2);
  const probing = probe(`${h.baseUrl}/api/health/live`);
  await new Promise((resolve) => setTimeout(resolve, 500));
  // The noise floor: the same probe and monitor for a second in which nothing happens (a busy
  // machine's scheduler and the garbage collector show here too).
  const idle = monitorEventLoopDelay({ resolution: 1 });
  idle.enable();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  idle.disable();
  row['longest event-loop delay, idle second ms'] = idle.max / 1e6;
  const gcPauses: number[] = [];
  const gc = new PerformanceObserver((list) => gcPauses.push(...list.getEntries().map((e) => e.duration)));
  gc.observe({ entryTypes: ['gc'] });
  // The server's own event loop: its longest delay in the window (1 ms resolution).
  const loopDelay = monitorEventLoopDelay({ resolution: 1 });
  probing.start();
  loopDelay.enable();
  const t0 = performance.now();
  await h.database.db('variants').where({ shopify_id: variant.id }).update({ pog_price: price });
  await bumpCatalogueVersion(h.database.db);
  // Parsed after the window: the bench's own JSON.parse runs on the server's thread.
  const editedBody = (await fetchRaw(listUrl, { 'accept-encoding': 'identity' })).body;
  row['edit → list shows it ms'] = performance.now() - t0;
  const s0 = performance.now();
  await fetchRaw(searchUrl, {});
  row['first search after edit ms'] = performance.now() - s0;
  await storedForm(listUrl, { 'accept-encoding': 'br' }, 120_000);
  await storedForm(listUrl, { 'accept-encoding': 'gzip' }, 120_000);
  row['edit → br stored ms'] = performance.now() - t0;
  await new Promise((resolve) => setTimeout(resolve, 100));
  loopDelay.disable();
  const waits = await probing.stop();
  row['longest /api/health/live wait ms'] = Math.max(...waits);
  row['longest event-loop delay ms'] = loopDelay.max / 1e6;
  gc.disconnect();
  row['longest GC pause ms'] = Math.max(0, ...gcPauses);
  const edited = JSON.parse(editedBody.toString()) as Product[];
  if (edited[0].variants[0].price !== price) throw new Error('the list did not show the new price');

  const searches: number[] = [];
  for (let i = 0; i < 30; i++) {
    const t = performance.now();
    await fetchRaw(searchUrl, { 'accept-encoding': 'gzip' });
    searches.push(performance.now() - t);
  }
  row['search ms (median warm)'] = median(searches);

  const productPath = `/api/products/${products[Math.floor(products.length / 2)].id}`;
  const one = await againstBare(h.baseUrl + productPath, productPath, { 'accept-encoding': 'gzip' }, load);
  row['/api/products/:id ratio'] = one.ratio;

  // A shopper with three lines in the cart.
  const add = async (cookie: string | null, variantId: string) => {
    const res = await fetch(`${h.baseUrl}/api/cart/add`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: JSON.stringify({ variantId, quantity: 1 }),
    });
    if (res.status !== 200) throw new Error(`add to cart: ${res.status} ${await res.text()}`);
    return cookie ?? res.headers.getSetCookie()[0].split(';')[0];
  };
  const forSale = products.flatMap((p) => p.variants.filter((v) => !v.isSoldOut)).slice(0, 3);
  let cookie: string | null = null;
  for (const v of forSale) cookie = await add(cookie, v.id);
  const cartHeaders = { cookie: cookie!, 'accept-encoding': 'gzip' };
  const cart = JSON.parse((await fetchRaw(`${h.baseUrl}/api/cart`, cartHeaders)).body.toString()) as Cart;
  if (cart.items.length !== 3) throw new Error('the cart does not have its three lines');
  const carts = await againstBare(`${h.baseUrl}/api/cart`, '/api/cart', cartHeaders, load);
  row['/api/cart ratio'] = carts.ratio;
  return row;
}

async function main() {
  const h = await startHarness(DB, { pageSize: 50, variantsFirst: 50 });
  const rows: Row[] = [];
  try {
    for (const size of SIZES) {
      rows.push(await measure(h, size));
      console.error(`measured at ${size} products`);
    }
  } finally {
    await h.close();
  }
  console.log(`\nCatalogue at scale on ${DB}: ${ROUNDS} rounds × ${REQUESTS} requests at concurrency ${CONCURRENCY} per ratio\n`);
  console.log(
    `| measure | ${rows.map((r) => `${r.products} products`).join(' | ')} | growth (${rows.at(-1)!.products} / ${rows[0].products}) |`,
  );
  console.log(`|---|${rows.map(() => '---|').join('')}---|`);
  for (const key of Object.keys(rows[0]).filter((k) => k !== 'products')) {
    const values = rows.map((r) => r[key]);
    const fmt = (x: number) => (key.includes('ratio') ? `${x.toFixed(2)}×` : x >= 100 ? x.toFixed(0) : x.toFixed(1));
    console.log(`| ${key} | ${values.map(fmt).join(' | ')} | ${values[0] > 0 ? `${(values.at(-1)! / values[0]).toFixed(2)}×` : '—'} |`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
