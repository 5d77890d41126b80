/**
 * Cart limits and the words for them, one home for the server (which enforces them) and the
 * client (which keeps its controls within them), plus how a cart line is named.
 */

/** Units of one item a cart line holds: from 1 to 10. */
export const MIN_QUANTITY = 1;
export const MAX_QUANTITY = 10;

export const QUANTITY_RANGE_MESSAGE = `quantity must be a whole number from ${MIN_QUANTITY} to ${MAX_QUANTITY}`;
export const QUANTITY_MIN_MESSAGE = `quantity must be at least ${MIN_QUANTITY}`;
export const QUANTITY_MAX_MESSAGE = `quantity must be at most ${MAX_QUANTITY}`;

/** Why adding would take a line past MAX_QUANTITY, counting what the cart already holds. */
export const lineLimitMessage = (inCart: number): string =>
  `You can have at most ${MAX_QUANTITY} of an item in your cart${inCart ? ` (you already have ${inCart})` : ''}`;

/**
 * A cart quantity from user input: a whole number from 1 to 10. Decimals are floored; anything
 * non-numeric (including an empty field) becomes 1.
 */
export function clampQuantity(value: unknown): number {
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && value.trim() !== '') n = Number(value.trim());
  else return MIN_QUANTITY;
  if (Number.isNaN(n)) return MIN_QUANTITY;
  return Math.min(MAX_QUANTITY, Math.max(MIN_QUANTITY, Math.floor(n)));
}

/** A cart (and checkout) line's title: the product's, plus the variant's unless it is Shopify's "Default Title". */
export function cartLineTitle(productTitle: string, variantTitle: string | null | undefined): string {
  return variantTitle && variantTitle !== 'Default Title' ? `${productTitle} - ${variantTitle}` : productTitle;
}
