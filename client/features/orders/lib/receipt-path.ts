/** The address of an order's receipt page. */
export function receiptPath(orderId: string): string {
  return `/orders/${encodeURIComponent(orderId)}/receipt`;
}
