/**
 * Refunds verified on chain (docs/payments.md, "Refunds"). The server never holds the
 * store wallet's key: the admin's wallet sends `transfer(payer, amount)` of the POG token, and
 * the shop only looks. A refund is recorded when its transaction succeeded, is deep enough, and
 * carries a Transfer of the configured token from the store wallet to the wallet that paid (the
 * sender of a plain transfer, the payer the chain proved for a swap: refundRecipient) of exactly
 * the amount prepared; anything else is refused with a code that says what differs, and
 * recorded nowhere.
 *
 * Recording runs in the caller's transaction (the admin desk audits it there): the refunded
 * transfer is locked, a refund never exceeds what that transfer carried minus what was already
 * refunded, a refund transaction is recorded once (keyed like chain_transfers), a transfer that
 * made no order becomes 'refunded' (it never counts towards a checkout again), and an order whose
 * transfers' refunds now cover what was paid becomes 'refunded'. The refunds table is the orders
 * module's: it is read and written through its index, in the same transaction.
 */
import { dataSlice, getAddress } from 'ethers';
import type { Knex } from 'knex';
import { ErrorCode } from '../../../common/errors';
import { formatUnits } from '../../../common/money';
import { AppError } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import { unavailableCause } from '../../lib/unavailable';
import { insertRefund, refundedWeiByTransfer, refundOrderIfFull, refundsOfLogs } from '../orders';
import { queueWebhookEvent } from '../outgoing-webhooks';
import type { ChainClient } from './chain-client';
import type { SwapFacts } from './swap-payer';
import { refundableWei, type TransferStatus } from './transfer-status';
import { TRANSFER_TOPIC, type RawLog, type ReceiptFacts } from './verify';
import { confirmationsOf, isConfirmed } from '../../lib/confirmations';

/** A Transfer of the POG token from the store wallet to the payer, of the refund's amount. Addresses lower case. */
export interface RefundTransfer {
  chainId: number;
  txHash: string;
  logIndex: number;
  blockNumber: number;
  to: string;
  value: bigint;
}

type RefundCheck = { ok: true; transfers: RefundTransfer[] } | { ok: false; code: ErrorCode; message: string };

const lower = (a: string) => a.toLowerCase();
const pog = (wei: bigint) => formatUnits(wei, 18, 2);

interface TokenTransfer {
  txHash: string;
  logIndex: number;
  blockNumber: number;
  from: string;
  to: string;
  value: bigint;
}

/** Any Transfer(from, to, value) event emitted by `token`, or null. */
function decodeTokenTransfer(log: RawLog, token: string): TokenTransfer | null {
  if (log.removed || lower(log.address) !== lower(token)) return null;
  if (log.topics.length !== 3 || lower(log.topics[0]!) !== TRANSFER_TOPIC) return null;
  if (!/^0x[0-9a-fA-F]{64}$/.test(log.data)) return null;
  return {
    txHash: lower(log.transactionHash),
    logIndex: log.logIndex,
    blockNumber: log.blockNumber,
    from: lower(getAddress(dataSlice(log.topics[1]!, 12))),
    to: lower(getAddress(dataSlice(log.topics[2]!, 12))),
    value: BigInt(log.data),
  };
}

/**
 * Judges a refund transaction from what the chain said (pure). The most precise refusal wins: no
 * POG transfer at all (another token, or none) → wrong token; POG moved but not from the store
 * wallet → not from the store; from the store but not to the payer → wrong recipient; to the payer
 * but another value → wrong amount. A transaction that is right but not deep enough is awaited.
 */
