/** The cart feature's public surface. Other features and app/ import only from here. */
export { useCart, cartItemCount, refreshCart } from './api/get-cart';
export { useAddToCart } from './api/add-to-cart';
export { OPEN_CART_EVENT, notifyCartUpdated } from './lib/cart-events';
export { CartDrawer, type CartDrawerWallet, type PayHandler } from './components/cart-drawer';
