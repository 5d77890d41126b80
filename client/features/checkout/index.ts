/**
 * The checkout feature's public surface (composed by app/): the payment's provider and hook. The
 * pay button lives in the cart drawer; app/ hands it `pay`, `payElsewhere` and `progress`.
 */
export { CheckoutProvider, useCheckout } from './context/checkout-provider';
