import type { Cart } from '../types';

export const cartQueryKey = ['cart'] as const;

const EMPTY_CART: Cart = Object.freeze({ items: [], total: '0' }) as Cart;

/**
 * PLACEHOLDER until the cart issue lands: GET /api/cart does not exist yet, so this returns an
 * empty cart and calls nothing. The real hook will be a useQuery on cartQueryKey (credentials,
 * never cached, refetched on window focus and on the 'cart-updated' event, spec §7).
 */
export function useCart(): { data: Cart; itemCount: number; isPlaceholder: true } {
  return { data: EMPTY_CART, itemCount: EMPTY_CART.items.length, isPlaceholder: true };
}
