import { stockProblem, type ShownStock } from '../../common/availability';

export interface CartCandidate extends ShownStock {
  id?: string | null;
}

/**
 * The client-side checks before an add-to-cart call. Returns the message to show, or
 * null when the request may go ahead. The stock rule is the server's (common/availability).
 */
export function validateAddToCart(variant: CartCandidate | null | undefined, quantity: number): string | null {
  if (!variant || !variant.id) return 'Please select a variant';
  return stockProblem(variant, quantity);
}
