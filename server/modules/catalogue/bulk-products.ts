/**
 * A bulk query's rows (BULK_PRODUCTS_QUERY's JSONL) put back together as products: a product is a
 * line without `__parentId`; its media and variants are lines of their own after it, in Shopify's
 * order, carrying the product's id in `__parentId` (not necessarily right after it). A child whose
 * product was not read is counted and skipped, never guessed.
 */
import type { ShopifyProductNode, ShopifyVariantNode } from '../../shopify';

type Media = ShopifyProductNode['media']['nodes'][number];

export interface BulkProducts {
  products: ShopifyProductNode[];
  /** Child lines whose product was not in the file before them. */
  orphans: number;
}

const typeOf = (gid: unknown): string | null => (typeof gid === 'string' ? (/^gid:\/\/shopify\/(\w+)\//.exec(gid)?.[1] ?? null) : null);

export async function assembleBulkProducts(
  rows: AsyncIterable<Record<string, unknown>>,
  onProduct?: (count: number) => void,
): Promise<BulkProducts> {
  const byId = new Map<string, ShopifyProductNode>();
  let orphans = 0;
  for await (const row of rows) {
    const parentId = row.__parentId;
    if (parentId === undefined) {
      if (typeOf(row.id) !== 'Product') continue;
      const product = {
        ...(row as unknown as ShopifyProductNode),
        media: { nodes: [] as Media[] },
        variants: { pageInfo: { hasNextPage: false, endCursor: null }, nodes: [] as ShopifyVariantNode[] },
      };
      byId.set(product.id, product);
      onProduct?.(byId.size);
      continue;
    }
    const parent = typeof parentId === 'string' ? byId.get(parentId) : undefined;
    if (!parent) {
      orphans++;
      continue;
    }
    const { __parentId: _drop, ...child } = row;
    if (typeOf(child.id) === 'ProductVariant') parent.variants.nodes.push(child as unknown as ShopifyVariantNode);
    else if ('mediaContentType' in child) parent.media.nodes.push(child as unknown as Media);
  }
  return { products: [...byId.values()], orphans };
}
