/** The cart feature's public surface. Other features import only from here. */
export { useCart, cartQueryKey } from './api/get-cart';
export { addToCart, useAddToCart, CART_UPDATED_EVENT, OPEN_CART_EVENT, ADD_TO_CART_FALLBACK_ERROR } from './api/add-to-cart';
export type { Cart, CartItem } from './types';