export function checkRefundReceipt(input: {
  receipt: ReceiptFacts | null;
  known: boolean;
  head: number;
  requiredConfirmations: number;
  chainId: number;
  token: string;
  storeWallet: string;
  /** The wallet that paid (refundRecipient), who must receive the refund. */
  to: string;
  amountWei: bigint;
}): RefundCheck {
  const { receipt, amountWei } = input;
  const fail = (code: ErrorCode, message: string): RefundCheck => ({ ok: false, code, message });
  if (!receipt) {
    return input.known
      ? fail(ErrorCode.awaitingConfirmations, 'The refund transaction is not mined yet. Ask again in a few seconds.')
      : fail(
          ErrorCode.transactionNotFound,
          'There is no transaction with that hash on this chain. If the store wallet just sent it, wait a few seconds and try again.',
        );
  }
  if (receipt.status !== 1) {
    return fail(ErrorCode.transactionFailed, 'That refund transaction failed on chain (it was reverted), so nothing was sent back.');
  }
  const pogTransfers = receipt.logs.map((log) => decodeTokenTransfer(log, input.token)).filter((t): t is TokenTransfer => t !== null);
  if (pogTransfers.length === 0) {
    return fail(ErrorCode.refundWrongToken, 'That transaction moved no POG token (another token, or no transfer at all): it is no refund.');
  }
  const fromStore = pogTransfers.filter((t) => t.from === lower(input.storeWallet));
  if (fromStore.length === 0) {
    return fail(
      ErrorCode.refundNotFromStoreWallet,
      `That POG transfer was not sent from the store wallet ${getAddress(input.storeWallet)}. Send the refund from the store wallet.`,
    );
  }
  const toPayer = fromStore.filter((t) => t.to === lower(input.to));
  if (toPayer.length === 0) {
    return fail(
      ErrorCode.refundWrongRecipient,
      `That refund went to ${getAddress(fromStore[0]!.to)}, not to ${getAddress(input.to)}, the wallet that paid. It is not recorded as a refund of this payment.`,
    );
  }
  const exact = toPayer.filter((t) => t.value === amountWei);
  if (exact.length === 0) {
    return fail(
      ErrorCode.refundWrongAmount,
      `That refund carried ${pog(toPayer[0]!.value)} POG, not the ${pog(amountWei)} POG given. Record it with the amount it carried.`,
    );
  }
  if (!isConfirmed(receipt.blockNumber, input.head, input.requiredConfirmations)) {
    const confirmations = confirmationsOf(receipt.blockNumber, input.head);
    return fail(
      ErrorCode.awaitingConfirmations,
      `The refund has ${Math.max(confirmations, 0)} of ${input.requiredConfirmations} confirmations. Ask again in a few seconds.`,
    );
  }
  return {
    ok: true,
    transfers: exact.map((t) => ({
      chainId: input.chainId,
      txHash: t.txHash,
      logIndex: t.logIndex,
      blockNumber: t.blockNumber,
      to: t.to,
      value: t.value,
    })),
  };
}

/** What recording a refund did. */
export interface RecordedRefund {
  /** False when this very refund was already recorded for this transfer (a repeat): nothing changed. */
  created: boolean;
  refundId: number;
  /** What of the transfer could still be refunded before this call (refundableWei), wei. */
  refundableBeforeWei: bigint;
  /** What was refunded from the transfer after this call, wei. */
  refundedWei: bigint;
  /** The order's status change, when this refund completed the order's refund. */
  order: { id: string; from: string; to: string } | null;
}

export class RefundService {
  constructor(
    private readonly deps: {
      chain: ChainClient;
      requiredConfirmations: number;
      logger: Logger;
      /** Settlement's clock: a hold is judged against it. */
      now?: () => Date;
      /** The swap route's facts (null when no route is set): no refund goes to its pools, router or EntryPoint. */
      swap?: SwapFacts | null;
    },
  ) {}

  /** Where a refund of a transfer goes (refundRecipient), or null when its payer is not proven. */
  refundTo(row: PayerRow): string | null {
    try {
      return refundRecipient(row, this.deps.swap ?? null);
    } catch (err) {
      if (err instanceof AppError && err.code === ErrorCode.refundPayerUnknown) return null;
      throw err;
    }
  }

