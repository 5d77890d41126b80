/** The cart feature's public surface. Other features and app/ import only from here. */
export { useCart, cartItemCount, refreshCart } from './api/get-cart';
export { useAddToCart } from './api/add-to-cart';
export { OPEN_CART_EVENT, notifyCartUpdated } from './lib/cart-events';
export { CartDrawer } from './components/lazy-cart-drawer';
export type { CartDrawerWallet, PayHandler } from './components/cart-drawer';
