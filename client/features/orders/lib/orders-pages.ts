/**
 * The `after` of the next page of GET /api/orders, from its answer's Link header
 * (`</api/orders?wallet=0x…&after=PG…>; rel="next"`); null when there is no next page or the
 * header is not one the shop writes.
 */
export function nextOrdersAfter(link: string | null): string | null {
  if (!link) return null;
  for (const part of link.split(',')) {
    const m = /^\s*<([^>]*)>\s*;\s*rel="?next"?\s*$/i.exec(part);
    if (!m) continue;
    const url = new URL(m[1]!, 'http://shop.invalid');
    if (url.pathname !== '/api/orders') continue;
    const after = url.searchParams.get('after');
    if (after && /^[A-Za-z0-9]{1,40}$/.test(after)) return after;
  }
  return null;
}

/** The orders of every page loaded, in the server's order; one an order that moved between pages shows once. */
export function ordersOfPages<T extends { id: string }>(pages: ReadonlyArray<{ orders: readonly T[] }>): T[] {
  const seen = new Set<string>();
  return pages.flatMap((page) =>
    page.orders.filter((order) => {
      if (seen.has(order.id)) return false;
      seen.add(order.id);
      return true;
    }),
  );
}
