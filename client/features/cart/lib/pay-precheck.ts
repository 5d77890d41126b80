import { parseDecimal } from '../../../../common/money';

export interface PayPrecheckInput {
  /** A wallet is connected and its provider is available. */
  walletConnected: boolean;
  /** The cart total in POG, a decimal string ('649.90'). */
  total: string | null | undefined;
}

export interface PayPrecheckProblem {
  title: string;
  description: string;
}

export const CONNECT_WALLET_PROBLEM: PayPrecheckProblem = Object.freeze({
  title: 'Connect Wallet',
  description: "Please connect your wallet and ensure you're on Base Network to proceed with payment",
});

export const EMPTY_CART_PROBLEM: PayPrecheckProblem = Object.freeze({
  title: 'Empty Cart',
  description: 'Please add items to your cart before proceeding with payment',
});

/** True when the total is something to pay: a decimal greater than zero. */
export function hasPayableTotal(total: string | null | undefined): boolean {
  const amount = parseDecimal(total ?? '');
  return amount !== null && amount.units > 0n;
}

/**
 * The checks before a payment starts, in this order: a connected wallet
 * first, then a total that is neither empty nor zero. Returns the toast to show (destructive),
 * or null when payment may go ahead.
 */
export function payPrecheck({ walletConnected, total }: PayPrecheckInput): PayPrecheckProblem | null {
  if (!walletConnected) return CONNECT_WALLET_PROBLEM;
  if (!hasPayableTotal(total)) return EMPTY_CART_PROBLEM;
  return null;
}
