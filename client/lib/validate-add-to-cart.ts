export interface CartCandidate {
  id?: string | null;
  isSoldOut?: boolean | null;
  availableStock?: number | null;
}

/**
 * The client-side checks before an add-to-cart call (spec §5). Returns the message to show, or
 * null when the request may go ahead. Stock 0 means "unknown", so it does not limit quantity.
 */
export function validateAddToCart(variant: CartCandidate | null | undefined, quantity: number): string | null {
  if (!variant || !variant.id) return 'Please select a variant';
  if (variant.isSoldOut) return 'This item is sold out';
  const stock = variant.availableStock;
  if (typeof stock === 'number' && stock > 0 && quantity > stock) return `Only ${stock} items available`;
  return null;
}
