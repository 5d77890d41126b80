export const MIN_QUANTITY = 1;
export const MAX_QUANTITY = 10;

/**
 * A cart quantity from user input (spec §4–5): a whole number from 1 to 10. Decimals are
 * floored; anything non-numeric (including an empty field) becomes 1.
 */
export function clampQuantity(value: unknown): number {
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && value.trim() !== '') n = Number(value.trim());
  else return MIN_QUANTITY;
  if (Number.isNaN(n)) return MIN_QUANTITY;
  return Math.min(MAX_QUANTITY, Math.max(MIN_QUANTITY, Math.floor(n)));
}
