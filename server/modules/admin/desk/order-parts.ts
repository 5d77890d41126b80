/**
 * Orders' tables in another module's query. The payments desk reads a transfer with its
 * checkout's order in one statement (its queue, items and export are tuned over 100,000 orders):
 * payments builds those statements and takes the orders' parts from here, so which columns and
 * conditions mean what stays with the module that writes them.
 */
import type { Knex } from 'knex';
import type { Db } from '../../../db';
import { PAYMENT_REORGED } from '../../orders';

/**
 * Joins the order of each row's checkout (`checkoutId`, a column of the caller's query) as
 * `alias`: a left join unless `inner` (a checkout makes at most one order).
 */
export function joinCheckoutOrder(q: Knex.QueryBuilder, checkoutId: string, alias: string, inner = false): Knex.QueryBuilder {
  const table = `orders as ${alias}`;
  return inner ? q.join(table, `${alias}.intent_id`, checkoutId) : q.leftJoin(table, `${alias}.intent_id`, checkoutId);
}

/**
 * The facts about order `alias` that put its paying transfer on the payments desk, as SQL boolean
 * expressions (false when there is no order): failed by a chain reorganisation, on hold (paid
 * after the stock was gone), overpaid (by a cent or more), late; and `paidBy`, whether the
 * transfer (`txHash`, `logIndex`: columns of the caller's query) is the one that paid it.
 */
export function orderFactsSql(alias: string, transfer: { txHash: string; logIndex: string }) {
  return {
    orderReorged: `${alias}.status_reason = '${PAYMENT_REORGED}'`,
    paying: `${alias}.tx_hash = ${transfer.txHash} and ${alias}.log_index = ${transfer.logIndex}`,
    onHold: `${alias}.hold_reason is not null`,
    overpaid: `${alias}.overpaid`,
    late: `${alias}.late`,
  };
}

/** What the payments desk shows of order `alias`, as `order_…` columns (null without an order). */
export function orderDeskColumns(alias: string): string[] {
  return [
    `${alias}.id as order_id`,
    `${alias}.status_reason as order_status_reason`,
    `${alias}.hold_reason as order_hold_reason`,
    `${alias}.overpaid as order_overpaid`,
    `${alias}.late as order_late`,
    `${alias}.total_wei as order_total_wei`,
    `${alias}.amount_paid_wei as order_amount_paid_wei`,
    `${alias}.tx_hash as order_tx_hash`,
    `${alias}.log_index as order_log_index`,
  ];
}

/** A row of the accountant's export: an order paid, or (from payments) a transfer that made none. */
export interface ExportRow {
  at: Date | string;
  /** 0 for an order's row, 1 for a transfer's (at the same instant, orders come first). */
  branch: number;
  /** Null on an order's row. */
  transfer_id: number | null;
  order_id: string | null;
  status: string;
  tx_hash: string;
  sender: string;
  paid_wei: string | number;
  /** What went back: against the order (all its transfers), or against the transfer that made none. */
  refunded_wei: string | number;
  name: string | null;
  /** An order's dollar reference at payment (dollars per POGS, decimal text); null on a transfer's row or without one. */
  usd_per_pogs: string | null;
}

/**
 * The export's next `limit` orders paid from `start` to `end` (oldest first, then by id), as the
 * export's rows (branch 0, refunded_wei left to refundedSums), along the paid_at index; after
 * order `afterOrder` exactly, or after the instant `afterTime` (a subquery of the caller's).
 */
export function paidOrdersBatch(
  db: Db | Knex.Transaction,
  range: { start: Date; end: Date; limit: number; afterOrder?: string; afterTime?: Knex.QueryBuilder },
): Knex.QueryBuilder {
  const q = db('orders as o')
    .where('o.paid_at', '>=', range.start)
    .where('o.paid_at', '<', range.end)
    .orderBy([{ column: 'o.paid_at' }, { column: 'o.id' }])
    .limit(range.limit)
    .select(
      'o.paid_at as at',
      db.raw('0 as branch'),
      db.raw('null::integer as transfer_id'),
      'o.id as order_id',
      'o.status as status',
      'o.tx_hash as tx_hash',
      'o.customer_wallet as sender',
      'o.amount_paid_wei as paid_wei',
      'o.shopify_order_name as name',
      db.raw('o.reference_usd_per_pogs::text as usd_per_pogs'),
    );
  // Exactly after the order, at the database's own precision.
  if (range.afterOrder !== undefined) q.whereRaw('(o.paid_at, o.id) > (select paid_at, id from orders where id = ?)', [range.afterOrder]);
  if (range.afterTime) q.where('o.paid_at', '>', range.afterTime);
  return q;
}

/** When order `id` was paid, as a subquery (compared at the database's own precision). */
export function paidAtOf(db: Db | Knex.Transaction, id: string): Knex.QueryBuilder {
  return db('orders').where({ id }).select('paid_at');
}

/**
 * What went back, summed per `key` (an order, or a transfer that made no order) over the ids the
 * subquery `ids` gives, as rows (`key`, n), for the caller to join as `alias`.
 */
export function refundedSums(db: Db | Knex.Transaction, key: 'order_id' | 'transfer_id', ids: Knex.QueryBuilder, alias: string) {
  return db('refunds').whereIn(key, ids).groupBy(key).select(key, db.raw('sum(amount_wei) as n')).as(alias);
}
