/**
 * A refund from the store wallet, step by step: bind the token on Base, check the store wallet's
 * balance, have the server prepare it (it refuses what it would not record, and holds the
 * transfer so nothing counts it meanwhile), send `transfer(refundTo, amountWei)`, keep the hash at once (the money has left: it
 * must stay recordable), wait for the receipt, then have the server verify and record it. Every
 * effect is a dependency, so the sequence runs in unit tests with fakes.
 */
import type { AttentionItem, RecordRefundRequest } from '../../../../common/payments-desk';
import { apiErrorText, ApiError } from '../../../lib/api-client';
import { insufficientBalanceMessage, paymentErrorMessage, RECEIPT_NOT_FOUND_MESSAGE } from '../../../web3/payment-errors';
import type { TokenPayment } from '../../../web3/token-payment';
import type { SentRefund } from './sent-refunds';

export type RefundStep = 'preparing' | 'awaiting-wallet' | 'confirming' | 'verifying' | 'waiting-confirmations';

/** What the pay button says at each step. */
export const REFUND_STEP_LABELS: Readonly<Record<RefundStep, string>> = Object.freeze({
  preparing: 'Checking the store wallet...',
  'awaiting-wallet': 'Confirm in your wallet...',
  confirming: 'Waiting for the chain...',
  verifying: 'Verifying the refund...',
  'waiting-confirmations': 'Waiting for confirmations...',
});

export const REFUND_REVERTED_MESSAGE = 'The refund transaction failed on chain, so nothing was sent. You can try again.';

export interface RefundPlan {
  transferId: string;
  /** The store wallet's connected account (checksummed). */
  from: string;
  /** The transfer's sender, checksummed for the wallet (item.refundTo). */
  to: string;
  /** Canonical POG decimal, as the server is sent it. */
  amount: string;
  wei: bigint;
}

export interface RefundDeps {
  /** Moves the wallet to Base and binds the POG token (client/web3, loaded lazily). */
  connectToken(): Promise<TokenPayment>;
  keepSent(sent: SentRefund): void;
  forgetSent(transferId: string): void;
  /**
   * POST …/prepare-refund: the server refuses what it would not record (more than refundable, a
   * transfer no longer on chain) and holds the transfer while its refund is on the way.
   */
  prepare(transferId: string, amount: string): Promise<AttentionItem>;
  /** POST …/refund, asked again while the server waits for confirmations. */
  record(transferId: string, request: RecordRefundRequest): Promise<AttentionItem>;
  step(step: RefundStep): void;
  now(): Date;
}

export type RefundOutcome =
  | { kind: 'recorded'; item: AttentionItem; sent: SentRefund }
  /** Nothing left the store wallet: the admin may try again. */
  | { kind: 'not-sent'; message: string }
  /** The transfer was sent but is not recorded: keep the hash on screen with "Check again". */
  | { kind: 'sent-not-recorded'; sent: SentRefund; message: string };

/** What a failed server call says: its own message, else the error's. */
function failureText(error: unknown): string {
  if (error instanceof ApiError) return apiErrorText(error);
  return error instanceof Error && error.message ? error.message : 'The refund could not be recorded. Check again.';
}

export async function runRefund(plan: RefundPlan, deps: RefundDeps): Promise<RefundOutcome> {
  let payment: TokenPayment | null = null;
  let sent: SentRefund | null = null;
  try {
    deps.step('preparing');
    payment = await deps.connectToken();
    const balance = await payment.balanceOf(plan.from);
    if (balance < plan.wei) return { kind: 'not-sent', message: insufficientBalanceMessage(plan.wei, balance) };
    try {
      await deps.prepare(plan.transferId, plan.amount);
    } catch (error) {
      return { kind: 'not-sent', message: failureText(error) };
    }

    deps.step('awaiting-wallet');
    const txHash = await payment.transfer(plan.from, plan.to, plan.wei);
    sent = { transferId: plan.transferId, txHash, amount: plan.amount, to: plan.to, sentAt: deps.now().toISOString() };
    deps.keepSent(sent);

    deps.step('confirming');
    const receipt = await payment.waitForReceipt(txHash);
    if (!receipt) return { kind: 'sent-not-recorded', sent, message: RECEIPT_NOT_FOUND_MESSAGE };
    if (receipt.status !== 1) {
      // Reverted: no token moved, so there is nothing to record.
      deps.forgetSent(plan.transferId);
      return { kind: 'not-sent', message: REFUND_REVERTED_MESSAGE };
    }
  } catch (error) {
    if (sent) return { kind: 'sent-not-recorded', sent, message: paymentErrorMessage(error) };
    return { kind: 'not-sent', message: paymentErrorMessage(error) };
  } finally {
    payment?.dispose();
  }
  return recordSentRefund(sent, deps);
}

/** Has the server verify and record a refund already sent ("Check again" starts here). */
export async function recordSentRefund(sent: SentRefund, deps: Pick<RefundDeps, 'record' | 'forgetSent' | 'step'>): Promise<RefundOutcome> {
  deps.step('verifying');
  try {
    const item = await deps.record(sent.transferId, { transactionHash: sent.txHash, amount: sent.amount });
    deps.forgetSent(sent.transferId);
    return { kind: 'recorded', item, sent };
  } catch (error) {
    return { kind: 'sent-not-recorded', sent, message: failureText(error) };
  }
}
