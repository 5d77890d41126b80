/**
 * Window events the rest of the app uses to talk to the cart without importing it:
 * 'cart-updated' makes every cart reader refetch, 'open-cart' opens the cart drawer.
 */
export const CART_UPDATED_EVENT = 'cart-updated';
export const OPEN_CART_EVENT = 'open-cart';

export function notifyCartUpdated(): void {
  window.dispatchEvent(new Event(CART_UPDATED_EVENT));
}

export function openCart(): void {
  window.dispatchEvent(new Event(OPEN_CART_EVENT));
}

/** Elements that open/close the drawer themselves (the header's cart button). */
export const CART_TOGGLE_ATTRIBUTE = 'data-cart-toggle';