  /**
   * Where a refund of transfer `transferId` goes: the wallet that paid it (refundRecipient); 404
   * for an unknown transfer, refund-payer-unknown for a swap whose payer the chain did not prove.
   */
  async recipient(db: Knex | Knex.Transaction, transferId: number): Promise<string> {
    const row: PayerRow | undefined = await db('chain_transfers')
      .where({ id: transferId })
      .first('from_address', 'payer_address', 'paid_with');
    if (!row) throw new AppError(ErrorCode.attentionItemNotFound, `There is no transfer ${transferId} to the store wallet.`);
    return refundRecipient(row, this.deps.swap ?? null);
  }

  /**
   * Asks the chain about refund transaction `txHash` and checks it refunds `amountWei` to `to`
   * (see checkRefundReceipt). Throws the refusal (202 awaiting-confirmations while not deep enough);
   * returns the matching transfers (usually one).
   */
  async verify(txHash: string, to: string, amountWei: bigint): Promise<RefundTransfer[]> {
    const { chain, logger } = this.deps;
    const hash = lower(txHash);
    let facts;
    try {
      // One timeout for the calls together: a stalled RPC is answered chain-unavailable within it.
      facts = await chain.transactionFacts(hash);
    } catch (err) {
      const outage = unavailableCause(err);
      logger.warn(outage ? { reason: outage.message, txHash: hash } : { err, txHash: hash }, 'chain unavailable while verifying a refund');
      throw new AppError(ErrorCode.chainUnavailable, 'We cannot reach the chain right now to verify the refund. Try again in a moment.', {
        expose: true,
      });
    }
    const { chainId, tokenAddress, storeWallet } = chain.target;
    const check = checkRefundReceipt({
      ...facts,
      requiredConfirmations: this.deps.requiredConfirmations,
      chainId,
      token: tokenAddress,
      storeWallet,
      to,
      amountWei,
    });
    if (!check.ok) throw new AppError(check.code, check.message);
    return check.transfers;
  }

  /**
   * Before the store wallet sends a refund of `amountWei` from transfer `transferId`: refuses what
   * recording it would refuse (a transfer a reorganisation removed, more than is refundable), so
   * no money leaves for a refund the shop would not record, and holds the transfer for `holdMs`:
   * meanwhile a sign-in does not adopt it and no admin attaches it (settlement.ts), so money on its
   * way back never pays for an order. Recording the refund ends the hold; otherwise it lapses.
   */
  async prepare(trx: Knex.Transaction, input: { transferId: number; amountWei: bigint; holdMs?: number }): Promise<Date> {
    const { transferId, amountWei } = input;
    const now = this.deps.now?.() ?? new Date();
    const transfer = await lockTransfer(trx, transferId);
    refuseRemoved(transfer, 'Nothing was sent.');
    refundRecipient(transfer, this.deps.swap ?? null);
    const refundedBeforeWei = await refundedFromTransfer(trx, transferId);
    refuseAboveRefundable(transfer, refundedBeforeWei, amountWei, `Send at most that: nothing was sent for ${pog(amountWei)} POG.`);
    const until = new Date(now.getTime() + (input.holdMs ?? REFUND_HOLD_MS));
    await trx('chain_transfers').where({ id: transferId }).update({ refund_hold_until: until });
    return until;
  }

