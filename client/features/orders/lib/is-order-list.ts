import type { Order, RefundLine } from '../../../../common/api';

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object';

/**
 * A light runtime check of GET /api/orders' answer (the fields the page reads), so a wrong body
 * becomes 'Failed to fetch orders' instead of a crash while rendering. The server validates the
 * full shape with zod; the client keeps zod out of its bundle.
 */
export function isOrderList(value: unknown): value is Order[] {
  return (
    Array.isArray(value) &&
    value.every(
      (order: unknown) =>
        isRecord(order) &&
        typeof order.id === 'string' &&
        typeof order.status === 'string' &&
        typeof order.total === 'string' &&
        typeof order.needsShipping === 'boolean' &&
        typeof order.shippingUrl === 'string' &&
        (order.blockchain === undefined || order.blockchain === null || isRecord(order.blockchain)) &&
        Array.isArray(order.items) &&
        order.items.every(
          (item: unknown) =>
            isRecord(item) && typeof item.title === 'string' && typeof item.price === 'string' && typeof item.quantity === 'number',
        ),
    )
  );
}

/** The same light check of GET /api/refunds' answer. */
export function isRefundList(value: unknown): value is RefundLine[] {
  return (
    Array.isArray(value) &&
    value.every(
      (refund: unknown) =>
        isRecord(refund) && typeof refund.amount === 'string' && typeof refund.txHash === 'string' && typeof refund.at === 'string',
    )
  );
}
