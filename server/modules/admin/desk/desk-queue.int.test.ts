/**
 * The desk's queue as the database keeps it (payment_desk_items and payment_desk_counts, the
 * payment_desk_items migration's triggers) against the rule of desk-kinds.ts read from scratch
 * over every transfer (deskItemsFromScratch), after every kind of change of the facts a kind
 * depends on: a transfer's status (and what it was before a refund), its checkout, its time, its
 * order's facts in every combination (failed by a reorganisation, paid by it, on hold, overpaid,
 * late), an order written for a checkout with transfers, a resolution made and undone, a
 * transfer deleted, a change of many rows in one statement; and on Postgres two transactions
 * changing one transfer's facts at once from two tables.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../../../test/databases';
import { seedDeskVolume } from '../../../test/desk-volume';
import type { Db } from '../../../db';
import { deskItemsFromScratch } from './desk-reads';

interface Item {
  id: number;
  kind: string;
  at: string;
  resolved: boolean;
}

/** The table's items and counts, and the rule's from scratch. */
async function both(db: Db) {
  const asItems = (rows: Array<{ id: number; kind: string; created_at: Date | string; resolved: boolean }>): Item[] =>
    rows.map((r) => ({ id: Number(r.id), kind: r.kind, at: new Date(r.created_at).toISOString(), resolved: r.resolved }));
  const kept = asItems(await db('payment_desk_items').orderBy('transfer_id').select('transfer_id as id', 'kind', 'created_at', 'resolved'));
  const rule = asItems(await db.from(deskItemsFromScratch(db).as('d')).orderBy('d.id').select('*'));
  const counts: Array<{ resolved: boolean; kind: string; n: number }> = await db('payment_desk_counts')
    .groupBy('resolved', 'kind')
    .havingRaw('sum(n) <> 0')
    .orderBy(['resolved', 'kind'])
    .select('resolved', 'kind', db.raw('sum(n)::integer as n'));
  const ruleCounts = new Map<string, number>();
  for (const r of rule) ruleCounts.set(`${r.resolved}|${r.kind}`, (ruleCounts.get(`${r.resolved}|${r.kind}`) ?? 0) + 1);
  return {
    kept,
    rule,
    counts: Object.fromEntries(counts.map((c) => [`${c.resolved}|${c.kind}`, c.n])),
    ruleCounts: Object.fromEntries(ruleCounts),
  };
}

async function expectInLine(db: Db, what: string) {
  const b = await both(db);
  expect(b.kept, what).toEqual(b.rule);
  expect(b.counts, what).toEqual(b.ruleCounts);
}

