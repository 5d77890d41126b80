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

const POSITIVE_DECIMAL = /^\d*\.?\d*$/;

/** True when the total is something to pay: a plain decimal greater than zero. */
export function hasPayableTotal(total: string | null | undefined): boolean {
  const text = (total ?? '').trim();
  if (!text || text === '.' || !POSITIVE_DECIMAL.test(text)) return false;
  return /[1-9]/.test(text);
}

/**
 * The checks the spec runs before a payment starts (§5 "Pay"), in its order: a connected wallet
 * first, then a total that is neither empty nor zero. Returns the toast to show (destructive),
 * or null when payment may go ahead.
 */
export function payPrecheck({ walletConnected, total }: PayPrecheckInput): PayPrecheckProblem | null {
  if (!walletConnected) return CONNECT_WALLET_PROBLEM;
  if (!hasPayableTotal(total)) return EMPTY_CART_PROBLEM;
  return null;
}
