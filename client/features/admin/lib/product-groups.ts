import type { InventoryItem } from '../../../../common/admin';
import { groupVariants } from '../../../lib/group-variants';

/** A group card's data (spec §3 "Product group": derived, never stored). */
export interface ProductGroup {
  /** The group's key on the page: its base variant's id (stable while the list is refetched). */
  key: string;
  title: string;
  variants: InventoryItem[];
  base: InventoryItem;
  /** Every variant active ('All Active'), or not ('Mixed Status'). */
  allActive: boolean;
  /** The product title in Shopify the title dialog edits (the custom-title routes' key). */
  originalTitle: string;
  customTitle: string | null;
  images: InventoryItem['shopifyData']['images'];
}

/**
 * Groups the inventory by the spec's suffix rules (`client/lib/group-variants`: size/colour
 * suffixes stripped, the hoodie forced into one group) on the title shoppers see, so a custom
 * title names its group.
 */
export function groupInventory(items: readonly InventoryItem[]): ProductGroup[] {
  return groupVariants(items, (item) => item.title).map(({ title, variants, base }) => ({
    key: base.id,
    title,
    variants,
    base,
    allActive: variants.every((v) => v.isActive),
    originalTitle: base.originalTitle,
    customTitle: base.customTitle,
    images: base.shopifyData.images,
  }));
}
