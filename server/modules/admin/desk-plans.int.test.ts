/**
 * The payments desk's reads against their plans at volume, on each database: 10,000 paid orders
 * and 4,000 transfers that need a person (1,400 of them paying flagged orders), a quarter of the
 * loose ones resolved (server/test/desk-volume.ts). Every statement a page sends (the first page,
 * the next, a deep one, each kind, the history) is planned with EXPLAIN: none reads transfers,
 * orders or the desk's items sequentially, whatever the page; the queue is an index range of
 * payment_desk_items. Plans, not milliseconds: bench/desk.ts measures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attentionKindSchema, type AttentionKind } from '../../../common/payments-desk';
import { loadConfig } from '../../config';
import type { Db } from '../../db';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../../test/databases';
import { resolveSome, seedDeskVolume } from '../../test/desk-volume';
import { deskItemsFromScratch } from './desk/desk-reads';
import { PaymentsDesk } from './payments-desk';

/** A table read from end to end: what a page must never do to these. */
const WHOLE_READ = /Seq Scan on (chain_transfers|orders|payment_desk_items)\b/;

/** The plan (EXPLAIN) of each distinct statement `fn` sends. */
async function plansOf(db: Db, fn: () => Promise<unknown>): Promise<Array<{ sql: string; plan: string }>> {
  const queries: Array<{ sql: string; bindings: readonly unknown[] }> = [];
  const listen = (q: { sql: string; bindings: readonly unknown[] }) => queries.push(q);
  db.on('query', listen);
  try {
    await fn();
  } finally {
    db.off('query', listen);
  }
  const plans: Array<{ sql: string; plan: string }> = [];
  for (const sql of new Set(queries.map((q) => q.sql))) {
    const q = queries.find((x) => x.sql === sql)!;
    const result: { rows: Array<Record<string, string>> } = await db.raw(`explain ${sql.replace(/\$\d+/g, '?')}`, q.bindings as never);
    plans.push({ sql, plan: result.rows.map((r) => r['QUERY PLAN']).join('\n') });
  }
  return plans;
}

describe.each(testDatabaseKinds)('the payments desk planned at volume on %s', (kind) => {
  let database: TestDatabase;
  let desk: PaymentsDesk;
  const db = () => database.db;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await seedDeskVolume(database.db, { orders: 10_000, flagged: 4000 });
    const loose: Array<{ id: number }> = await database.db('chain_transfers').whereNot('status', 'matched').orderBy('id').select('id');
    await resolveSome(
      database.db,
      loose.map((r) => r.id),
      4,
    );
    desk = new PaymentsDesk(database.db, { config: loadConfig({}) });
  }, 120_000);
  afterAll(async () => {
    await database?.destroy();
  });

  /** Asserts that no statement of the page reads a whole table of the queue's; answers how the queue was read. */
  const expectIndexed = async (what: string, page: () => Promise<unknown>) => {
    const plans = await plansOf(db(), page);
    expect(plans.length, what).toBeGreaterThan(0);
    for (const { sql, plan } of plans) expect(plan, `${what}: ${sql}`).not.toMatch(WHOLE_READ);
    const queue = plans.find((p) => /payment_desk_items/.test(p.sql));
    // Along an index of the tab (a bitmap scan too, when the planner expects few items left below the cursor).
    expect(queue?.plan, what).toMatch(/Index (Only )?Scan (Backward )?(using|on) payment_desk_items_tab/);
  };

  it('plans every page of the open tab, first, next and deep, without reading transfers, orders or the queue whole', async () => {
    const first = await desk.attention({ resolved: false });
    expect(first.unresolved).toBeGreaterThan(3000);
    await expectIndexed('first page', () => desk.attention({ resolved: false }));
    await expectIndexed('next page', () => desk.attention({ resolved: false, before: first.nextBefore! }));
    const open: Array<{ id: number }> = await db()
      .from(deskItemsFromScratch(db()).as('d'))
      .where('d.resolved', false)
      .orderBy([
        { column: 'd.created_at', order: 'desc' },
        { column: 'd.id', order: 'desc' },
      ])
      .select('d.id');
    const deep = String(open[Math.floor(open.length * 0.8)]!.id);
    const deepPage = await desk.attention({ resolved: false, before: deep });
    expect(deepPage.items[0]?.transferId).toBe(String(open[Math.floor(open.length * 0.8) + 1]!.id));
    await expectIndexed('deep page', () => desk.attention({ resolved: false, before: deep }));
  });

  it.each(attentionKindSchema.options)('plans the open tab of one kind (%s) and its next page the same way', async (k: AttentionKind) => {
    const first = await desk.attention({ resolved: false, kind: k });
    expect(first.items.length).toBeGreaterThan(0);
    await expectIndexed(k, () => desk.attention({ resolved: false, kind: k }));
    if (first.nextBefore) await expectIndexed(`${k}, next`, () => desk.attention({ resolved: false, kind: k, before: first.nextBefore! }));
  });

  it('plans the history, all of it and one kind', async () => {
    const history = await desk.attention({ resolved: true });
    expect(history.items.length).toBeGreaterThan(0);
    await expectIndexed('history', () => desk.attention({ resolved: true }));
    await expectIndexed('history, unmatched', () => desk.attention({ resolved: true, kind: 'unmatched' }));
  });
});
