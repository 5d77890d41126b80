import type { AdminProductGroup, InventoryItem } from '../../../../common/admin';

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
 * A group card's data from a group the server listed (GET /api/admin/products): named by the
 * server (the suffix stripping of the title shoppers see, so a custom title names its group).
 */
export function toProductGroup({ productId, title, variants }: AdminProductGroup): ProductGroup {
  const base = variants[0]!;
  return {
    productId,
    title,
    variants,
    base,
    allActive: variants.every((v) => v.isActive),
    originalTitle: base.originalTitle,
    customTitle: base.customTitle,
    images: base.shopifyData.images,
  };
}

/** The Individual View's cards: the variants of the listed groups that match the search and filter, in order. */
export function matchingVariants(groups: readonly AdminProductGroup[]): InventoryItem[] {
  return groups.flatMap((g) => {
    const matching = new Set(g.matching);
    return g.variants.filter((v) => matching.has(v.id));
  });
}
