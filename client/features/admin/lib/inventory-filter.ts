import type { InventoryItem } from '../../../../common/admin';

/** The list filters an admin with hundreds of variants needs beyond the spec (issue 12). */
export const INVENTORY_FILTERS = [
  { id: 'all', label: 'All' },
  { id: 'active', label: 'Active' },
  { id: 'inactive', label: 'Inactive' },
  { id: 'unpriced', label: 'Unpriced' },
  { id: 'sold-out', label: 'Sold out' },
] as const;
export type InventoryFilter = (typeof INVENTORY_FILTERS)[number]['id'];

type FilterFields = Pick<InventoryItem, 'isActive' | 'pogPrice' | 'inShop'>;

/** Not priced in POG: not for sale, whatever else is set. */
export function isUnpriced(item: Pick<InventoryItem, 'pogPrice'>): boolean {
  return item.pogPrice === null || item.pogPrice.trim() === '';
}

function matchesFilter(item: FilterFields, filter: InventoryFilter): boolean {
  switch (filter) {
    case 'all':
      return true;
    case 'active':
      return item.isActive;
    case 'inactive':
      return !item.isActive;
    case 'unpriced':
      return isUnpriced(item);
    case 'sold-out':
      // Sold out in the shop, whoever says so: the admin's switch, Shopify, or none left.
      return item.inShop.isSoldOut;
  }
}

type SearchFields = Pick<InventoryItem, 'title' | 'originalTitle' | 'customTitle' | 'variantTitle' | 'sku'>;

/** Whether every word of the search is in one of the item's titles or its SKU (case-insensitive). */
function matchesSearch(item: SearchFields, words: readonly string[]): boolean {
  if (words.length === 0) return true;
  const haystack = [item.title, item.originalTitle, item.customTitle, item.variantTitle, item.sku]
    .filter((s): s is string => typeof s === 'string')
    .join('\n')
    .toLowerCase();
  return words.every((word) => haystack.includes(word));
}

/** The items that match both the search (title or SKU) and the filter, in their order. */
export function filterInventory<T extends FilterFields & SearchFields>(items: readonly T[], search: string, filter: InventoryFilter): T[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  return items.filter((item) => matchesFilter(item, filter) && matchesSearch(item, words));
}

/** How many variants are not priced (so not for sale): shown prominently above the list. */
export function countUnpriced(items: readonly Pick<InventoryItem, 'pogPrice'>[]): number {
  return items.filter(isUnpriced).length;
}
