/**
 * The order status machine (docs/payments.md, "Orders and the Shopify hand-off"), pure and in one place.
 * Every status change in the code goes through `nextStatus`, so an event arriving late or twice
 * (webhooks are retried and unordered) can never move an order backwards.
 */
import type { OrderStatus } from '../../../common/api';

export type OrderEvent =
  /** A verified transfer paid the order. */
  | 'payment-verified'
  /** Shopify has the shipping details (the invoice page was completed). */
  | 'shipping-received'
  /** Shopify fulfilled the order. */
  | 'fulfilled'
  /** The paying transfer vanished in a chain reorganisation, or the intent expired unpaid. */
  | 'payment-reverted'
  /** A transfer undone by a reorganisation was included again. */
  | 'payment-restored'
  /** Verified refunds now add up to everything paid for the order (a partial refund is no event). */
  | 'fully-refunded';

const TRANSITIONS: Record<OrderStatus, Partial<Record<OrderEvent, OrderStatus>>> = {
  pending: { 'payment-verified': 'paid', 'payment-reverted': 'failed' },
  draft: { 'payment-verified': 'paid' },
  paid: { 'shipping-received': 'confirmed', fulfilled: 'shipped', 'payment-reverted': 'failed', 'fully-refunded': 'refunded' },
  // Shipping details can only be given once; a repeat is a no-op, not an error.
  confirmed: { fulfilled: 'shipped', 'payment-reverted': 'failed', 'fully-refunded': 'refunded' },
  // A shipped order can still be refunded (a return).
  shipped: { 'fully-refunded': 'refunded' },
  failed: { 'payment-restored': 'paid' },
  // Terminal: the money went back; nothing Shopify or the chain reports later changes that.
  refunded: {},
};

/** The status after `event`, or null when the event does not apply in `status` (ignored). */
export function nextStatus(status: OrderStatus, event: OrderEvent): OrderStatus | null {
  return TRANSITIONS[status][event] ?? null;
}

/** Paid orders need the shopper's shipping details until Shopify reports them in. */
export function needsShipping(status: OrderStatus): boolean {
  return status === 'paid';
}
