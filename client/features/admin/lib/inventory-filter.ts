import { PRODUCT_FILTERS, type InventoryItem, type ProductFilter } from '../../../../common/admin';

const LABELS: Record<ProductFilter, string> = {
  all: 'All',
  active: 'Active',
  inactive: 'Inactive',
  unpriced: 'Unpriced',
  'sold-out': 'Sold out',
};

/** The list filters an admin with thousands of variants needs (the server applies them: GET /api/admin/products?status=). */
export const INVENTORY_FILTERS = PRODUCT_FILTERS.map((id) => ({ id, label: LABELS[id] }));

/** A filter read from the page's address (?status=); anything else is 'all'. */
export function parseFilter(value: string | null): ProductFilter {
  return PRODUCT_FILTERS.find((f) => f === value) ?? 'all';
}

/** Not priced in POG: not for sale, whatever else is set. */
export function isUnpriced(item: Pick<InventoryItem, 'pogPrice'>): boolean {
  return item.pogPrice === null || item.pogPrice.trim() === '';
}

/** How many variants are not priced (so not for sale). */
export function countUnpriced(items: readonly Pick<InventoryItem, 'pogPrice'>[]): number {
  return items.filter(isUnpriced).length;
}

/** What the list says when nothing matches: the search in quotes, or the filter. */
export function noMatchText(q: string, filter: ProductFilter): string {
  const words = q.trim();
  const label = LABELS[filter].toLowerCase();
  if (words) return filter === 'all' ? `No products match “${words}”` : `No ${label} products match “${words}”`;
  return `No ${label} products`;
}
