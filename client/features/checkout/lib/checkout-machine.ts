/**
 * The wallet payment's state machine:
 *
 *   idle → checking-balance → awaiting-wallet → sent → confirming → creating-order → done
 *
 * - checking-balance: the checkout is created (POST /api/checkout), the wallet moved to Base and
 *   the token balance read;
 * - choosing-coin (checking-balance → choosing-coin → awaiting-wallet): the POGS are short and the
 *   shop takes ETH or USDC: the shopper chooses, sees the quote and confirms it (run-swap.ts); back
 *   here from awaiting-wallet when the price moved before the swap was sent;
 * - awaiting-wallet: the transfer (or the swap) waits for the shopper's approval in the wallet;
 * - sent: the wallet returned the hash (held from here on) and the server is told about it;
 * - confirming: waiting for the receipt on chain;
 * - creating-order: receipt status 1, POST /api/orders/create;
 * - done: the order exists; the cart is refreshed and the shopper sent to shipping after 1.5 s.
 *
 * Any failure returns to idle and clears the hash. Pure: the provider performs the side effects
 * and feeds it events; an event that does not fit the current phase is ignored, so a second tap
 * cannot start a second payment while one runs.
 */
import type { Cart } from '../../../../common/api';

export type CheckoutPhase =
  'idle' | 'checking-balance' | 'choosing-coin' | 'awaiting-wallet' | 'sent' | 'confirming' | 'creating-order' | 'done';

export interface CheckoutState {
  phase: CheckoutPhase;
  /** The transfer's hash, held from 'sent' on. */
  transactionHash: string | null;
  /**
   * In 'done': the cart as it was paid. The server empties the cart with the order, and the
   * drawer keeps showing what was bought (not 'Your cart is empty', '0.00 POG') until the redirect.
   */
  paidCart?: Cart;
}

export type CheckoutEvent =
  | { type: 'start' }
  | { type: 'balance-ok' }
  /** The POGS are short: the shopper may pay with another coin. */
  | { type: 'short' }
  | { type: 'transaction-sent'; transactionHash: string }
  | { type: 'server-notified' }
  | { type: 'receipt-confirmed' }
  | { type: 'order-created'; paidCart: Cart }
  | { type: 'failed' }
  /** Back to idle after 'done' (the page came back from the back/forward cache). */
  | { type: 'reset' };

export const initialCheckoutState: CheckoutState = Object.freeze({
  phase: 'idle',
  transactionHash: null,
});

/** The phases in which a payment is under way (the pay button is disabled). */
export function isPaying(phase: CheckoutPhase): boolean {
  return phase !== 'idle';
}

export function checkoutReducer(state: CheckoutState, event: CheckoutEvent): CheckoutState {
  switch (event.type) {
    case 'start':
      return state.phase === 'idle' ? { phase: 'checking-balance', transactionHash: null } : state;
    case 'balance-ok':
      return state.phase === 'checking-balance' || state.phase === 'choosing-coin' ? { ...state, phase: 'awaiting-wallet' } : state;
    case 'short':
      return state.phase === 'checking-balance' || state.phase === 'awaiting-wallet' ? { ...state, phase: 'choosing-coin' } : state;
    case 'transaction-sent':
      return state.phase === 'awaiting-wallet' ? { ...state, phase: 'sent', transactionHash: event.transactionHash } : state;
    case 'server-notified':
      return state.phase === 'sent' ? { ...state, phase: 'confirming' } : state;
    case 'receipt-confirmed':
      return state.phase === 'confirming' ? { ...state, phase: 'creating-order' } : state;
    case 'order-created':
      return state.phase === 'creating-order' ? { ...state, phase: 'done', paidCart: event.paidCart } : state;
    case 'failed':
      // 'done' is past failing: the order exists, only the redirect is left.
      return state.phase === 'idle' || state.phase === 'done' ? state : initialCheckoutState;
    case 'reset':
      return state.phase === 'done' ? initialCheckoutState : state;
  }
}

/** The failed payment's toast title (payment-failure.ts; also when the payment's code cannot load). */
export const PAYMENT_FAILED_TITLE = 'Payment Failed';

/** The pay button's text in each phase ('Pay with POG' when idle). */
export const PAY_BUTTON_LABELS: Readonly<Record<CheckoutPhase, string>> = Object.freeze({
  idle: 'Pay with POG',
  'checking-balance': 'Checking balance...',
  'choosing-coin': 'Choose how to pay...',
  'awaiting-wallet': 'Confirm in your wallet...',
  sent: 'Transaction sent...',
  confirming: 'Confirming on chain...',
  'creating-order': 'Creating your order...',
  done: 'Redirecting to shipping...',
});
