/**
 * The admin's 'Sponsored gas' read at volume (`npm run bench:sponsored-gas`): 100,000 sponsorships
 * (BENCH_SPONSORSHIPS) in `paymaster_sponsorships`, in a database schema of its own (Postgres with
 * TEST_DATABASE_URL, else PGlite; BENCH_DB picks one), twice: spread over a year (about a twelfth
 * in the 30 days the panel counts), and all in those 30 days (the whole table in range, the worst
 * case). For each it times SponsoredGasReport.read() with a chain that answers at once (so the
 * figure is the database's), the median of BENCH_RUNS runs after a warm-up, and prints the plan
 * of its per-day query (EXPLAIN ANALYZE). Printed as Markdown for bench/README.md.
 */
import { performance } from 'node:perf_hooks';
import { AbiCoder } from 'ethers';
import { SponsoredGasReport } from '../server/modules/paymaster';
import { createLogger } from '../server/lib/logger';
import type { Db } from '../server/db';
import { createTestDatabase } from '../server/test/databases';

const DB = (process.env.BENCH_DB ?? (process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite')) as 'pglite' | 'postgres';
const ROWS = Number(process.env.BENCH_SPONSORSHIPS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const SPREADS = [
  { name: 'spread over a year', days: 365 },
  { name: 'all in the last 30 days', days: 30 },
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** `ROWS` sponsorships at random times over the last `days` days, each with its own checkout. */
async function seed(db: Db, days: number): Promise<void> {
  await db.raw(
    `insert into paymaster_sponsorships (checkout_id, amount_wei, sender, nonce, created_at)
     select gen_random_uuid(), 1000000000000000000::numeric * (1 + g % 500), '0x' || lpad(to_hex(g), 40, '0'), '0',
            now() - random() * (? * interval '1 day')
     from generate_series(1, ?) g`,
    [days, ROWS],
  );
  await db.raw('analyze paymaster_sponsorships');
}

async function measure(days: number): Promise<{ ms: number; inRange: number; dayRows: number; plan: string[] }> {
  const database = await createTestDatabase(DB);
  try {
    const { db } = database;
    await seed(db, days);
    const balance = AbiCoder.defaultAbiCoder().encode(['uint256'], [10n ** 18n]);
    const report = new SponsoredGasReport(db, {
      paymasterAddress: '0x8464135c8F25Da09e49BC8782676a84730C318bC',
      entryPoint: '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108',
      rpc: async () => balance,
      logger: createLogger({ level: 'silent' }),
    });
    const queries: Array<{ sql: string; bindings: readonly unknown[] }> = [];
    const listen = (q: { sql: string; bindings: readonly unknown[] }) => queries.push(q);
    db.on('query', listen);
    const first = await report.read();
    db.off('query', listen);
    if (!first.enabled) throw new Error('expected the report of a configured paymaster');
    const ms: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await report.read();
      ms.push(performance.now() - t0);
    }
    const q = queries.find((x) => x.sql.includes('paymaster_sponsorships'))!;
    const explained: { rows: Array<Record<string, string>> } = await db.raw(
      `explain (analyze, costs off, timing off, summary off) ${q.sql.replace(/\$\d+/g, '?')}`,
      q.bindings as never,
    );
    return {
      ms: median(ms),
      inRange: first.days.reduce((n, d) => n + d.sponsorships, 0),
      dayRows: first.days.length,
      plan: explained.rows.map((r) => r['QUERY PLAN']!),
    };
  } finally {
    await database.destroy();
  }
}

async function main() {
  console.log(`\n### ${new Date().toISOString().slice(0, 10)}, ${DB}, ${ROWS.toLocaleString('en')} sponsorships, median of ${RUNS}\n`);
  console.log('| sponsorships | in the 30 days | days listed | read |');
  console.log('|---|---|---|---|');
  const plans: string[] = [];
  for (const spread of SPREADS) {
    const f = await measure(spread.days);
    console.log(`| ${spread.name} | ${f.inRange.toLocaleString('en')} | ${f.dayRows} | ${f.ms.toFixed(1)} ms |`);
    plans.push(`${spread.name}:\n\n\`\`\`\n${f.plan.join('\n')}\n\`\`\``);
  }
  console.log(`\n${plans.join('\n\n')}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
