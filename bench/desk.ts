/**
 * The admin's desks at a real store's volume (`npm run bench:desk`): 10,000 and then 100,000 paid
 * orders with 2,000 transfers that need a person (server/test/desk-volume.ts), or the sizes of
 * BENCH_SIZES ("100000:10000,1000000:100000": orders and flagged transfers), each in a database
 * schema of its own (Postgres with TEST_DATABASE_URL, else PGlite; BENCH_DB picks one). For each
 * size it times the payments desk (open items: the first page, the next, a deep one in the middle
 * of the queue; each kind; the empty and then a filled History), the orders view (first page, a
 * status, searches that hit and one that finds nothing), the accountant's export of the whole
 * year, and a regular shopper's orders page (these three left out with BENCH_DESK_ONLY=1), each
 * the median of BENCH_RUNS runs after a warm-up, through the same services the routes call.
 * Printed as a Markdown table for bench/README.md, with the growth ratio last size / first of
 * each, and on Postgres how each read the tables and the desk pages' full plans (EXPLAIN ANALYZE).
 */
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { loadConfig } from '../server/config';
import { OrdersDesk, PaymentsDesk, deskItemsFromScratch } from '../server/modules/admin';
import { OrdersService } from '../server/modules/orders';
import { attentionKindSchema } from '../common/payments-desk';
import type { Db } from '../server/db';
import { createTestDatabase, type TestDatabase } from '../server/test/databases';
import { REGULAR_SHOPPER, resolveSome, SEEDED_FROM, SEEDED_TO, seedDeskVolume } from '../server/test/desk-volume';

