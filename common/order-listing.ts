/**
 * Which orders the shopper's orders page lists, and in which of its three sections: one rule for
 * the server (which lists them) and the client (which groups them).
 */
import { orderStatusSchema, type Order, type OrderStatus } from './api';

export type OrderSectionId = 'needs-shipping' | 'pending-shipment' | 'history';

/** The orders page's sections, in their order on the page, with their headings. */
export const ORDER_SECTIONS: ReadonlyArray<{ id: OrderSectionId; title: string }> = Object.freeze([
  { id: 'needs-shipping', title: 'Orders Needing Shipping Information' },
  { id: 'pending-shipment', title: 'Pending Shipment' },
  { id: 'history', title: 'Order History' },
]);

/**
 * The section an order is listed in: paid and needing shipping details → needs shipping; paid or
 * confirmed otherwise → pending shipment; shipped, or refunded in full (so the shopper sees
 * the refund), → history. Pending, failed and draft orders are not listed (null). The server never marks a confirmed order as needing shipping (confirmed means
 * the details are in), so one that says so still waits for shipment.
 */
export function orderSection(order: Pick<Order, 'status' | 'needsShipping'>): OrderSectionId | null {
  switch (order.status) {
    case 'paid':
      return order.needsShipping ? 'needs-shipping' : 'pending-shipment';
    case 'confirmed':
      return 'pending-shipment';
    case 'shipped':
    case 'refunded':
      return 'history';
    default:
      return null;
  }
}

/** The statuses the orders page lists: those with a section. */
export const LISTED_STATUSES: readonly OrderStatus[] = Object.freeze(
  orderStatusSchema.options.filter((status) => orderSection({ status, needsShipping: false }) !== null),
);

/**
 * Orders on one page of the orders page (GET /api/orders?wallet=&after=): its sections in order,
 * newest first in each, so the orders that need the shopper come first however long the history.
 */
export const ORDERS_PAGE_SIZE = 20;
