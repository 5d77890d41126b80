/**
 * What settlement decides about one transfer (docs/payments.md §2–§4), as pure functions over what
 * settlement.ts read: the statuses to write, their notes, and the order to make. settlement.ts
 * reads, calls these and writes what they say, in one transaction.
 *
 * Two steps, because a checkout's stock is read (its variants locked) only once it is paid in
 * full: `decidePayment` says what the money does to the checkout it identifies (nothing, an
 * extra payment, underpaid, or paid in full); for a payment in full, `decideOrder` says what the order
 * is, given the checkout's stock. Also here: whether the admin may attach a transfer to a checkout
 * (`attachRefusal`, `notAttachable`).
 */
import { anyLimited, type StockFacts } from '../../../common/availability';
import { ErrorCode } from '../../../common/errors';
import { AppError } from '../../lib/errors';
import { OVERPAID_THRESHOLD_WEI, roundUpToCent } from './amount';
import type { IntentRow } from './checkout-record';
import { isTransferStatus, type TransferStatus } from './transfer-status';

/** What a transfer did; `sessionId` is the session of the checkout it was for. */
export type Settlement =
  | {
      kind: 'order';
      orderId: string;
      intentId: string;
      sessionId: string | null;
      created: boolean;
      /** Only when created: it received more than its total (an excess to refund). */
      overpaid?: boolean;
      /** Only when created: paid after its checkout had expired (or after a partial payment). */
      late?: boolean;
    }
  /** Counted towards the checkout, which still needs `dueWei`. */
  | { kind: 'underpaid'; intentId: string; sessionId: string | null; receivedWei: bigint; dueWei: bigint }
  /** A further payment to a checkout that was already paid (by another transfer): kept for a refund. */
  | { kind: 'extra-payment'; intentId: string; sessionId: string | null }
  /** Identifies no payable checkout: kept for the admin. */
  | { kind: 'unmatched' };

/** How a transfer identifies a checkout: its exact amount, the proven wallet of its session, or the admin's say. */
export type MatchedBy = 'amount' | 'proven-sender' | 'admin';

/** The first part of the note of a transfer an admin attached to a checkout. */
export const ATTACHED = 'attached by the admin';

/** The checkout a transfer identifies, as settlement read it (locked). */
export interface CheckoutFacts {
  id: string;
  sessionId: string | null;
  status: IntentRow['status'];
  totalWei: bigint;
  /** Until when its price held (after it, a payment is late). */
  expiresAt: Date;
  /** Until when it can be paid. */
  matchUntil: Date;
  /** Until when it claims its stock for a payment on its way, if it claimed it. */
  stockClaimedUntil: Date | null;
}

/** What settlement knows when a transfer is judged. */
export interface PaymentFacts {
  now: Date;
  /** How long a checkout stays payable after a partial payment. */
  latePaymentMs: number;
  /** What the transfer carried. */
  valueWei: bigint;
  /** The checkout the transfer identifies, and how; null when it identifies none. */
  match: { checkout: CheckoutFacts; by: MatchedBy } | null;
  /** What the matched checkout had received before this transfer (the transfers that count towards it). */
  receivedBeforeWei: bigint;
}

/** What to write on the transfer's row. */
export interface TransferMark {
  status: Extract<TransferStatus, 'matched' | 'unmatched' | 'underpaid' | 'extra-payment'>;
  intentId: string | null;
  note: string | null;
}

/** A payment that covers its checkout's total: the order follows (`decideOrder`) once the stock is read. */
export interface PaidInFull {
  kind: 'paid-in-full';
  checkout: CheckoutFacts;
  by: MatchedBy;
  /** Everything the checkout received, this transfer included. */
  receivedWei: bigint;
  /** It paid after its checkout's time, or after a partial payment. */
  late: boolean;
  /** The checkout claimed its stock when its payment was on the way: the stock is its own, not judged again. */
  claimed: boolean;
}

