import type { OrderStatus } from '../../common/api';

export interface OrderStatusStyle {
  label: string;
  /** Tailwind classes: the status's colour, each with AA contrast. */
  className: string;
}

/** pending yellow; confirmed and paid green; failed red; draft blue; shipped solid blue; refunded grey. */
const ORDER_STATUS_STYLES: Readonly<Record<OrderStatus, OrderStatusStyle>> = Object.freeze({
  pending: { label: 'Pending', className: 'border-yellow-300 bg-yellow-100 text-yellow-900' },
  confirmed: { label: 'Confirmed', className: 'border-green-300 bg-green-100 text-green-900' },
  paid: { label: 'Paid', className: 'border-green-300 bg-green-100 text-green-900' },
  failed: { label: 'Failed', className: 'border-red-300 bg-red-100 text-red-900' },
  draft: { label: 'Draft', className: 'border-blue-300 bg-blue-100 text-blue-900' },
  shipped: { label: 'Shipped', className: 'border-blue-700 bg-blue-700 text-white' },
  refunded: { label: 'Refunded', className: 'border-slate-300 bg-slate-100 text-slate-900' },
});

/** The badge for a status; one the client does not know yet (a newer server) shows as grey text. */
export function orderStatusStyle(status: string): OrderStatusStyle {
  return Object.hasOwn(ORDER_STATUS_STYLES, status)
    ? ORDER_STATUS_STYLES[status as OrderStatus]
    : { label: status ? status.charAt(0).toUpperCase() + status.slice(1) : 'Unknown', className: 'border-border bg-muted text-foreground' };
}