const DB = (process.env.BENCH_DB ?? (process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite')) as 'pglite' | 'postgres';
const FLAGGED = Number(process.env.BENCH_FLAGGED ?? 2000);
/** Each run's orders and flagged transfers: BENCH_SIZES ("orders:flagged,…") or BENCH_ORDERS with BENCH_FLAGGED. */
const SIZES: Array<{ orders: number; flagged: number }> = process.env.BENCH_SIZES
  ? process.env.BENCH_SIZES.split(',').map((s) => {
      const [orders, flagged] = s.split(':').map(Number);
      return { orders: orders!, flagged: flagged ?? FLAGGED };
    })
  : (process.env.BENCH_ORDERS ?? '10000,100000').split(',').map((o) => ({ orders: Number(o), flagged: FLAGGED }));
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
/** Only the payments desk (its pages, kinds and history), not the orders view, the export or a shopper's orders. */
const DESK_ONLY = process.env.BENCH_DESK_ONLY === '1';

interface Figure {
  ms: number;
  /** The answer's size (JSON, or the CSV's bytes). */
  bytes: number;
  /** Postgres: how each table was read by the queries of one run (EXPLAIN), e.g. "Index Scan using orders_payer_prefix". */
  scans?: string[];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The median time of `RUNS` runs of `fn` after one warm-up, the size of its answer and (Postgres) how its queries read each table. */
async function time(db: Db, fn: () => Promise<number>): Promise<Figure> {
  const queries: Array<{ sql: string; bindings: readonly unknown[] }> = [];
  const listen = (q: { sql: string; bindings: readonly unknown[] }) => queries.push(q);
  db.on('query', listen);
  const bytes = await fn();
  db.off('query', listen);
  const scans = DB === 'postgres' ? await scansOf(db, queries) : undefined;
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await fn();
    ms.push(performance.now() - t0);
  }
  return { ms: median(ms), bytes, scans };
}

/** The scan nodes of each distinct query's plan (EXPLAIN without running it), without repeats. */
async function scansOf(db: Db, queries: ReadonlyArray<{ sql: string; bindings: readonly unknown[] }>): Promise<string[]> {
  const scans = new Set<string>();
  for (const sql of new Set(queries.map((q) => q.sql))) {
    const q = queries.find((x) => x.sql === sql)!;
    const plan: { rows: Array<Record<string, string>> } = await db.raw(
      `explain (costs off) ${sql.replace(/\$\d+/g, '?')}`,
      q.bindings as never,
    );
    for (const row of plan.rows) {
      const m = /((?:Parallel )?(?:Seq Scan on \w+|(?:Bitmap )?Index (?:Only )?Scan(?: Backward)? (?:using|on) \w+))/.exec(
        row['QUERY PLAN']!,
      );
      if (m) scans.add(m[1]!);
    }
  }
  return [...scans];
}

const json = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/** The full plan of each distinct query `fn` sends (EXPLAIN ANALYZE), for bench/README.md. */
async function plansOf(db: Db, fn: () => Promise<unknown>): Promise<string[]> {
  const queries: Array<{ sql: string; bindings: readonly unknown[] }> = [];
  const listen = (q: { sql: string; bindings: readonly unknown[] }) => queries.push(q);
  db.on('query', listen);
  await fn();
  db.off('query', listen);
  const plans: string[] = [];
  for (const sql of new Set(queries.map((q) => q.sql))) {
    const q = queries.find((x) => x.sql === sql)!;
    const plan: { rows: Array<Record<string, string>> } = await db.raw(
      `explain (analyze, costs off) ${sql.replace(/\$\d+/g, '?')}`,
      q.bindings as never,
    );
    plans.push(plan.rows.map((r) => r['QUERY PLAN']).join('\n'));
  }
  return plans;
}

/** The statements whose full plans are printed at the last size. */
const PLANNED = ['desk: open items, first page', 'desk: open items, a deep page', 'desk: one kind (late)'];

async function measure(size: { orders: number; flagged: number }, plans: Map<string, string[]>): Promise<Map<string, Figure>> {
  const database: TestDatabase = await createTestDatabase(DB);
  const figures = new Map<string, Figure>();
  try {
    const { db } = database;
    const t0 = performance.now();
    const seeded = await seedDeskVolume(db, size);
    console.error(`seeded ${seeded.orders} orders, ${size.flagged} flagged, on ${DB} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const config = loadConfig({});
    const desk = new PaymentsDesk(db, { config });
    const ordersDesk = new OrdersDesk(db, { config });
    const shop = new OrdersService(db, { explorerUrl: null });
    const add = async (name: string, fn: () => Promise<number>) => {
      figures.set(name, await time(db, fn));
      if (DB === 'postgres' && PLANNED.includes(name)) plans.set(name, await plansOf(db, fn));
    };

    const open = await desk.attention({ resolved: false });
    await add('desk: open items, first page', async () => json(await desk.attention({ resolved: false })));
    const next = open.nextBefore;
    if (next) await add('desk: open items, next page', async () => json(await desk.attention({ resolved: false, before: next })));
    // The middle of the open queue, read plainly (newest first): a page an admin reaches after walking half of it.
    const deep = await middleOfQueue(db);
    if (deep) await add('desk: open items, a deep page', async () => json(await desk.attention({ resolved: false, before: deep })));
    for (const kind of attentionKindSchema.options)
      await add(`desk: one kind (${kind})`, async () => json(await desk.attention({ resolved: false, kind })));
    await add('desk: History, empty', async () => json(await desk.attention({ resolved: true })));

    if (!DESK_ONLY) await measureOthers(db, add, { ordersDesk, desk, shop, orders: size.orders });

    // A quarter of the problem transfers resolved.
    const loose: Array<{ id: number }> = await db('chain_transfers').whereNot('status', 'matched').orderBy('id').select('id');
    const resolved = await resolveSome(
      db,
      loose.map((r) => r.id),
      4,
    );
    await add(`desk: History (${resolved} resolved)`, async () => json(await desk.attention({ resolved: true })));
    await add('desk: open items after', async () => json(await desk.attention({ resolved: false })));
  } finally {
    await database.destroy();
  }
  return figures;
}

/** The transfer id in the middle of the open queue (newest first), by the rule read from scratch; null when it is empty. */
async function middleOfQueue(db: Db): Promise<string | null> {
  const rows: Array<{ id: number }> = await db
    .from(deskItemsFromScratch(db).as('d'))
    .where('d.resolved', false)
    .orderBy([
      { column: 'd.created_at', order: 'desc' },
      { column: 'd.id', order: 'desc' },
    ])
    .select('d.id');
  return rows.length > 1 ? String(rows[Math.floor(rows.length / 2)]!.id) : null;
}

/** The orders view, the export and a shopper's orders (left out with BENCH_DESK_ONLY). */
async function measureOthers(
  db: Db,
  add: (name: string, fn: () => Promise<number>) => Promise<unknown>,
  { ordersDesk, desk, shop, orders }: { ordersDesk: OrdersDesk; desk: PaymentsDesk; shop: OrdersService; orders: number },
) {
  await add('orders: first page', async () => json(await ordersDesk.list({})));
  await add('orders: status paid', async () => json(await ordersDesk.list({ status: 'paid' })));
  await add('orders: status failed (rare)', async () => json(await ordersDesk.list({ status: 'failed' })));
  await add('orders: search, no match', async () => json(await ordersDesk.list({ q: 'ZZZZ9' })));
  const sample: { id: string; customer_wallet: string; tx_hash: string } = await db('orders')
    .whereNot('customer_wallet', REGULAR_SHOPPER)
    .orderBy('id')
    .first('id', 'customer_wallet', 'tx_hash');
  await add('orders: search, an order id', async () => json(await ordersDesk.list({ q: sample.id.toLowerCase() })));
  await add('orders: search, a payer prefix (10)', async () => json(await ordersDesk.list({ q: sample.customer_wallet.slice(0, 10) })));
  await add('orders: search, a tx hash prefix (8)', async () => json(await ordersDesk.list({ q: sample.tx_hash.slice(0, 8) })));

  await add('export: the whole year (CSV)', async () => {
    let bytes = 0;
    await pipeline(
      desk.exportCsv(SEEDED_FROM, SEEDED_TO),
      new Writable({
        write(chunk: Buffer | string, _enc, done) {
          bytes += Buffer.byteLength(chunk);
          done();
        },
      }),
    );
    return bytes;
  });

  await add(`shopper: orders, first page (of ${orders / 200})`, async () => json(await shop.listForWallet(REGULAR_SHOPPER)));
}

async function main() {
  const runs: Array<Map<string, Figure>> = [];
  const plans = new Map<string, string[]>();
  for (const size of SIZES) {
    const figures = await measure(size, plans);
    runs.push(figures);
    // As it goes, so a long run stopped later keeps what it measured.
    for (const [name, f] of figures)
      console.error(`${size.orders}:${size.flagged} ${name}: ${f.ms.toFixed(1)} ms, ${(f.bytes / 1024).toFixed(1)} KB`);
  }
  const [first] = runs;
  const last = runs.at(-1)!;
  const head = SIZES.map((s) => `${s.orders.toLocaleString('en')} orders, ${s.flagged.toLocaleString('en')} flagged`);
  console.log(`\n### ${new Date().toISOString().slice(0, 10)}, ${DB}, median of ${RUNS}\n`);
  console.log(`| measure | ${head.join(' | ')} | ratio last / first |`);
  console.log(`|---|${head.map(() => '---|').join('')}---|`);
  const show = (f: Figure | undefined) => (f ? `${f.ms.toFixed(1)} ms, ${(f.bytes / 1024).toFixed(1)} KB` : '—');
  const like = (run: Map<string, Figure>, name: string) =>
    run.get(name) ?? [...run.entries()].find(([k]) => k.split('(')[0] === name.split('(')[0])?.[1];
  for (const name of first!.keys()) {
    const other = like(last, name);
    const ratio = other && runs.length > 1 ? `${(other.ms / first!.get(name)!.ms).toFixed(1)}×` : '—';
    console.log(`| ${name} | ${runs.map((run) => show(like(run, name))).join(' | ')} | ${ratio} |`);
  }
  if (DB === 'postgres') {
    const at = `${SIZES.at(-1)!.orders.toLocaleString('en')} orders, ${SIZES.at(-1)!.flagged.toLocaleString('en')} flagged`;
    console.log(`\nHow each read the tables at ${at} (EXPLAIN):\n`);
    for (const [name, f] of last) console.log(`- ${name}: ${f.scans?.join('; ') || '—'}`);
    for (const [name, texts] of plans)
      console.log(`\n${name} at ${at}, each statement (EXPLAIN ANALYZE):\n\n\`\`\`\n${texts.join('\n\n')}\n\`\`\``);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
