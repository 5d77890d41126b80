import type { Order } from '../../../../common/api';

export type OrderSectionId = 'needs-shipping' | 'pending-shipment' | 'history';

/** The orders page's sections, in the spec's order and words (§2 "Orders page"). */
export const ORDER_SECTIONS: ReadonlyArray<{ id: OrderSectionId; title: string }> = Object.freeze([
  { id: 'needs-shipping', title: 'Orders Needing Shipping Information' },
  { id: 'pending-shipment', title: 'Pending Shipment' },
  { id: 'history', title: 'Order History' },
]);

type Sortable = Pick<Order, 'status' | 'needsShipping'>;

/**
 * The section an order is listed in (spec §4): paid and needing shipping details → needs shipping;
 * paid or confirmed otherwise → pending shipment; shipped → history. Pending, failed and draft
 * orders are not listed (null). The server never marks a confirmed order as needing shipping
 * (confirmed means the details are in), so one that says so still waits for shipment.
 */
export function orderSection(order: Sortable): OrderSectionId | null {
  switch (order.status) {
    case 'paid':
      return order.needsShipping ? 'needs-shipping' : 'pending-shipment';
    case 'confirmed':
      return 'pending-shipment';
    case 'shipped':
      return 'history';
    default:
      return null;
  }
}

export interface OrderSectionGroup<T> {
  id: OrderSectionId;
  title: string;
  orders: T[];
}

/** The listed orders by section, each in the order given (the server's: newest first); empty sections are left out. */
export function groupOrders<T extends Sortable>(orders: readonly T[]): OrderSectionGroup<T>[] {
  return ORDER_SECTIONS.map(({ id, title }) => ({ id, title, orders: orders.filter((order) => orderSection(order) === id) })).filter(
    (group) => group.orders.length > 0,
  );
}

/** The date 'Placed … ago' counts from: processed_at when the order has one, else createdAt (spec §3). */
export function orderPlacedAt(order: Partial<Pick<Order, 'processed_at' | 'createdAt'>>): string | null {
  return order.processed_at || order.createdAt || null;
}