export type PaymentDecision =
  | { kind: 'unmatched'; transfer: TransferMark; settlement: Settlement }
  | { kind: 'extra-payment'; transfer: TransferMark; settlement: Settlement }
  | {
      kind: 'underpaid';
      transfer: TransferMark;
      /** The checkout becomes underpaid, payable until `matchUntil`. */
      checkout: { id: string; matchUntil: Date };
      /** The remainder's exact amount is issued from this base (the due, rounded up to the cent) plus a fresh suffix. */
      remainderBaseWei: bigint;
      settlement: Settlement & { kind: 'underpaid' };
    }
  | PaidInFull;

/** The checkout's stock at settlement: its lines (variants locked), and the first line that cannot be had now, if judged. */
export interface StockAtSettlement {
  lines: ReadonlyArray<Pick<StockFacts, 'available_stock' | 'inventory_quantity'> & { variant_id: string }>;
  /** Null when every line can be had (or the stock was claimed, so not judged again). */
  short: string | null;
}

export interface OrderDecision {
  /** The transfer that completed the payment; every underpaid transfer of the checkout is matched to the order too. */
  transfer: TransferMark & { status: 'matched' };
  /** What the order says beyond the checkout's own facts. */
  order: {
    amountPaidWei: bigint;
    overpaid: boolean;
    late: boolean;
    /** The line that was short: the order is held (nothing taken, nothing sent to Shopify). */
    outOfStock: string | null;
  };
  /** Held stock moved: the product list's version is bumped. */
  bumpCatalogue: boolean;
  /** The cart lines that were bought, removed from the session's cart (lines added since are kept); null without a session. */
  emptyCart: { sessionId: string; variantIds: string[] } | null;
  /** The answer, once the order has its id. */
  settlement: Omit<Settlement & { kind: 'order' }, 'orderId'>;
}

const UNMATCHED_NOTE = 'no payable checkout has this exact amount, and the sender is no proven wallet of one';
const EXTRA_PAYMENT_NOTE = 'a further payment for an already paid checkout (refund it)';
const HOW: Record<MatchedBy, string | null> = {
  amount: null,
  'proven-sender': 'matched by the proven sender (not the exact amount)',
  admin: ATTACHED,
};
const notes = (parts: Array<string | null>): string | null => parts.filter(Boolean).join('; ') || null;

/** What a transfer does to the checkout it identifies, before any stock is looked at. */
export function decidePayment(facts: PaymentFacts): PaymentDecision {
  const { match, now } = facts;
  if (!match) {
    return {
      kind: 'unmatched',
      transfer: { status: 'unmatched', intentId: null, note: UNMATCHED_NOTE },
      settlement: { kind: 'unmatched' },
    };
  }
  const { checkout, by } = match;
  if (checkout.status === 'paid') {
    return {
      kind: 'extra-payment',
      transfer: { status: 'extra-payment', intentId: checkout.id, note: EXTRA_PAYMENT_NOTE },
      settlement: { kind: 'extra-payment', intentId: checkout.id, sessionId: checkout.sessionId },
    };
  }
  const receivedWei = facts.receivedBeforeWei + facts.valueWei;
  if (receivedWei < checkout.totalWei) {
    const dueWei = checkout.totalWei - receivedWei;
    return {
      kind: 'underpaid',
      transfer: {
        status: 'underpaid',
        intentId: checkout.id,
        note: notes([HOW[by], `received ${receivedWei} of ${checkout.totalWei} wei`]),
      },
      checkout: { id: checkout.id, matchUntil: new Date(Math.max(checkout.matchUntil.getTime(), now.getTime() + facts.latePaymentMs)) },
      // The remainder gets its own exact amount, so the watcher alone can finish the order.
      remainderBaseWei: roundUpToCent(dueWei),
      settlement: { kind: 'underpaid', intentId: checkout.id, sessionId: checkout.sessionId, receivedWei, dueWei },
    };
  }
  return {
    kind: 'paid-in-full',
    checkout,
    by,
    receivedWei,
    late: checkout.status !== 'open' || checkout.expiresAt.getTime() <= now.getTime(),
    claimed: checkout.stockClaimedUntil !== null && checkout.stockClaimedUntil.getTime() > now.getTime(),
  };
}

