/**
 * Verifying that a transaction pays a checkout (docs/payments.md §2), as pure functions over
 * what the chain said. The RPC fetching lives in chain-client.ts.
 */
import { dataSlice, getAddress, id } from 'ethers';
import { ErrorCode } from '../../../common/errors';
import type { PaidWith } from '../../../common/swap-pay';
import { confirmationsOf, isConfirmed } from '../../lib/confirmations';

export const TRANSFER_TOPIC = id('Transfer(address,address,uint256)');

export interface RawLog {
  address: string;
  topics: readonly string[];
  data: string;
  logIndex: number;
  blockNumber: number;
  blockHash: string;
  transactionHash: string;
  removed?: boolean;
}

/** One ERC-20 Transfer of the shop's token to the store wallet. Addresses are lower case. */
export interface StoreTransfer {
  chainId: number;
  txHash: string;
  logIndex: number;
  blockNumber: number;
  blockHash: string;
  token: string;
  from: string;
  to: string;
  value: bigint;
  removed: boolean;
  /** Who paid it and with what, when it was looked up (swap-payer.ts); recorded with the transfer. */
  paidWith?: PaidWith;
}

const lower = (a: string) => a.toLowerCase();

/** Decodes `log` as a Transfer of `token` to `storeWallet`, or null when it is anything else. */
export function decodeStoreTransfer(log: RawLog, chainId: number, token: string, storeWallet: string): StoreTransfer | null {
  if (lower(log.address) !== lower(token)) return null;
  if (log.topics.length !== 3 || lower(log.topics[0]!) !== TRANSFER_TOPIC) return null;
  const to = lower(getAddress(dataSlice(log.topics[2]!, 12)));
  if (to !== lower(storeWallet)) return null;
  if (!/^0x[0-9a-fA-F]{64}$/.test(log.data)) return null;
  return {
    chainId,
    txHash: lower(log.transactionHash),
    logIndex: log.logIndex,
    blockNumber: log.blockNumber,
    blockHash: lower(log.blockHash),
    token: lower(token),
    from: lower(getAddress(dataSlice(log.topics[1]!, 12))),
    to,
    value: BigInt(log.data),
    removed: Boolean(log.removed),
  };
}

export interface ReceiptFacts {
  status: number | null;
  blockNumber: number;
  logs: readonly RawLog[];
}

export type ReceiptCheck =
  | { ok: true; transfers: StoreTransfer[] }
  /** `pending`: the transfers to the store of a mined transaction that is not deep enough yet. */
  | { ok: false; code: ErrorCode; message: string; pending: StoreTransfer[] };

/**
 * Checks a receipt (docs/payments.md §2, rules 1–2) and returns its transfers of the token to the
 * store wallet, whoever sent them: which checkout a transfer pays is the settlement's judgment, by amount.
 * `receipt` null with `known` false: no such transaction; with `known` true: still pending.
 */
export function checkReceipt(input: {
  receipt: ReceiptFacts | null;
  known: boolean;
  head: number;
  requiredConfirmations: number;
  chainId: number;
  token: string;
  storeWallet: string;
}): ReceiptCheck {
  const { receipt } = input;
  const fail = (code: ErrorCode, message: string, pending: StoreTransfer[] = []): ReceiptCheck => ({
    ok: false,
    code,
    message,
    pending,
  });
  if (!receipt) {
    return input.known
      ? fail(ErrorCode.awaitingConfirmations, 'The transaction is not mined yet. Ask again in a few seconds.')
      : fail(
          ErrorCode.transactionNotFound,
          'There is no transaction with that hash on Base. If you just sent it, wait a few seconds and try again.',
        );
  }
  if (receipt.status !== 1) {
    return fail(ErrorCode.transactionFailed, 'That transaction failed on chain (it was reverted), so nothing was paid.');
  }
  const transfers = receipt.logs
    .map((log) => decodeStoreTransfer(log, input.chainId, input.token, input.storeWallet))
    .filter((t): t is StoreTransfer => t !== null && !t.removed);
  if (transfers.length === 0) {
    return fail(ErrorCode.transferNotFound, 'That transaction is not a POG transfer to the store wallet.');
  }
  if (!isConfirmed(receipt.blockNumber, input.head, input.requiredConfirmations)) {
    const confirmations = confirmationsOf(receipt.blockNumber, input.head);
    return fail(
      ErrorCode.awaitingConfirmations,
      `The payment has ${Math.max(confirmations, 0)} of ${input.requiredConfirmations} confirmations. Ask again in a few seconds.`,
      transfers,
    );
  }
  return { ok: true, transfers };
}
