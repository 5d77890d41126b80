/**
 * The payment's messages, and the mapping from whatever the wallet or ethers
 * throws during a payment to the text the shopper sees. Pure: the eager bundle may import it.
 */
import { formatUnits } from '../../common/money';
import { formatPogAmount } from '../lib/format-pog-price';
import { declaredRpcErrorCode, errorMessage, USER_REJECTED } from './wallet-errors';

export const INVALID_BALANCE_MESSAGE = 'Invalid balance response';
export const RECEIPT_NOT_FOUND_MESSAGE = 'Transaction receipt not found';
export const TRANSACTION_FAILED_MESSAGE = 'Transaction failed';
export const PAYMENT_FAILED_FALLBACK = 'Failed to process payment';

/** A swap the wallet's estimate says would revert: the price moved past the quote's bound (swap-payment.ts). Quote again. */
export class PriceMovedError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('The price moved past the quote’s bound.', options);
    this.name = 'PriceMovedError';
  }
}

/** JSON-RPC "server error": what most nodes answer for a transaction the account cannot pay for. */
export const RPC_SERVER_ERROR = -32000;

/** One cent of POG in wei: prices, and so the amounts a shopper is told, are whole cents. */
const CENT_WEI = 10n ** 16n;

/**
 * 'Insufficient POG balance. You need {amount} more POG', for a transfer of `requiredWei` from a
 * wallet holding `balanceWei` (less than that).
 *
 * A checkout's amount is its total plus an identifying suffix below one cent (docs/payments.md
 * §1), so the shortfall is counted exactly, in wei, against the amount's whole cents: a zero
 * balance for a 99.90 cart needs '99.90', not '99.91'. It is rounded up to the cent only where it
 * is not a whole number of cents (a balance with a fraction of a cent), and a balance short by
 * the suffix alone reads '0.01', never '0.00'. (The suffix, under 0.000001 POG, is left out of
 * the figure: a wallet topped up by exactly the figure is short by it, and is then told '0.01'.)
 */
export function insufficientBalanceMessage(requiredWei: bigint, balanceWei: bigint): string {
  const wholeCents = requiredWei - (requiredWei % CENT_WEI);
  const exact = wholeCents - balanceWei;
  const cents = exact <= 0n ? 1n : (exact + CENT_WEI - 1n) / CENT_WEI;
  return `Insufficient POG balance. You need ${formatPogAmount(formatUnits(cents * CENT_WEI))} more POG`;
}

/**
 * What a failed payment step says, in this order: 4001 'Transaction was rejected by
 * user'; -32000 'Insufficient funds for gas or token balance'; an "insufficient funds" message
 * 'Insufficient POG tokens or ETH for gas fees'; a "user rejected" message without a code
 * 'Transaction was cancelled by user'; else the error's reason or message, or 'Failed to process
 * payment'. The reason or message is the wallet's own where a library wrapped it (ethers'
 * "could not coalesce error" over the wallet's "execution reverted: boom"), see errorMessage.
 */
export function paymentErrorMessage(error: unknown): string {
  const code = declaredRpcErrorCode(error);
  if (code === USER_REJECTED) return 'Transaction was rejected by user';
  if (code === RPC_SERVER_ERROR) return 'Insufficient funds for gas or token balance';
  const message = errorMessage(error);
  if (message && /insufficient funds/i.test(message)) return 'Insufficient POG tokens or ETH for gas fees';
  if (message && /user (rejected|denied|cancell?ed)/i.test(message)) return 'Transaction was cancelled by user';
  return message ?? PAYMENT_FAILED_FALLBACK;
}
