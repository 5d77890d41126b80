import { inventoryGroups, type InventoryItem } from '../../../../common/admin';

/** A group card's data (derived, never stored): one Shopify product. */
export interface ProductGroup {
  /** The Shopify product (the card's key): the custom-title routes act on it alone. */
  productId: string;
  title: string;
  /** Exactly the product's variants: what the bulk price and status act on. */
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
 * One group per Shopify product (common/admin's `inventoryGroups`), named by the suffix stripping
 * of the title shoppers see, so a custom title names its group.
 */
export function groupInventory(items: readonly InventoryItem[]): ProductGroup[] {
  return inventoryGroups(items).map(({ productId, title, variants, base }) => ({
    productId,
    title,
    variants,
    base,
    allActive: variants.every((v) => v.isActive),
    originalTitle: base.originalTitle,
    customTitle: base.customTitle,
    images: base.shopifyData.images,
  }));
}