  /**
   * Records a verified refund of store transfer `transferId` in the caller's transaction (see the
   * file's comment). `transfers` are verify's answer for `amountWei`. Repeating the same refund for
   * the same transfer changes nothing (`created` false); the same refund for another transfer is
   * refused (refund-already-recorded), and so is one above what the transfer still has
   * (refund-exceeds-refundable).
   */
  async record(
    trx: Knex.Transaction,
    input: { transferId: number; transfers: readonly RefundTransfer[]; amountWei: bigint; session: string | null; now: Date },
  ): Promise<RecordedRefund> {
    const { transferId, amountWei, now } = input;
    const transfer = await lockTransfer(trx, transferId);
    refuseRemoved(transfer, 'This refund is not recorded.');
    const to = refundRecipient(transfer, this.deps.swap ?? null);
    const ours = input.transfers.filter((t) => t.to === to && t.value === amountWei);
    if (ours.length === 0) throw new Error('record() needs the refund transfers verify() found for this transfer');
    // A refund comes after the payment: an older transfer to the same address (a payout, an earlier refund) is not this one's.
    const candidates = ours.filter((t) => t.blockNumber >= Number(transfer.block_number));
    if (candidates.length === 0) {
      throw new AppError(
        ErrorCode.refundBeforePayment,
        `That transaction was mined in block ${ours[0]!.blockNumber}, before this payment (block ${transfer.block_number}), so it cannot be its refund. This refund is not recorded.`,
      );
    }

    const recorded = await refundsOfLogs(trx, {
      chainId: candidates[0]!.chainId,
      txHash: candidates[0]!.txHash,
      logIndexes: candidates.map((t) => t.logIndex),
    });
    const refundedBeforeWei = await refundedFromTransfer(trx, transferId);
    const mine = recorded.find((r) => r.transfer_id === transferId);
    if (mine) {
      const refundableBeforeWei = refundableOf(transfer, refundedBeforeWei);
      return { created: false, refundId: mine.id, refundableBeforeWei, refundedWei: refundedBeforeWei, order: null };
    }
    const free = candidates.find((t) => !recorded.some((r) => r.log_index === t.logIndex));
    if (!free) throw alreadyRecorded();

    refuseAboveRefundable(transfer, refundedBeforeWei, amountWei, `This refund of ${pog(amountWei)} POG is not recorded.`);
    const refundId = await insertRefund(trx, {
      transfer_id: transferId,
      order_id: transfer.order_id,
      chain_id: free.chainId,
      tx_hash: free.txHash,
      log_index: free.logIndex,
      block_number: free.blockNumber,
      to_address: free.to,
      amount_wei: amountWei.toString(),
      created_at: now,
      session_label: input.session,
    });
    // Taken meanwhile by a refund of another transfer (this transfer's row is locked, so not of this one).
    if (refundId === null) throw alreadyRecorded();

    // The merchant's systems hear of it (docs/webhooks.md), once per refund.
    await queueWebhookEvent(trx, 'payment.refund_recorded', `payment.refund_recorded:${refundId}`, now, { subject: String(refundId) });
    // The prepared refund has arrived: the transfer's hold ends.
    await trx('chain_transfers').where({ id: transferId }).update({ refund_hold_until: null });
    // A transfer that made no order never counts towards a checkout again once money went back.
    if (transfer.status !== 'matched' && transfer.status !== 'refunded') {
      await trx('chain_transfers')
        .where({ id: transferId })
        .update({ status: 'refunded' satisfies TransferStatus, status_before_refund: transfer.status, updated_at: now });
    }
    const orderChange = transfer.order_id ? await refundOrderIfFull(trx, transfer.order_id, now) : null;
    return {
      created: true,
      refundId,
      refundableBeforeWei: refundableOf(transfer, refundedBeforeWei),
      refundedWei: refundedBeforeWei + amountWei,
      order: orderChange && transfer.order_id ? { id: transfer.order_id, ...orderChange } : null,
    };
  }
}

/** What says who paid a transfer (chain_transfers). */
interface PayerRow {
  from_address: string;
  payer_address: string | null;
  paid_with: string | null;
}

/**
 * Where a refund of a transfer goes (pure): the wallet that paid it, else its sender. A transfer
 * through a swap whose payer the chain did not prove (a contract, a relay or an aggregator between
 * the shopper and the router), or one whose only known address is a pool, the router or the
 * EntryPoint, is refused: POGS sent there is lost.
 */
export function refundRecipient(row: PayerRow, swap: SwapFacts | null): string {
  const to = lower(row.payer_address ?? row.from_address);
  const contracts = swap ? [...swap.pools, swap.router, swap.entryPoint].map(lower) : [];
  if ((row.payer_address === null && row.paid_with === 'swap') || contracts.includes(to)) {
    throw new AppError(
      ErrorCode.refundPayerUnknown,
      `This payment came through a swap (from ${getAddress(row.from_address)}) and the chain does not prove which wallet paid it: the shop will not send POGS to a pool or a router. Refund it by hand to the address the shopper proves is theirs.`,
    );
  }
  return to;
}

