/**
 * The rules behind "Pay from another wallet" (docs/payments.md §1): the shopper sends the
 * checkout's exact amount from any wallet, and the server's chain watcher finds it. Pure.
 */
import type { Cart, Checkout } from '../../../../common/api';

/** How often the dialog asks whether the payment has arrived. */
export const CHECKOUT_POLL_MS = 3000;

/** A checkout this close to expiry is not offered again: the shopper needs time to pay it. */
export const REUSE_MARGIN_MS = 2 * 60_000;

/**
 * Polls while a payment may still arrive (also the rest of a partly paid one), and after it did
 * until the order exists.
 */
export function checkoutPollInterval(checkout: Pick<Checkout, 'status' | 'orderId'> | undefined): number | false {
  if (!checkout) return false;
  if (checkout.status === 'open' || checkout.status === 'underpaid') return CHECKOUT_POLL_MS;
  if (checkout.status === 'paid' && !checkout.orderId) return CHECKOUT_POLL_MS;
  return false;
}

/** What a checkout was made of: the lines that count (variant × quantity) and the total. */
export function cartSignature(cart: Pick<Cart, 'items' | 'total'>): string {
  const lines = cart.items
    .filter((item) => !item.problem)
    .map((item) => `${item.variantId}×${item.quantity}`)
    .sort();
  return `${lines.join(',')}|${cart.total}`;
}

/**
 * Reopening the dialog shows the same checkout (one amount to pay) while it is still open for the
 * same cart with time to spare, and a partly paid one for the same cart whatever its time (what
 * was sent belongs to it); otherwise a new one is made.
 */
export function canReuseCheckout(
  previous: { checkout: Pick<Checkout, 'status' | 'expiresAt'>; signature: string } | null,
  signature: string,
  now: number,
): boolean {
  if (!previous || previous.signature !== signature) return false;
  if (previous.checkout.status === 'underpaid') return true;
  if (previous.checkout.status !== 'open') return false;
  const expiresAt = Date.parse(previous.checkout.expiresAt);
  return Number.isFinite(expiresAt) && expiresAt - now > REUSE_MARGIN_MS;
}

/** Time left as 'm:ss' (or 'h:mm:ss'); '0:00' once past. */
export function formatCountdown(msLeft: number): string {
  const total = Math.max(0, Math.ceil(msLeft / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}
