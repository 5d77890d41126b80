/**
 * Applying what Shopify reports to an order, through the status machine. Webhooks and the poller
 * both come here; an event that does not apply (late, repeated, out of order) changes nothing.
 */
import type { OrderStatus } from '../../../common/api';
import type { Db } from '../../db';
import { usableTrackingUrl } from '../../../common/order-news';
import { noteSoldChange } from './create-order';
import { queueOrderNews } from './outbox';
import { needsShipping, nextStatus, type OrderEvent } from './status';

export async function applyOrderEvent(
  db: Db,
  orderId: string,
  event: OrderEvent,
  facts: { shopifyOrderId?: string | null; shopifyOrderName?: string | null; trackingUrl?: string | null } = {},
): Promise<{ from: OrderStatus; to: OrderStatus } | null> {
  return db.transaction(async (trx) => {
    const order = await trx('orders')
      .where({ id: orderId })
      .forUpdate()
      .first('id', 'status', 'shopify_order_id', 'shopify_order_name', 'stock_taken', 'tracking_url');
    if (!order) return null;
    const now = new Date();
    const patch: Record<string, unknown> = {};
    if (facts.shopifyOrderId && !order.shopify_order_id) patch.shopify_order_id = facts.shopifyOrderId;
    // The name Shopify gives the order ("#1001"), for the admin and the export; the first one heard stays.
    if (facts.shopifyOrderName && !order.shopify_order_name) patch.shopify_order_name = facts.shopifyOrderName;
    // The parcel's tracking page, from a fulfilment webhook; a later fulfilment's replaces it.
    const tracking = usableTrackingUrl(facts.trackingUrl);
    if (tracking && tracking !== order.tracking_url) patch.tracking_url = tracking;
    const to = nextStatus(order.status, event);
    if (to) {
      patch.status = to;
      patch.needs_shipping = needsShipping(to);
      if (to === 'confirmed') patch.confirmed_at = now;
      if (to === 'shipped') patch.shipped_at = now;
    }
    if (Object.keys(patch).length) {
      await trx('orders')
        .where({ id: orderId })
        .update({ ...patch, updated_at: now });
      await noteSoldChange(trx, orderId, order, { ...order, ...patch });
    }
    if (to) await queueOrderNews(trx, orderId, to, now);
    return to ? { from: order.status, to } : null;
  });
}
