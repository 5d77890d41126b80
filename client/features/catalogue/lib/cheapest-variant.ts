import type { Product } from '../../../../common/api';
import { compareDecimal } from '../../../../common/money';

/** The variant at the minimum price, preferring one that is not sold out; prices compared exactly. */
export function cheapestVariantId(product: Pick<Product, 'variants'>): string | null {
  const ranked = product.variants
    .filter((v) => v.id)
    .sort((a, b) => Number(a.isSoldOut) - Number(b.isSoldOut) || compareDecimal(a.price, b.price));
  return ranked[0]?.id ?? null;
}
