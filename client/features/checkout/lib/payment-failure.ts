/**
 * What the shopper is told when a payment stops (a payment step or the order creation). Pure.
 */
import { ApiError, apiErrorText } from '../../../lib/api-client';
import { PAYMENT_FAILED_FALLBACK, paymentErrorMessage } from '../../../web3/payment-errors';
import { WalletError } from '../../../web3/wallet-errors';
import { PAYMENT_FAILED_TITLE } from './checkout-machine';

export { PAYMENT_FAILED_TITLE };

export const TRANSACTION_FAILED_TITLE = 'Transaction Failed';
export const ORDER_CREATION_FAILED_TITLE = 'Order Creation Failed';
export const ORDER_CREATION_FALLBACK = 'Failed to create order. Please contact support.';

/** A failure the checkout raises itself, with its own toast title and fixed text. */
export class CheckoutFailure extends Error {
  readonly title: string;
  constructor(title: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CheckoutFailure';
    this.title = title;
  }
}

export interface FailureNotice {
  title: string;
  description: string;
}

/**
 * The destructive toast for a failed payment:
 * - the checkout's own failures keep their title ('Transaction Failed', 'Order Creation Failed');
 * - the wallet code's own errors ('Please switch to Base Network…', 'Invalid balance response')
 *   and the server's checkout refusals ('Your cart is empty…') are shown as they are;
 * - anything the wallet or ethers threw goes through the payment mapping (paymentErrorMessage).
 */
export function paymentFailureNotice(error: unknown): FailureNotice {
  if (error instanceof CheckoutFailure) {
    const fallback = error.title === ORDER_CREATION_FAILED_TITLE ? ORDER_CREATION_FALLBACK : PAYMENT_FAILED_FALLBACK;
    return { title: error.title, description: error.message.trim() || fallback };
  }
  if (error instanceof WalletError) return { title: PAYMENT_FAILED_TITLE, description: error.message };
  if (error instanceof ApiError) return { title: PAYMENT_FAILED_TITLE, description: apiErrorText(error) };
  return { title: PAYMENT_FAILED_TITLE, description: paymentErrorMessage(error) };
}
