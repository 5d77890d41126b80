import { stockSuffix, type ShownStock } from '../../common/availability';
import { parseDecimal } from '../../common/money';
import { formatPogPrice } from './format-pog-price';

export interface LabelledVariant extends ShownStock {
  title?: string | null;
  price?: string | null;
}

/**
 * The variant select's option text: the title (or 'Unknown Variant'), the price in
 * brackets unless it is zero, then ' - SOLD OUT' or ' - {n} left' when stock is known.
 * A sold-out option is also rendered disabled by the caller.
 */
export function variantOptionLabel(variant: LabelledVariant): string {
  const title = variant.title?.trim() || 'Unknown Variant';
  const price = variant.price?.trim() ?? '';
  // '0' means "no price to show"; '0.00' is the same amount, so it is omitted too.
  const showPrice = price !== '' && parseDecimal(price)?.units !== 0n;
  return (showPrice ? `${title} (${formatPogPrice(price)})` : title) + stockSuffix(variant);
}
