/**
 * The admin's 'Sponsored gas' read at volume (`npm run bench:sponsored-gas`): 100,000 sponsorships
 * (BENCH_SPONSORSHIPS) in `paymaster_sponsorships`, settled as a live shop's are (mostly paid, a
 * few reverted, unpaid, never sent, and operations the shop never signed, each with what it cost),
 * in a database schema of its own (Postgres with TEST_DATABASE_URL, else PGlite; BENCH_DB picks
 * one), twice: spread over a year (about a twelfth in the 30 days the panel counts), and all in
 * those 30 days (the whole table in range, the worst case). For each it times
 * SponsoredGasReport.read() (the per-day query and today's budget, side by side) with a chain that
 * answers at once (so the figure is the database's), the median of BENCH_RUNS runs after a
 * warm-up, and prints the plan of both queries (EXPLAIN ANALYZE). Printed as Markdown for
 * bench/README.md.
 */
import { performance } from 'node:perf_hooks';
import { AbiCoder, parseEther, Wallet } from 'ethers';
import { PaymasterService, SponsoredGasReport } from '../server/modules/paymaster';
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

const PAYMASTER = '0x8464135c8F25Da09e49BC8782676a84730C318bC';
const ENTRY_POINT = '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * `ROWS` sponsorships at random times over the last `days` days, as the watcher leaves them: 90 %
 * paid, 3 % reverted, 2 % unpaid, 4 % never sent (pending, their window long ended), 1 % operations
 * the shop never signed (no checkout); each with its window (11 minutes), the most it could cost
 * (about 0.00004 ETH) and, once it ran, what it cost (0.000001 to 0.000005 ETH) and its hashes.
 * 20,000 accounts, about five sponsorships each.
 */
async function seed(db: Db, days: number): Promise<void> {
  await db.raw(
    `insert into paymaster_sponsorships (checkout_id, amount_wei, sender, nonce, paymaster, valid_until, max_cost_wei, outcome,
                                         user_op_hash, tx_hash, actual_cost_wei, actual_gas_used, settled_at, created_at)
     select case when r.outcome = 'unrecorded' then null else gen_random_uuid() end,
            case when r.outcome = 'unrecorded' then null else 1000000000000000000::numeric * (1 + r.g % 500) end,
            '0x' || lpad(to_hex(r.g % 20000), 40, '0'), (r.g / 20000)::text, ?,
            case when r.outcome = 'unrecorded' then null else r.at + interval '11 minutes' end,
            case when r.outcome = 'unrecorded' then 0 else 40000000000000 + (r.g % 1000) * 1000000000::numeric end,
            r.outcome,
            case when r.outcome = 'pending' then null else '0x' || md5(r.g::text) || md5((-r.g)::text) end,
            case when r.outcome = 'pending' then null else '0x' || md5((r.g / 3)::text) || md5((-r.g / 3)::text) end,
            case when r.outcome = 'pending' then null else (1000000000000 + floor(random() * 4000000000000))::numeric end,
            case when r.outcome = 'pending' then null else 120000 + r.g % 50000 end,
            case when r.outcome = 'pending' then null else r.at + interval '30 seconds' end,
            r.at
     from (select g, now() - random() * (? * interval '1 day') as at,
                  case when g % 100 < 90 then 'paid' when g % 100 < 93 then 'reverted' when g % 100 < 95 then 'unpaid'
                       when g % 100 < 99 then 'pending' else 'unrecorded' end as outcome
           from generate_series(1, ?) g) r`,
    [PAYMASTER.toLowerCase(), days, ROWS],
  );
  await db.raw('analyze paymaster_sponsorships');
}

async function measure(
  days: number,
): Promise<{ ms: number; inRange: number; paid: number; wasted: number; dayRows: number; plans: Record<string, string[]> }> {
  const database = await createTestDatabase(DB);
  try {
    const { db } = database;
    await seed(db, days);
    const balance = AbiCoder.defaultAbiCoder().encode(['uint256'], [10n ** 18n]);
    const rpc = async () => balance;
    const logger = createLogger({ level: 'silent' });
    // The book of sponsorships as the shop wires it: the paymaster service's, with the default rules.
    const { ledger } = new PaymasterService(db, {
      chainId: 8453,
      paymaster: {
        entryPoint: ENTRY_POINT,
        sponsor: { kind: 'verifying', address: PAYMASTER, signerKey: Wallet.createRandom().privateKey },
        dailyBudgetWei: parseEther('0.01'),
        senderDailyLimit: 5,
        extraWallets: { factories: [], implementations: [], proxyCodeHashes: [] },
      },
      sponsorTimeoutMs: 10_000,
      url: 'http://127.0.0.1/api/paymaster',
      rpc,
      logger,
    });
    const report = new SponsoredGasReport(db, { paymasterAddress: PAYMASTER, entryPoint: ENTRY_POINT, rpc, logger, ledger });
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
    const explain = async (q: { sql: string; bindings: readonly unknown[] }) => {
      const explained: { rows: Array<Record<string, string>> } = await db.raw(
        `explain (analyze, costs off, timing off, summary off) ${q.sql.replace(/\$\d+/g, '?')}`,
        q.bindings as never,
      );
      return explained.rows.map((r) => r['QUERY PLAN']!);
    };
    const ofTable = queries.filter((x) => x.sql.includes('paymaster_sponsorships'));
    const perDay = ofTable.find((x) => /group by/i.test(x.sql));
    const today = ofTable.find((x) => x.sql.includes('as committed'));
    if (!perDay || !today) throw new Error(`expected the per-day query and today's budget among: ${ofTable.map((x) => x.sql).join('; ')}`);
    const { days: listed } = first;
    const sum = (f: (d: (typeof listed)[number]) => number) => listed.reduce((n, d) => n + f(d), 0);
    return {
      ms: median(ms),
      inRange: sum((d) => d.sponsorships),
      paid: sum((d) => d.paid),
      wasted: sum((d) => d.wasted),
      dayRows: listed.length,
      plans: { 'per day': await explain(perDay), 'today’s budget': await explain(today) },
    };
  } finally {
    await database.destroy();
  }
}

async function main() {
  console.log(`\n### ${new Date().toISOString().slice(0, 10)}, ${DB}, ${ROWS.toLocaleString('en')} sponsorships, median of ${RUNS}\n`);
  console.log('| sponsorships | in the 30 days | paid | wasted | days listed | read |');
  console.log('|---|---|---|---|---|---|');
  const plans: string[] = [];
  for (const spread of SPREADS) {
    const f = await measure(spread.days);
    const n = (x: number) => x.toLocaleString('en');
    console.log(`| ${spread.name} | ${n(f.inRange)} | ${n(f.paid)} | ${n(f.wasted)} | ${f.dayRows} | ${f.ms.toFixed(1)} ms |`);
    for (const [query, plan] of Object.entries(f.plans)) plans.push(`${spread.name}, ${query}:\n\n\`\`\`\n${plan.join('\n')}\n\`\`\``);
  }
  console.log(`\n${plans.join('\n\n')}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
