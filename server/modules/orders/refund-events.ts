/**
 * Refunds and the order (docs/payments.md, "Refunds"). Payments verifies a refund on chain and records it against
 * the transfer it refunds, in the refunds table, which is this module's: through the functions here,
 * in payments' transaction. What follows for the order is applied here too, through the status
 * machine, inside the caller's transaction: once the refunds of the order's transfers add up to
 * everything paid for it, the order is 'refunded' (a partial refund changes no status).
 */
import type { Knex } from 'knex';
import type { OrderStatus } from '../../../common/api';
import type { Db } from '../../db';
import { noteSoldChange, type SoldFacts } from './create-order';
import { queueOrderNews } from './outbox';
import { needsShipping, nextStatus } from './status';

/** The sum of the refunds recorded against each of these orders, wei (orders without any are absent). */
export function refundedWeiByOrder(db: Db | Knex.Transaction, orderIds: readonly string[]): Promise<Map<string, bigint>> {
  return refundedWeiBy(db, 'order_id', orderIds, String);
}

/** What was refunded against each of these transfers, wei (transfers without any are absent). */
export function refundedWeiByTransfer(db: Db | Knex.Transaction, transferIds: readonly number[]): Promise<Map<number, bigint>> {
  return refundedWeiBy(db, 'transfer_id', transferIds, Number);
}

/** The refunds' sum per value of `column` among `ids`, wei, keyed as `key` reads the column. */
async function refundedWeiBy<K>(
  db: Db | Knex.Transaction,
  column: 'order_id' | 'transfer_id',
  ids: readonly K[],
  key: (value: unknown) => K,
): Promise<Map<K, bigint>> {
  if (ids.length === 0) return new Map();
  const sums: Array<Record<string, unknown> & { n: string | number | null }> = await db('refunds')
    .whereIn(column, [...new Set(ids)] as Array<string | number>)
    .groupBy(column)
    .select(column)
    .sum({ n: 'amount_wei' });
  // numeric sums arrive as decimal strings (never a float)
  return new Map(sums.map((s) => [key(s[column]), BigInt(String(s.n ?? '0').split('.')[0] || '0')]));
}

/** A refund as payments records it: one Transfer log of a refund transaction, against one store transfer. */
export interface RefundRecord {
  transfer_id: number;
  order_id: string | null;
  chain_id: number;
  tx_hash: string;
  log_index: number;
  block_number: number;
  to_address: string;
  amount_wei: string;
  created_at: Date;
  session_label: string | null;
}

/** A recorded refund, as the admin's desks list it. */
export interface StoredRefund {
  id: number;
  transfer_id: number;
  order_id: string | null;
  to_address: string;
  amount_wei: string;
  tx_hash: string;
  created_at: Date | string;
  session_label: string | null;
}

/** The refunds recorded against these transfers (`transfer_id`) or orders (`order_id`), oldest first. */
export async function refundsRecordedBy(
  db: Db | Knex.Transaction,
  by: 'transfer_id' | 'order_id',
  ids: ReadonlyArray<number | string>,
): Promise<StoredRefund[]> {
  if (ids.length === 0) return [];
  return db('refunds')
    .whereIn(by, ids)
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .select('id', 'transfer_id', 'order_id', 'to_address', 'amount_wei', 'tx_hash', 'created_at', 'session_label');
}

/** The refunds recorded from these Transfer logs of transaction `txHash` (`logIndexes`), against whichever transfer. */
export async function refundsOfLogs(
  trx: Knex.Transaction,
  log: { chainId: number; txHash: string; logIndexes: readonly number[] },
): Promise<Array<{ id: number; transfer_id: number; log_index: number }>> {
  return trx('refunds')
    .where({ chain_id: log.chainId, tx_hash: log.txHash })
    .whereIn('log_index', log.logIndexes)
    .select('id', 'transfer_id', 'log_index');
}

/**
 * Records `refund` in the caller's transaction; its id, or null when its Transfer log is recorded
 * already (by a refund of another transfer meanwhile: the log is unique).
 */
export async function insertRefund(trx: Knex.Transaction, refund: RefundRecord): Promise<number | null> {
  const inserted: Array<{ id: number }> = await trx('refunds')
    .insert(refund)
    .onConflict(['chain_id', 'tx_hash', 'log_index'])
    .ignore()
    .returning('id');
  return inserted[0]?.id ?? null;
}

/**
 * After a refund was recorded against one of order `orderId`'s transfers: when the order's refunds
 * now cover what was paid for it, it becomes 'refunded' (when the status machine allows: a failed
 * order stays failed). Returns the change, or null.
 */
export async function refundOrderIfFull(
  trx: Knex.Transaction,
  orderId: string,
  now: Date,
): Promise<{ from: OrderStatus; to: OrderStatus } | null> {
  const order: (SoldFacts & { id: string; amount_paid_wei: string }) | undefined = await trx('orders')
    .where({ id: orderId })
    .forUpdate()
    .first('id', 'status', 'amount_paid_wei', 'shopify_order_id', 'stock_taken');
  if (!order) return null;
  const refunded = (await refundedWeiByOrder(trx, [orderId])).get(orderId) ?? 0n;
  if (refunded < BigInt(order.amount_paid_wei)) return null;
  const to = nextStatus(order.status, 'fully-refunded');
  if (!to) return null;
  await trx('orders')
    .where({ id: orderId })
    .update({ status: to, needs_shipping: needsShipping(to), updated_at: now });
  await noteSoldChange(trx, orderId, order, { ...order, status: to });
  await queueOrderNews(trx, orderId, to, now);
  return { from: order.status, to };
}
