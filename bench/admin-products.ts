/**
 * The admin's Product Management at a real store's size (`npm run bench:admin`): the demo's 27
 * products synced from the Shopify emulator through the real client, then copies of them written
 * straight into the database (as bench/desk.ts seeds its orders) up to 1,000 and 5,000 products,
 * each copy with its own title and SKUs. At each size it times, over HTTP with an admin session,
 * what the page asks for at first (GET /api/admin/products: the first 24 groups and the counts)
 * against what it asked for before (GET /api/inventory: every variant), and the searches, a next
 * page and a filter; each the median of BENCH_RUNS runs after a warm-up, with the answer's bytes.
 * The first page carries the counts (one pass over the variants); the next pages do not.
 * Postgres with TEST_DATABASE_URL, else PGlite; BENCH_DB picks one. Printed as a Markdown table for
 * bench/README.md, with the growth ratio largest / smallest of each.
 */
import { performance } from 'node:perf_hooks';
import { adminProductsPageSchema } from '../common/admin';
import type { Db } from '../server/db';
import { adminSession, startHarness, type Harness } from '../server/test/harness';

const DB = (process.env.BENCH_DB ?? (process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite')) as 'pglite' | 'postgres';
const SIZES = (process.env.BENCH_PRODUCTS ?? '27,1000,5000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);

interface Figure {
  ms: number;
  bytes: number;
  /** Groups and variants the answer counts (the admin pages), or variants (the inventory). */
  note: string;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Copies of the demo's products (and their variants) until there are `size` products, each with its own ids, title and SKUs. */
async function growTo(db: Db, size: number): Promise<void> {
  const have = Number((await db('products').count<Array<{ n: string | number }>>({ n: '*' }))[0]!.n);
  if (have >= size) return;
  const demo: Array<Record<string, unknown>> = await db('products').where('shopify_id', 'not like', '9%').orderBy('id').select('*');
  const variants: Array<Record<string, unknown>> = await db('variants')
    .whereIn(
      'product_id',
      demo.map((p) => p.id as number),
    )
    .orderBy('id')
    .select('*');
  const json = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
  for (let start = have; start < size; start += 250) {
    const products = [];
    const batch: Array<{ n: number; from: Record<string, unknown> }> = [];
    for (let n = start; n < Math.min(start + 250, size); n++) {
      const from = demo[n % demo.length]!;
      batch.push({ n, from });
      const { id: _id, ...rest } = from;
      products.push({
        ...rest,
        shopify_gid: `gid://shopify/Product/9${n}`,
        shopify_id: `9${n}`,
        handle: `${String(from.handle)}-${n}`,
        title: `${String(from.title)} ${n}`,
        tags: json(from.tags),
        images: json(from.images),
        custom_title: n % 10 === 0 ? `Custom ${String(from.title)} ${n}` : null,
      });
    }
    const ids: Array<{ id: number }> = await db('products').insert(products).returning('id');
    const rows = batch.flatMap(({ n, from }, k) =>
      variants
        .filter((v) => v.product_id === from.id)
        .map(({ id: _id, ...v }, i) => ({
          ...v,
          product_id: ids[k]!.id,
          shopify_gid: `gid://shopify/ProductVariant/9${n * 100 + i}`,
          shopify_id: `9${n * 100 + i}`,
          sku: v.sku == null ? null : `${String(v.sku)}-${n}`,
          selected_options: json(v.selected_options),
        })),
    );
    for (let i = 0; i < rows.length; i += 500) await db('variants').insert(rows.slice(i, i + 500));
  }
}

async function measure(h: Harness, cookie: string, size: number): Promise<Map<string, Figure>> {
  const figures = new Map<string, Figure>();
  const get = async (path: string) => {
    const init = { headers: { cookie, 'accept-encoding': 'identity' } };
    // A kept-alive connection the server closed while the bench was seeding fails once: ask again on a new one.
    const res = await h.api(path, init).catch(() => h.api(path, init));
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.text();
  };
  const add = async (name: string, path: string) => {
    const body = await get(path);
    const ms: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await get(path);
      ms.push(performance.now() - t0);
    }
    const parsed = JSON.parse(body) as unknown;
    const note = Array.isArray(parsed)
      ? `${parsed.length} variants`
      : (() => {
          const page = adminProductsPageSchema.parse(parsed);
          return page.counts
            ? `${page.groups.length} groups of ${page.counts.groups}, ${page.counts.variants} variants`
            : `${page.groups.length} groups`;
        })();
    figures.set(name, { ms: median(ms), bytes: Buffer.byteLength(body), note });
    return body;
  };

  await add('GET /api/inventory (every variant)', '/api/inventory');
  const first = adminProductsPageSchema.parse(JSON.parse(await add('admin products: first page', '/api/admin/products')));
  if (first.nextCursor) await add('admin products: next page', `/api/admin/products?cursor=${first.nextCursor}`);
  await add('admin products: search a title word (hoodie)', '/api/admin/products?q=hoodie');
  await add('admin products: search a SKU (pg-hood-cls-blk)', '/api/admin/products?q=pg-hood-cls-blk');
  await add('admin products: search a custom title (custom pog)', '/api/admin/products?q=custom%20pog');
  await add('admin products: search, no match', '/api/admin/products?q=zzqx');
  await add('admin products: inactive', '/api/admin/products?status=inactive');
  await add('admin products: sold out', '/api/admin/products?status=sold-out');
  await add('admin products: 100 a page', '/api/admin/products?limit=100');
  console.error(`measured ${size} products on ${DB}`);
  return figures;
}

async function main() {
  const h = await startHarness(DB);
  const runs: Array<{ size: number; variants: number; figures: Map<string, Figure> }> = [];
  try {
    await h.catalogue.sync();
    await h.catalogue.seedDemoPrices();
    const cookie = await adminSession(h);
    for (const size of SIZES) {
      const t0 = performance.now();
      await growTo(h.database.db, size);
      // Postgres's autovacuum analyzes the grown tables; PGlite has none, so there the plans see stale statistics, as a local shop's would.
      if (DB === 'postgres') await h.database.db.raw('analyze products, variants');
      const variants = Number((await h.database.db('variants').count<Array<{ n: string | number }>>({ n: '*' }))[0]!.n);
      console.error(`${size} products, ${variants} variants on ${DB} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      runs.push({ size, variants, figures: await measure(h, cookie, size) });
    }
  } finally {
    await h.close();
  }
  const head = runs.map((r) => `${r.size.toLocaleString('en')} products (${r.variants.toLocaleString('en')} variants)`);
  console.log(`\n### ${new Date().toISOString().slice(0, 10)}, ${DB}, over HTTP with an admin session, median of ${RUNS}\n`);
  console.log(`| measure | ${head.join(' | ')} | ratio |`);
  console.log(`|---|${head.map(() => '---|').join('')}---|`);
  const show = (f: Figure | undefined) =>
    f
      ? `${f.ms.toFixed(1)} ms, ${f.bytes >= 1024 * 1024 ? `${(f.bytes / 1024 / 1024).toFixed(1)} MB` : `${(f.bytes / 1024).toFixed(1)} KB`}`
      : '—';
  const [small, large] = [runs[0]!.figures, runs.at(-1)!.figures];
  for (const name of large.keys()) {
    const s = small.get(name);
    const ratio = s ? `${(large.get(name)!.ms / s.ms).toFixed(1)}×` : '—';
    console.log(`| ${name} | ${runs.map((r) => show(r.figures.get(name))).join(' | ')} | ${ratio} |`);
  }
  console.log(`\nWhat each answered at ${runs.at(-1)!.size.toLocaleString('en')} products:\n`);
  for (const [name, f] of large) console.log(`- ${name}: ${f.note}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