interface LockedTransfer extends PayerRow {
  id: number;
  status: TransferStatus;
  intent_id: string | null;
  order_id: string | null;
  value_wei: string;
  chain_id: number;
  block_number: string | number;
}

/**
 * Locks the transfer a refund is recorded against. When it counts (or may count) towards a
 * checkout that has no order yet, that checkout is locked first, as settlement locks it before it
 * sums the checkout's transfers: a refund and the payment that would finish the checkout then
 * happen one after the other, never interleaved (else the order could count money that went back).
 */
async function lockTransfer(trx: Knex.Transaction, transferId: number): Promise<LockedTransfer> {
  let checkout: string | null = null;
  for (let attempt = 0; attempt < 3; attempt++) {
    const seen: { intent_id: string | null; status: TransferStatus } | undefined = await trx('chain_transfers')
      .where({ id: transferId })
      .first('intent_id', 'status');
    if (!seen) throw new AppError(ErrorCode.attentionItemNotFound, `There is no transfer ${transferId} to the store wallet.`);
    const counts = (t: { intent_id: string | null; status: TransferStatus }) => t.intent_id !== null && t.status !== 'matched';
    if (counts(seen) && seen.intent_id !== checkout) {
      await trx('checkout_intents').where({ id: seen.intent_id }).forUpdate().first('id');
      checkout = seen.intent_id;
    }
    const row: LockedTransfer = await trx('chain_transfers')
      .where({ id: transferId })
      .forUpdate()
      .first(
        'id',
        'status',
        'intent_id',
        'order_id',
        'from_address',
        'payer_address',
        'paid_with',
        'value_wei',
        'chain_id',
        'block_number',
      );
    // Adopted or attached between the two reads: lock its checkout too (rare; at most once more).
    if (!counts(row) || row.intent_id === checkout) return row;
  }
  throw new Error(`transfer ${transferId} kept changing its checkout while a refund was recorded`);
}

/** How long a prepared refund holds its transfer (the wallet's signing and the confirmations). */
const REFUND_HOLD_MS = 30 * 60_000;

function refuseRemoved(transfer: LockedTransfer, outcome: string): void {
  if (transfer.status !== 'removed') return;
  throw new AppError(
    ErrorCode.transferNotRefundable,
    `A chain reorganisation removed this payment: it is not on chain now, so the store never kept it and nothing can be refunded from it. ${outcome}`,
  );
}

/** What of the locked transfer can still be refunded, after `refundedBeforeWei` went back (transfer-status.ts). */
const refundableOf = (transfer: LockedTransfer, refundedBeforeWei: bigint) =>
  refundableWei({ status: transfer.status, valueWei: BigInt(transfer.value_wei) }, refundedBeforeWei);

function refuseAboveRefundable(transfer: LockedTransfer, refundedBeforeWei: bigint, amountWei: bigint, outcome: string): void {
  const refundable = refundableOf(transfer, refundedBeforeWei);
  if (amountWei <= refundable) return;
  throw new AppError(
    ErrorCode.refundExceedsRefundable,
    `Only ${pog(refundable)} POG of this payment can still be refunded (it carried ${pog(BigInt(transfer.value_wei))} POG, ${pog(refundedBeforeWei)} POG went back already). ${outcome}`,
  );
}

const alreadyRecorded = () =>
  new AppError(ErrorCode.refundAlreadyRecorded, 'That refund transaction is already recorded as the refund of another payment.');

/** What was refunded from a transfer so far, wei (the refunds are the orders module's). */
async function refundedFromTransfer(trx: Knex.Transaction, transferId: number): Promise<bigint> {
  return (await refundedWeiByTransfer(trx, [transferId])).get(transferId) ?? 0n;
}
