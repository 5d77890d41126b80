/**
 * What became of a transfer to the store wallet (chain_transfers.status): one closed vocabulary,
 * written by settlement, the watcher and refunds, read by the payments desk and its export. The
 * migrations write these words out as they were on their day (they never import this file).
 *
 * - `matched`: it counts towards its checkout's order (it made the order or helped pay it);
 * - `unmatched`: it identifies no checkout (no exact amount, no proven sender): kept for the admin;
 * - `underpaid`: it counts towards a checkout that still waits for the rest;
 * - `extra-payment`: a further payment to a checkout that was already paid: kept for a refund;
 * - `removed`: a chain reorganisation removed it (it is not on chain now);
 * - `refunded`: it made no order and money went back (`status_before_refund` keeps what it was);
 *   it never counts towards a checkout again.
 */
export const TRANSFER_STATUSES = ['matched', 'unmatched', 'underpaid', 'extra-payment', 'removed', 'refunded'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

/** Whether `status`, as a query read it, is one of the vocabulary's words. */
export const isTransferStatus = (status: string): status is TransferStatus => (TRANSFER_STATUSES as readonly string[]).includes(status);

/**
 * What of a transfer can still be refunded, wei: what it carried minus what went back already,
 * never below 0. A transfer a reorganisation removed is not on chain: the store has nothing of it
 * to give back (0).
 */
export function refundableWei(transfer: { status: TransferStatus; valueWei: bigint }, refundedWei: bigint): bigint {
  if (transfer.status === 'removed') return 0n;
  return transfer.valueWei > refundedWei ? transfer.valueWei - refundedWei : 0n;
}