/**
 * The order of a payment in full. The stock is the checkout's if it claimed it; otherwise it took
 * what was left, and when that was not enough the order is held for the admin (refund or restock)
 * rather than sold twice.
 */
export function decideOrder(paid: PaidInFull, stock: StockAtSettlement): OrderDecision {
  const { checkout, receivedWei, late, claimed } = paid;
  const short = claimed ? null : stock.short;
  const excessWei = receivedWei - checkout.totalWei;
  // The suffix that identified the payment is not an overpayment.
  const overpaid = excessWei >= OVERPAID_THRESHOLD_WEI;
  return {
    transfer: {
      status: 'matched',
      intentId: checkout.id,
      note: notes([HOW[paid.by], overpaid ? `overpaid by ${excessWei} wei` : null, short ? 'paid after the stock was gone' : null]),
    },
    order: { amountPaidWei: receivedWei, overpaid, late, outOfStock: short },
    // A claim became an order, or stock was sold. Lines without a known limit show no count, so an
    // order of only those changes nothing there (and such orders need not queue on the version row).
    bumpCatalogue: claimed || anyLimited(stock.lines),
    emptyCart: checkout.sessionId ? { sessionId: checkout.sessionId, variantIds: stock.lines.map((l) => l.variant_id) } : null,
    settlement: { kind: 'order', intentId: checkout.id, sessionId: checkout.sessionId, created: true, overpaid, late },
  };
}

/** The admin prepared a refund of it that may be on its way: it must not pay for anything meanwhile. */
export const onRefundHold = (row: { refund_hold_until: Date | null }, now: Date) =>
  row.refund_hold_until !== null && new Date(row.refund_hold_until) > now;

/** Why a transfer that is not unmatched cannot be attached to a checkout (409 transfer-not-attachable). */
export function notAttachable(row: { id: number; status: string; intent_id: string | null; order_id: string | null }): AppError {
  const why: Partial<Record<TransferStatus, string>> = {
    matched: `it already made order ${row.order_id}`,
    underpaid: `it already counts towards checkout ${row.intent_id}, which waits for the rest`,
    'extra-payment': `it already counts towards checkout ${row.intent_id}, which was already paid (refund it instead)`,
    refunded: 'its money went back to the sender (refunded)',
    removed: 'a chain reorganisation removed it: it is not on chain now',
  };
  return new AppError(
    ErrorCode.transferNotAttachable,
    `Transfer ${row.id} cannot be attached: ${(isTransferStatus(row.status) && why[row.status]) || `it is ${row.status}`}. Only an unmatched transfer can be attached to a checkout.`,
  );
}

/**
 * Why the admin cannot attach this unmatched transfer to this checkout (a refund of it may be on
 * its way; the checkout is paid, for another chain, token or store wallet, or was opened after the
 * transfer was seen), or null when it can.
 */
export function attachRefusal(
  transfer: { id: number; chain_id: number; token_address: string; to_address: string; created_at: Date; refund_hold_until: Date | null },
  checkout: { id: string; status: string; chain_id: number; token_address: string; store_wallet: string; created_at: Date },
  now: Date,
): AppError | null {
  if (onRefundHold(transfer, now)) {
    return new AppError(
      ErrorCode.transferNotAttachable,
      `Transfer ${transfer.id} cannot be attached: a refund of it was prepared and may be on its way back to the sender (until ${new Date(transfer.refund_hold_until!).toISOString()}). Record that refund, or attach it after then.`,
    );
  }
  const refuse = (why: string) => new AppError(ErrorCode.checkoutNotAttachable, `Checkout ${checkout.id} ${why}.`);
  if (checkout.status === 'paid') return refuse('is already paid: this transfer would only be an excess (refund it instead)');
  if (
    checkout.chain_id !== transfer.chain_id ||
    checkout.token_address !== transfer.token_address ||
    checkout.store_wallet !== transfer.to_address
  )
    return refuse('was for another chain, token or store wallet than this transfer');
  if (new Date(checkout.created_at).getTime() > new Date(transfer.created_at).getTime())
    return refuse('was opened after this transfer was seen, so the transfer cannot have been for it');
  return null;
}
