/**
 * The rows of the accountant's export (the admin's desk writes them as CSV): each order paid in
 * the range (orders' rows, from orders' query-parts.ts), and each transfer seen in it that made no
 * order, which desk-kinds.ts names (EXPORTED_TRANSFER_STATUSES, exportStatusSql); a transfer a
 * reorganisation removed carried no money and is left out.
 */
import type { Knex } from 'knex';
import type { Db } from '../../../db';
import { EXPORTED_TRANSFER_STATUSES, exportStatusSql } from '../../payments';
import { joinCheckoutOrder, paidAtOf, paidOrdersBatch, refundedSums, type ExportRow } from './order-parts';

export type { ExportRow };

/** Rows of the export read at a time. */
export const EXPORT_BATCH = 1000;
/** The export's order over the union's columns (of table `t`): time, orders before transfers, then id. */
const exportOrder = (t: string) => `${t}at, ${t}branch, case when ${t}branch = 0 then ${t}order_id end, ${t}transfer_id`;

/**
 * One batch of the export from `start` to `end` after row `after` (oldest first: time, then
 * orders before transfers, then id). Each side reads its own next EXPORT_BATCH rows along an index
 * from exactly where the last row was (compared at the database's own precision), so every batch
 * costs the same however long the range.
 */
export function exportBatch(db: Db, start: Date, end: Date, after: ExportRow | null): Knex.QueryBuilder {
  const afterOrder = after?.transfer_id === null ? after.order_id! : undefined;
  const afterTransfer = after && after.transfer_id !== null ? after.transfer_id : undefined;
  const transferAt = (id: number) => db('chain_transfers').where({ id }).select('created_at');
  const orders = paidOrdersBatch(db, {
    start,
    end,
    limit: EXPORT_BATCH,
    afterOrder,
    afterTime: afterTransfer === undefined ? undefined : transferAt(afterTransfer),
  });
  const transfers = joinCheckoutOrder(db('chain_transfers as ct'), 'ct.intent_id', 'o')
    .whereNull('ct.order_id')
    .whereIn('ct.status', EXPORTED_TRANSFER_STATUSES)
    .where('ct.created_at', '>=', start)
    .where('ct.created_at', '<', end)
    .orderBy([{ column: 'ct.created_at' }, { column: 'ct.id' }])
    .limit(EXPORT_BATCH)
    .select(
      'ct.created_at as at',
      db.raw('1 as branch'),
      'ct.id as transfer_id',
      'o.id as order_id',
      db.raw(`${exportStatusSql('ct.status')} as status`),
      'ct.tx_hash as tx_hash',
      // Who paid: for a swap, the payer the chain proved (its POGS came from a pool); else the sender.
      db.raw('coalesce(ct.payer_address, ct.from_address) as sender'),
      'ct.value_wei as paid_wei',
      db.raw('null::text as name'),
      db.raw('null::text as usd_per_pogs'),
    );
  if (afterOrder !== undefined) transfers.where('ct.created_at', '>=', paidAtOf(db, afterOrder));
  else if (afterTransfer !== undefined)
    transfers.whereRaw('(ct.created_at, ct.id) > (select created_at, id from chain_transfers where id = ?)', [afterTransfer]);
  const batch = db
    .select('*')
    .from(db.raw('((?) union all (?)) as x', [orders, transfers]))
    .orderByRaw(exportOrder(''))
    .limit(EXPORT_BATCH);
  // What went back, summed for the batch's rows only: against an order (all its transfers), or
  // against a transfer that made none.
  const ofBranch = (key: 'order_id' | 'transfer_id', branch: number) => db('b').where('b.branch', branch).select(`b.${key}`);
  return db
    .with('b', batch)
    .from('b')
    .leftJoin(refundedSums(db, 'order_id', ofBranch('order_id', 0), 'r0'), (on) =>
      on.on('r0.order_id', 'b.order_id').andOnVal('b.branch', '=', 0),
    )
    .leftJoin(refundedSums(db, 'transfer_id', ofBranch('transfer_id', 1), 'r1'), (on) =>
      on.on('r1.transfer_id', 'b.transfer_id').andOnVal('b.branch', '=', 1),
    )
    .select('b.*', db.raw('coalesce(r0.n, r1.n, 0) as refunded_wei'))
    .orderByRaw(exportOrder('b.'));
}