describe.each(testDatabaseKinds)('the desk queue the database keeps, on %s', (dbKind) => {
  let database: TestDatabase;
  const db = () => database.db;
  beforeAll(async () => {
    database = await createTestDatabase(dbKind);
    await seedDeskVolume(database.db, { orders: 200, flagged: 40 });
  }, 60_000);
  afterAll(async () => {
    await database?.destroy();
  });

  /** Order number `i` of the seed and the transfer that paid it. */
  const orderAndTransfer = async (i: number) => {
    const order: { id: string; intent_id: string; tx_hash: string } = await db()('orders')
      .orderBy('paid_at')
      .offset(i - 1)
      .first('id', 'intent_id', 'tx_hash');
    const transfer: { id: number } = await db()('chain_transfers').where({ order_id: order.id }).first('id');
    return { order, transferId: transfer.id };
  };

  it('is the rule read from scratch once seeded: every kind, the counts', async () => {
    const b = await both(db());
    expect(new Set(b.kept.map((i) => i.kind))).toEqual(new Set(['unmatched', 'underpaid', 'overpaid', 'late', 'out-of-stock', 'reorged']));
    await expectInLine(db(), 'seeded');
  });

  it("follows an order's facts through every combination, each fact changed by itself", async () => {
    const { order, transferId } = await orderAndTransfer(1);
    const other = `0x${'e'.repeat(64)}`;
    for (let bits = 0; bits < 32; bits++) {
      const on = (i: number) => Boolean(bits & (2 ** i));
      await db()('orders')
        .where({ id: order.id })
        .update({
          status_reason: on(0) ? 'payment-reorged' : null,
          tx_hash: on(1) ? order.tx_hash : other,
          hold_reason: on(2) ? 'out-of-stock' : null,
          overpaid: on(3),
          late: on(4),
        });
      await expectInLine(db(), `order facts ${bits.toString(2)}`);
    }
    const item = await db()('payment_desk_items').where({ transfer_id: transferId }).first();
    expect(item?.kind).toBe('reorged'); // every fact at once: a reorganisation first
    await db()('orders').where({ id: order.id }).update({ status_reason: null, tx_hash: order.tx_hash, overpaid: false, late: false });
    await expectInLine(db(), 'order plain again');
  });

  it("follows a transfer's status, what it was before a refund, its checkout and its time", async () => {
    const { transferId } = await orderAndTransfer(2);
    await db()('orders')
      .where({ intent_id: (await db()('chain_transfers').where({ id: transferId }).first('intent_id')).intent_id })
      .update({ late: true });
    await expectInLine(db(), 'order late');
    const statuses: Array<[string, string | null]> = [
      ['unmatched', null],
      ['underpaid', null],
      ['extra-payment', null],
      ['removed', null],
      ['refunded', null],
      ['refunded', 'underpaid'],
      ['refunded', 'removed'],
      ['refunded', 'extra-payment'],
      ['refunded', 'matched'],
      ['pending', null],
      ['matched', null],
    ];
    for (const [status, before] of statuses) {
      await db()('chain_transfers').where({ id: transferId }).update({ status, status_before_refund: before });
      await expectInLine(db(), `${status} (before: ${before})`);
    }
    await db()('chain_transfers').where({ id: transferId }).update({ created_at: '2026-12-31T23:00:00Z' });
    await expectInLine(db(), 'a new time');
    // An unmatched transfer attached to a checkout whose order was failed by a reorganisation, and back.
    const unmatched: { id: number } = await db()('chain_transfers').where({ status: 'unmatched' }).whereNull('intent_id').first('id');
    const reorged: { intent_id: string } = await db()('orders').where({ status_reason: 'payment-reorged' }).first('intent_id');
    await db()('chain_transfers').where({ id: unmatched.id }).update({ status: 'matched', intent_id: reorged.intent_id });
    expect((await db()('payment_desk_items').where({ transfer_id: unmatched.id }).first())?.kind).toBe('reorged');
    await expectInLine(db(), 'attached');
    await db()('chain_transfers').where({ id: unmatched.id }).update({ status: 'unmatched', intent_id: null });
    await expectInLine(db(), 'detached');
  });

  it('follows a transfer and then its order written for a checkout, a resolution made and undone, a transfer deleted, many rows at once', async () => {
    const intent = 'f0f0f0f0-0000-4000-8000-000000000001';
    const tx = `0x${'a1'.repeat(32)}`;
    const seen = await db()('checkout_intents').first();
    await db()('checkout_intents').insert({ ...seen, id: intent, amount_wei: '123', total_wei: '123', status: 'paid' });
    const [{ id: transferId }] = await db()('chain_transfers')
      .insert({
        chain_id: 8453,
        tx_hash: tx,
        log_index: 0,
        block_number: 1,
        block_hash: tx,
        token_address: seen.token_address,
        from_address: `0x${'1'.repeat(40)}`,
        to_address: seen.store_wallet,
        value_wei: '123',
        status: 'matched',
        intent_id: intent,
      })
      .returning('id');
    await expectInLine(db(), 'a matched transfer, no order yet');
    const seenOrder = await db()('orders').first();
    await db()('orders').insert({
      ...seenOrder,
      id: 'PGTEST000001',
      intent_id: intent,
      tx_hash: tx,
      log_index: 0,
      shopify_order_name: null,
      overpaid: true,
      late: false,
      hold_reason: null,
      status_reason: null,
    });
    expect((await db()('payment_desk_items').where({ transfer_id: transferId }).first())?.kind).toBe('overpaid');
    await expectInLine(db(), 'its order, overpaid');

    await db()('payment_desk_resolutions').insert({ transfer_id: transferId, resolved_at: new Date(), note: 'ok', session_label: 't' });
    expect((await db()('payment_desk_items').where({ transfer_id: transferId }).first())?.resolved).toBe(true);
    await expectInLine(db(), 'resolved');
    await db()('payment_desk_resolutions').where({ transfer_id: transferId }).delete();
    await expectInLine(db(), 'unresolved');

    const loose: { id: number } = await db()('chain_transfers').where({ status: 'underpaid' }).first('id');
    await db()('payment_desk_resolutions').insert({ transfer_id: loose.id, resolved_at: new Date(), note: 'ok', session_label: 't' });
    await db()('chain_transfers').where({ id: loose.id }).delete();
    await expectInLine(db(), 'a resolved transfer deleted');

    await db()('orders').whereIn('id', db()('orders').orderBy('id').limit(40).select('id')).update({ late: true });
    await expectInLine(db(), 'forty orders late in one statement');
    await db()('chain_transfers').where({ status: 'unmatched' }).update({ status: 'underpaid' });
    await expectInLine(db(), 'every unmatched transfer underpaid in one statement');
  });

  it.runIf(dbKind === 'postgres')(
    "keeps one transfer's item right when an order and a resolution change it at once, each in its own transaction",
    async () => {
      const { order, transferId } = await orderAndTransfer(3);
      await db()('orders').where({ id: order.id }).update({ late: true });
      const second = database.connectAgain!();
      const t1 = await db().transaction();
      const t2 = await second.transaction();
      try {
        await t1('orders').where({ id: order.id }).update({ overpaid: true });
        // Waits for t1 (both lock the transfer's checkout), then reads what t1 wrote.
        const resolving = t2('payment_desk_resolutions')
          .insert({ transfer_id: transferId, resolved_at: new Date(), note: 'n', session_label: 't' })
          .then(() => 'resolved');
        // Still waiting while t1 is open.
        expect(await Promise.race([resolving, new Promise((r) => setTimeout(() => r('waiting'), 300))])).toBe('waiting');
        await t1.commit();
        await resolving;
        await t2.commit();
      } finally {
        if (!t1.isCompleted()) await t1.rollback();
        if (!t2.isCompleted()) await t2.rollback();
      }
      expect(await db()('payment_desk_items').where({ transfer_id: transferId }).first('kind', 'resolved')).toEqual({
        kind: 'overpaid',
        resolved: true,
      });
      await expectInLine(db(), 'after two transactions at once');
    },
  );
});
