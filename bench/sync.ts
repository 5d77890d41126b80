/**
 * Full catalogue sync at 27 (the demo), 1,000 and 5,000 products (`npm run bench:sync`), through
 * the real Shopify client against the emulator's Standard-plan bucket (2,000 points, 100 restored a
 * second): the bulk query (the default) and the paged read (its fallback). The emulator's bucket
 * runs on a test clock that the client's throttle waits advance, so each figure is the wall time
 * plus the waits Shopify's throttle would have imposed (what a real store costs), shown apart.
 * Knobs: BENCH_SYNC_SIZES (default "27,1000,5000"), BENCH_SYNC_PAGED_MAX (largest size also synced
 * paged; default 5000), BENCH_DB (pglite | postgres).
 */
import { performance } from 'node:perf_hooks';
import { growCatalogue } from './grow-catalogue';
import { startHarness } from '../server/test/harness';

const SIZES = (process.env.BENCH_SYNC_SIZES ?? '27,1000,5000').split(',').map(Number);
const PAGED_MAX = Number(process.env.BENCH_SYNC_PAGED_MAX ?? 5000);
const DB = (process.env.BENCH_DB ?? 'pglite') as 'pglite' | 'postgres';

async function run(size: number, method: 'bulk' | 'paged') {
  // Production paging (10 products, 50 variants a page) and the Standard plan's bucket.
  const h = await startHarness(DB, {
    pageSize: 10,
    variantsFirst: 50,
    syncMethod: method,
    bucket: { maximumAvailable: 2000, restoreRate: 100 },
  });
  try {
    growCatalogue(h, size);
    h.waits.length = 0;
    const t0 = performance.now();
    const result = await h.catalogue.sync('bench');
    const wallMs = performance.now() - t0;
    const waitedMs = h.waits.reduce((n, w) => n + w.ms, 0);
    return { size: h.emulator.state.listProducts().length, result, wallMs, waitedMs, requests: h.emulator.requestLog.length };
  } finally {
    await h.close();
  }
}

const fmt = (ms: number) =>
  ms >= 60_000 ? `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s` : `${(ms / 1000).toFixed(1)} s`;

async function main() {
  console.log(`\nFull catalogue sync on ${DB}, Standard-plan bucket (2,000 points, 100/s)\n`);
  console.log('| products | variants | method | requests | our time | throttle waits | total on a Standard plan |');
  console.log('|---|---|---|---|---|---|---|');
  for (const size of SIZES) {
    for (const method of ['bulk', 'paged'] as const) {
      if (method === 'paged' && size > PAGED_MAX) continue;
      const r = await run(size, method);
      console.log(
        `| ${r.size} | ${r.result.variants} | ${r.result.method} | ${r.requests} | ${fmt(r.wallMs)} | ${fmt(r.waitedMs)} (${r.result.throttledWaits}) | ${fmt(r.wallMs + r.waitedMs)} |`,
      );
    }
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
