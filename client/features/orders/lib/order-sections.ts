import type { Order } from '../../../../common/api';
import { ORDER_SECTIONS, orderSection, type OrderSectionId } from '../../../../common/order-listing';

type Sortable = Pick<Order, 'status' | 'needsShipping'>;

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

/** The date 'Placed … ago' counts from: processed_at when the order has one, else createdAt. */
export function orderPlacedAt(order: Partial<Pick<Order, 'processed_at' | 'createdAt'>>): string | null {
  return order.processed_at || order.createdAt || null;
}
