/**
 * Refunds and the order (docs/payments.md, "Refunds"). Payments verifies a refund on chain and records it against
 * the transfer it refunds (the refunds table); this applies what follows for the order, through
 * the status machine, inside the caller's transaction: once the refunds of the order's transfers
 * add up to everything paid for it, the order is 'refunded' (a partial refund changes no status).
 */
import type { Knex } from 'knex';
import type { OrderStatus } from '../../../common/api';
import type { Db } from '../../db';
import { needsShipping, nextStatus } from './status';

/** The sum of the refunds recorded against each of these orders, wei (orders without any are absent). */
export async function refundedWeiByOrder(db: Db | Knex.Transaction, orderIds: readonly string[]): Promise<Map<string, bigint>> {
  if (orderIds.length === 0) return new Map();
  const sums: Array<{ order_id: string; n: string | number | null }> = await db('refunds')
    .whereIn('order_id', [...new Set(orderIds)])
    .groupBy('order_id')
    .select('order_id')
    .sum({ n: 'amount_wei' });
  // numeric sums arrive as decimal strings (never a float)
  return new Map(sums.map((s) => [s.order_id, BigInt(String(s.n ?? '0').split('.')[0] || '0')]));
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
  const order: { id: string; status: OrderStatus; amount_paid_wei: string } | undefined = await trx('orders')
    .where({ id: orderId })
    .forUpdate()
    .first('id', 'status', 'amount_paid_wei');
  if (!order) return null;
  const refunded = (await refundedWeiByOrder(trx, [orderId])).get(orderId) ?? 0n;
  if (refunded < BigInt(order.amount_paid_wei)) return null;
  const to = nextStatus(order.status, 'fully-refunded');
  if (!to) return null;
  await trx('orders')
    .where({ id: orderId })
    .update({ status: to, needs_shipping: needsShipping(to), updated_at: now });
  return { from: order.status, to };
}
