/**
 * What the chain can do to a paid order afterwards: a reorganisation takes its payment away, or
 * includes it again. Payments decides whether what is left on chain still covers the order; these
 * apply the status change, through the status machine, inside the caller's transaction.
 */
import type { Knex } from 'knex';
import type { OrderStatus } from '../../../common/api';
import { noteSoldChange } from './create-order';
import type { OrderRow } from './service';
import { queueOrderNews } from './outbox';
import { needsShipping, nextStatus } from './status';

/** The status reason of an order failed because its payment vanished in a reorganisation. */
/** The status reason of an order a chain reorganisation failed (its payment left the chain). */
export const PAYMENT_REORGED = 'payment-reorged';

export type PaidOrder = Pick<OrderRow, 'id' | 'status' | 'total_wei' | 'intent_id' | 'session_id' | 'shopify_order_id'> & {
  status_reason: string | null;
  stock_taken: boolean;
};

/** The order, locked until the caller's transaction ends. */
export async function lockOrder(trx: Knex.Transaction, orderId: string): Promise<PaidOrder> {
  return trx('orders')
    .where({ id: orderId })
    .forUpdate()
    .first('id', 'status', 'status_reason', 'total_wei', 'intent_id', 'session_id', 'shopify_order_id', 'stock_taken');
}

/**
 * Its payment no longer covers the order after a reorganisation: the order fails. Returns the new
 * status, or null when the status machine allows no failure from where it is (already failed, or
 * shipped).
 */
export async function failReorgedOrder(trx: Knex.Transaction, order: PaidOrder, now: Date): Promise<OrderStatus | null> {
  const status = nextStatus(order.status, 'payment-reverted');
  if (!status) return null;
  await trx('orders')
    .where({ id: order.id })
    .update({ status, needs_shipping: needsShipping(status), status_reason: PAYMENT_REORGED, updated_at: now });
  await noteSoldChange(trx, order.id, order, { ...order, status });
  return status;
}

/** Its payment is on chain again and covers it: an order a reorganisation failed is paid again. */
export async function restoreReorgedOrder(trx: Knex.Transaction, order: PaidOrder, now: Date): Promise<void> {
  if (order.status_reason !== PAYMENT_REORGED) return;
  const status = nextStatus(order.status, 'payment-restored');
  if (!status) return;
  await trx('orders')
    .where({ id: order.id })
    .update({ status, needs_shipping: needsShipping(status), status_reason: null, updated_at: now });
  await noteSoldChange(trx, order.id, order, { ...order, status });
  await queueOrderNews(trx, order.id, status, now);
}
