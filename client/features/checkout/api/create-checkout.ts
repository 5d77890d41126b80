import type { Checkout, CreateCheckoutRequest } from '../../../../common/api';
import { apiFetch } from '../../../lib/api-client';

/**
 * POST /api/checkout: turns the session's cart into a payment intent with its exact, unique
 * amount. `customerWallet` is the connected wallet that will pay, or null for "pay from another
 * wallet". A 409 (`cart-empty`, `cart-item-unavailable`) carries a message for the shopper.
 */
export function createCheckout(customerWallet: string | null): Promise<Checkout> {
  return apiFetch<Checkout>('/api/checkout', { method: 'POST', json: { customerWallet } satisfies CreateCheckoutRequest });
}
