/**
 * The books' two files at a store's volume (`npm run bench:books`): 10,000 and then 100,000 paid
 * orders with 2,000 transfers that need a person (refunds among them), written straight into the
 * database (server/test/desk-volume.ts), or the sizes of BENCH_ORDERS ("10000,100000"), each in a
 * database of its own (Postgres with TEST_DATABASE_URL, else PGlite; BENCH_DB picks one). Each
 * file of the whole seeded year is streamed to nowhere, BENCH_RUNS times after a warm-up, while
 * the process's heap and RSS are sampled every 5 ms: the median time, and the peak growth over
 * the memory before the run (after a collection, with --expose-gc); and, in a run of its own,
 * the heap still held after a collection every 10 chunks (what the stream keeps). Printed as a Markdown table
 * for docs/books.md, with the ratio last size / first of each: the time grows with the rows, the
 * memory should not (a batch at a time).
 */
import { performance } from 'node:perf_hooks';
import { Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import os from 'node:os';
import { koinlyCsv, ledgerCsv } from '../server/modules/admin';
import type { Db } from '../server/db';
import { createTestDatabase } from '../server/test/databases';
import { SEEDED_FROM, SEEDED_TO, seedDeskVolume } from '../server/test/desk-volume';

const DB = (process.env.BENCH_DB ?? (process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite')) as 'pglite' | 'postgres';
const SIZES = (process.env.BENCH_ORDERS ?? '10000,100000').split(',').map(Number);
const FLAGGED = Number(process.env.BENCH_FLAGGED ?? 2000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const MB = 1024 * 1024;

interface Figure {
  ms: number;
  bytes: number;
  rows: number;
  /** Peak growth over the run's start, MB. */
  heap: number;
  rss: number;
  /** Peak heap still held, sampled after a collection every 10 chunks (a run of its own), MB: what the stream keeps. */
  held: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const collect = () => (globalThis as { gc?: () => void }).gc?.();

/** One streamed run of `file`: its time, size, rows, and the peak heap and RSS growth sampled while it ran (with `held`: after a collection every 10 chunks, untimed). */
async function run(file: () => Readable, held = false): Promise<Omit<Figure, 'held'>> {
  collect();
  const base = process.memoryUsage();
  let heap = 0;
  let rss = 0;
  const sample = () => {
    const m = process.memoryUsage();
    heap = Math.max(heap, m.heapUsed - base.heapUsed);
    rss = Math.max(rss, m.rss - base.rss);
  };
  const timer = held ? undefined : setInterval(sample, 5);
  let bytes = 0;
  let rows = 0;
  let chunks = 0;
  const t0 = performance.now();
  await pipeline(
    file(),
    new Writable({
      write(chunk: Buffer | string, _enc, done) {
        const text = chunk.toString();
        bytes += Buffer.byteLength(text);
        rows += text.split('\r\n').length - 1;
        if (!held) sample();
        else if (++chunks % 10 === 0) {
          collect();
          sample();
        }
        done();
      },
    }),
  );
  const ms = performance.now() - t0;
  clearInterval(timer);
  if (held) collect();
  sample();
  return { ms, bytes, rows: rows - 1, heap: heap / MB, rss: rss / MB };
}

async function measure(db: Db, file: () => Readable): Promise<Figure> {
  await run(file); // warm-up
  const runs: Array<Omit<Figure, 'held'>> = [];
  for (let i = 0; i < RUNS; i++) runs.push(await run(file));
  const held = await run(file, true);
  return {
    held: held.heap,
    ms: median(runs.map((r) => r.ms)),
    bytes: runs[0]!.bytes,
    rows: runs[0]!.rows,
    heap: Math.max(...runs.map((r) => r.heap)),
    rss: Math.max(...runs.map((r) => r.rss)),
  };
}

async function main() {
  const results = new Map<string, Figure[]>();
  for (const orders of SIZES) {
    const database = await createTestDatabase(DB);
    try {
      const t0 = performance.now();
      await seedDeskVolume(database.db, { orders, flagged: FLAGGED });
      console.error(`seeded ${orders} orders, ${FLAGGED} flagged, on ${DB} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      const db = database.db;
      for (const [name, file] of [
        ['Koinly (koinly.csv)', () => koinlyCsv(db, SEEDED_FROM, SEEDED_TO)],
        ['order ledger (ledger.csv)', () => ledgerCsv(db, SEEDED_FROM, SEEDED_TO)],
      ] as const) {
        const figure = await measure(db, file);
        console.error(`${orders} ${name}: ${JSON.stringify(figure)}`);
        results.set(name, [...(results.get(name) ?? []), figure]);
      }
    } finally {
      await database.destroy();
    }
  }
  const fixed = (n: number, d = 1) => n.toFixed(d);
  const [first, last] = [SIZES[0]!, SIZES.at(-1)!];
  console.log(
    `\n${DB}, ${RUNS} runs after a warm-up, ${new Date().toISOString()}, load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} on ${os.cpus().length} cores\n`,
  );
  console.log(`| file | orders | rows | MB | time (median) | peak heap growth | peak RSS growth | heap held (after GC) |`);
  console.log(`|---|---:|---:|---:|---:|---:|---:|---:|`);
  for (const [name, figures] of results) {
    for (const [i, f] of figures.entries())
      console.log(
        `| ${name} | ${SIZES[i]!.toLocaleString('en')} | ${f.rows.toLocaleString('en')} | ${fixed(f.bytes / MB)} | ${fixed(f.ms, 0)} ms | ${fixed(f.heap)} MB | ${fixed(f.rss)} MB | ${fixed(f.held)} MB |`,
      );
    const [a, b] = [figures[0]!, figures.at(-1)!];
    console.log(
      `| ${name}: ${last / first}× the orders | | ${fixed(b.rows / a.rows, 2)}× | | ${fixed(b.ms / a.ms, 2)}× | ${fixed(b.heap / a.heap, 2)}× | ${fixed(b.rss / Math.max(a.rss, 0.1), 2)}× | ${fixed(b.held / a.held, 2)}× |`,
    );
  }
}

await main();
