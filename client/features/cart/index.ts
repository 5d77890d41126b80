/** The cart feature's public surface. Other features and app/ import only from here. */
export { useCart, cartQueryKey, cartQueryOptions, cartItemCount, getCart, refreshCart, CART_FETCH_ERROR } from './api/get-cart';
export { addToCart, useAddToCart, ADD_TO_CART_FALLBACK_ERROR } from './api/add-to-cart';
export { useRemoveFromCart, REMOVE_FROM_CART_FALLBACK_ERROR } from './api/remove-from-cart';
export { CART_UPDATED_EVENT, OPEN_CART_EVENT, openCart, notifyCartUpdated } from './lib/cart-events';
export { payPrecheck } from './lib/pay-precheck';
export { CartDrawer, type CartDrawerWallet, type PayHandler } from './components/cart-drawer';
export type { Cart, CartItem } from './types';
