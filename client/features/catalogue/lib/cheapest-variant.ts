import type { Product } from '../../../../common/api';
import { compareDecimal, parseDecimal } from '../../../../common/money';

/**
 * The variant the simple product page's price belongs to: one at the minimum variant price,
 * preferring one that is not sold out among those at that price, so the price shown is the price
 * of what the button adds. Prices are compared exactly; a price that is not a decimal (the server
 * never sends one) ranks last instead of breaking the page.
 */
export function cheapestVariantId(product: Pick<Product, 'variants'>): string | null {
  const priced = product.variants.filter((v) => v.id && parseDecimal(v.price) !== null);
  const ranked = priced.sort((a, b) => compareDecimal(a.price, b.price) || Number(a.isSoldOut) - Number(b.isSoldOut));
  return ranked[0]?.id ?? product.variants.find((v) => v.id)?.id ?? null;
}
