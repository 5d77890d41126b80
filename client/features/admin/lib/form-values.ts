import { POG_PRICE_PATTERN, type InventoryItem } from '../../../../common/admin';

/** What the price fields say when a price cannot be sent as typed. */
export const PRICE_FORMAT_HINT = 'Enter a price of 0 or more with at most 2 decimals.';

/**
 * A POG price typed in the admin's forms (a number, 0 or more, step 0.01): the decimal
 * text to send, null for a blank field (unpriced), or 'invalid' (more than 2 decimals, negative,
 * not a number). The text is sent as it is, never through a float.
 */
export function parsePriceInput(text: string): string | null | 'invalid' {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const normalised = trimmed.startsWith('.') ? `0${trimmed}` : trimmed;
  return POG_PRICE_PATTERN.test(normalised) ? normalised : 'invalid';
}

/** Available stock as typed (an integer, 0 or more; anything non-numeric becomes 0). */
export function parseStockInput(text: string): number {
  const n = Number.parseInt(text.trim(), 10);
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/**
 * The key of a variant's form: its id and the values the form edits (price, active, available
 * stock, sold out). A save, or another admin's change to those, gives a new key and a form reset to
 * the server's values; a sync or a refetch that changes only Shopify's fields keeps the key, so a
 * half-typed form is never wiped under the admin's fingers.
 */
export function variantFormKey(item: Pick<InventoryItem, 'id' | 'pogPrice' | 'isActive' | 'availableStock' | 'isSoldOut'>): string {
  return JSON.stringify([item.id, item.pogPrice, item.isActive, item.availableStock, item.isSoldOut]);
}
