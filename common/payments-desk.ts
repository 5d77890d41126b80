/**
 * The admin's payments desk, first slice: the transfers that need a person (the "Needs attention"
 * queue), marking one resolved with a note, and the accountant's CSV export. Shared by the server
 * (which validates every request with these schemas) and the client (which types what it reads).
 * Every route is behind the admin session (common/admin.ts).
 */
import { z } from 'zod';
import { paidWithSchema } from './swap-pay';

/**
 * Why a transfer to the store wallet needs a person:
 * - `unmatched`: it identifies no checkout (not an exact amount, no proven sender);
 * - `underpaid`: it counts towards a checkout that still waits for the rest;
 * - `overpaid`: money beyond what was owed: it made an order with an excess of a cent or more, or it
 *   is an extra payment (a further payment to a checkout that was already paid: all of it excess);
 * - `late`: it paid a checkout after its time (or finished one after an underpayment);
 * - `out-of-stock`: it made an order, on hold, after the stock was gone;
 * - `reorged`: a chain reorganisation removed it, or failed the order it paid.
 */
export const attentionKindSchema = z.enum(['unmatched', 'underpaid', 'overpaid', 'late', 'out-of-stock', 'reorged']);
export type AttentionKind = z.infer<typeof attentionKindSchema>;

const txHash = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'a transaction hash is 0x followed by 64 hexadecimal characters');
/** A positive POG amount, decimal text with at most 18 decimals ("12.5", "0.000000000000000001"). */
const pogAmount = z
  .string({ error: 'send amount as a decimal string of POG, e.g. "12.50"' })
  .regex(/^(0|[1-9]\d{0,20})(\.\d{1,18})?$/, 'amount must be a number of POG with at most 18 decimals, e.g. "12.50"')
  .refine((a) => /[1-9]/.test(a), 'amount must be more than 0');

/** A refund the store wallet sent back for a transfer, verified on chain. */
export const refundRecordSchema = z.object({
  id: z.string(),
  transferId: z.string(),
  /** The order the refunded transfer paid (towards), if any. */
  orderId: z.string().nullable(),
  /** Lower-case address it went to (always the wallet that paid the transfer). */
  to: z.string(),
  /** POG, exact decimal string (at least 2 decimals). */
  amount: z.string(),
  amountWei: z.string(),
  txHash: z.string(),
  explorerUrl: z.string().nullable(),
  at: z.string(),
  /** Label of the admin session that recorded it. */
  by: z.string().nullable(),
});
export type RefundRecord = z.infer<typeof refundRecordSchema>;

/**
 * An item's kind: why it needs attention, or `paid` for a plain payment of an order, which never
 * needs any (it is never in the queue) but can be looked up and refunded from the orders view.
 */
export const itemKindSchema = z.enum([...attentionKindSchema.options, 'paid']);

export const attentionItemSchema = z.object({
  /** The transfer's id on the desk (the key of the resolve route). */
  transferId: z.string(),
  kind: itemKindSchema,
  /** Lower-case address that sent it. */
  sender: z.string(),
  /** POG, exact decimal string (all 18 decimals when needed, at least 2). */
  amount: z.string(),
  amountWei: z.string(),
  txHash: z.string(),
  logIndex: z.number().int(),
  blockNumber: z.number().int(),
  /** ISO time the shop first recorded it. */
  at: z.string(),
  /** How deep it is now; absent when the chain could not be asked cheaply. */
  confirmations: z.number().int().optional(),
  /** The explorer's page of the transaction; null on the local demo chain (no explorer knows it). */
  explorerUrl: z.string().nullable(),
  /** The order it made or helped pay, if any. */
  orderId: z.string().nullable(),
  /** Underpaid: what the checkout still needs, POG decimal string; else null. */
  due: z.string().nullable(),
  /** What was paid beyond the order's total (or the whole transfer, for an extra payment), POG decimal string; else null. */
  excess: z.string().nullable(),
  /** What the server noted when it judged the transfer. */
  note: z.string().nullable(),
  resolved: z.object({ at: z.string(), note: z.string() }).nullable(),
  /** What may still be refunded from this transfer: its amount minus what was refunded, POG decimal string. */
  refundable: z.string(),
  refundableWei: z.string(),
  /** Refunds recorded against this transfer, oldest first. */
  refunds: z.array(refundRecordSchema),
  /** How it was paid and who paid (a swap's POGS comes from a pool); null while the shop has not looked yet. */
  paidWith: paidWithSchema.nullable(),
  /**
   * The address the store wallet must refund to, checksummed for the wallet: the wallet that paid
   * (the sender of a plain transfer, the payer the chain proved for a swap). Null when a swap's
   * payer is not proven: the shop will not refund a pool or a router (refund-payer-unknown).
   */
  refundTo: z.string().nullable(),
});
export type AttentionItem = z.infer<typeof attentionItemSchema>;

/**
 * GET /api/admin/payments/:transferId: one transfer to the store wallet as an item, whatever it is
 * (in the queue, resolved, or a plain payment: kind `paid`); 404 attention-item-not-found.
 * POST …/refund takes any of them; resolve only one that needs attention.
 */

/** Items on one page of the queue. */
export const ATTENTION_PAGE_SIZE = 50;

/** GET /api/admin/payments/attention?kind=&resolved=&before= (query; resolved defaults to false). */
export const attentionQuerySchema = z.strictObject({
  kind: attentionKindSchema.optional(),
  resolved: z.enum(['true', 'false'], { error: 'resolved must be true or false' }).optional(),
  /** Cursor: the `nextBefore` of the previous page. */
  before: z
    .string()
    .regex(/^[1-9]\d{0,9}$/, 'before must be the nextBefore of the previous page, as it was given (or leave it out for the first page)')
    .optional(),
});

/**
 * A page of the queue, newest first (ATTENTION_PAGE_SIZE items; `nextBefore` asks for the next,
 * null on the last); `counts`: the items of each kind in this tab (open, or the history), all
 * pages; `unresolved`: on the open tab, its items of every kind (the admin header's count), null
 * on the history.
 */
export const attentionPageSchema = z.object({
  items: z.array(attentionItemSchema),
  nextBefore: z.string().nullable(),
  counts: z.record(attentionKindSchema, z.number().int()),
  unresolved: z.number().int().nullable(),
});
export type AttentionPage = z.infer<typeof attentionPageSchema>;

export const RESOLVE_NOTE_MAX = 500;

/** POST /api/admin/payments/:transferId/resolve. Answered with the item as it is now. */
export const resolveAttentionSchema = z.strictObject({
  note: z
    .string({ error: 'send note as a string' })
    .trim()
    .min(1, 'write a note saying how it was resolved (e.g. "refunded off-shop")')
    .max(RESOLVE_NOTE_MAX, `the note must be at most ${RESOLVE_NOTE_MAX} characters`),
});

const isoDate = z.iso.date({ error: 'use an ISO date, YYYY-MM-DD' });

/** GET /api/admin/payments/export.csv?from=&to= (inclusive ISO dates, UTC, at most a year apart). */
export const paymentsExportQuerySchema = z
  .strictObject({ from: isoDate, to: isoDate })
  // Zod runs these even when a date is malformed (that has its own message): they judge only two dates.
  .refine((q) => !validDays(q) || q.to >= q.from, 'to must be the same day as from or later')
  .refine((q) => !validDays(q) || q.to <= oneYearAfter(q.from), 'from and to must be at most one year apart');

const validDays = (q: { from?: unknown; to?: unknown }) => isoDate.safeParse(q.from).success && isoDate.safeParse(q.to).success;

/** The same day a year later (29 February → 1 March), YYYY-MM-DD. */
function oneYearAfter(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCFullYear(d.getUTCFullYear() + 1);
  return d.toISOString().slice(0, 10);
}

/** The export's columns, in this order, always. */
export const PAYMENTS_EXPORT_COLUMNS = [
  'date',
  'order_id',
  'status',
  'tx_hash',
  'sender',
  'amount_paid',
  'amount_refunded',
  'shopify_order_name',
  /** An order's amount paid in dollars at its payment's block (docs/price-reference.md); empty without a reference. */
  'usd_at_payment',
] as const;

/**
 * POST /api/admin/payments/:transferId/refund. The admin's store wallet has already sent
 * `transfer(sender, amount)` of the POG token; the server verifies that transaction on chain (the
 * token, from the store wallet, to the sender, exactly `amount`, mined, enough confirmations) and
 * records it, never above what is refundable. Answered with the item as it is now (202
 * `awaiting-confirmations` while it is not deep enough: ask again). Repeating it is safe.
 * A refund that brings the transfer's refundable to 0, or refunds all of an overpaid item's excess,
 * also resolves the item (note "Refunded {amount} POG").
 */
export const recordRefundSchema = z.strictObject({ transactionHash: txHash, amount: pogAmount });

/**
 * POST /api/admin/payments/:transferId/prepare-refund, just before the store wallet sends a refund
 * of `amount`: refused as the refund itself would be (`transfer-not-refundable`,
 * `refund-exceeds-refundable`), so no money leaves for a refund the shop would not record; else the
 * transfer is held for 30 minutes (no sign-in adopts it, no admin attaches it: money on its way back
 * never pays for an order) and the item is answered. Recording the refund ends the hold.
 */
export const prepareRefundSchema = z.strictObject({ amount: pogAmount });
export type RecordRefundRequest = z.infer<typeof recordRefundSchema>;

// ---------------------------------------------------------------------------------------------
// Attaching a transfer to the checkout it evidently belongs to.

/** Why a checkout is offered as a candidate for a transfer, in the order they rank it. */
export const candidateReasonSchema = z.enum([
  /** The checkout's session signed in (SIWE) as the transfer's sender. */
  'same-sender',
  /** Its browser reported this transaction's hash first, before the shop saw the transfer on chain. */
  'reported-hash',
  /** The transfer is within 10% of what the checkout still needs. */
  'close-amount',
  /** The checkout was opened within an hour before the transfer was seen. */
  'same-time',
]);
export type CandidateReason = z.infer<typeof candidateReasonSchema>;

export const attachCandidateSchema = z.object({
  checkoutId: z.string(),
  /** The checkout's state: open, underpaid or expired (paid ones are never candidates). */
  status: z.string(),
  /** The checkout's total and what it still needs, POG decimal strings. */
  total: z.string(),
  due: z.string(),
  createdAt: z.string(),
  /** The wallet its session proved by a signature, if any (lower case). */
  provenWallet: z.string().nullable(),
  items: z.array(z.object({ title: z.string(), quantity: z.number().int() })),
  reasons: z.array(candidateReasonSchema),
  /** When its browser reported this transaction's hash (first or not, before or after the shop saw it), if it did. */
  hashReportedAt: z.string().nullable(),
  /** The transfer minus what the checkout still needs, a signed POG decimal string ("0.00": exact). */
  difference: z.string(),
  /**
   * Other candidates from the same source (IP or IPv6 /64, or browser session). Each source's best
   * checkout is ranked before any source's second, so a source's others come later in the list.
   */
  sameSource: z.number().int(),
  /**
   * Opened after the transfer happened, as far as the shop can tell (after the first report of its
   * hash, or after the shop first saw it): ranked below every checkout opened before it.
   */
  openedAfterTransfer: z.boolean(),
});
export type AttachCandidate = z.infer<typeof attachCandidateSchema>;

/** Candidates a page at most. */
export const ATTACH_PAGE_MAX = 50;

/**
 * GET /api/admin/payments/:transferId/candidates?q=&limit=&cursor=. `q` searches by the form it
 * has: a wallet address (0x and 40 hex: checkouts whose session proved it), an amount of POG
 * ("76.5": checkouts whose total, payable amount or due is exactly that) or a checkout id (at least
 * 4 of its first characters). `cursor` is the `nextCursor` of the previous page, for the same `q`.
 */
export const attachCandidatesQuerySchema = z.strictObject({
  q: z.string().trim().max(100, 'q must be at most 100 characters').optional(),
  limit: z.coerce
    .number({ error: `limit must be a whole number from 1 to ${ATTACH_PAGE_MAX}` })
    .int(`limit must be a whole number from 1 to ${ATTACH_PAGE_MAX}`)
    .min(1, `limit must be a whole number from 1 to ${ATTACH_PAGE_MAX}`)
    .max(ATTACH_PAGE_MAX, `limit must be a whole number from 1 to ${ATTACH_PAGE_MAX}`)
    .optional(),
  cursor: z.string().max(300, 'cursor must be the nextCursor of the previous page').optional(),
});
export type AttachCandidatesQuery = z.infer<typeof attachCandidatesQuerySchema>;

/**
 * A page of the checkouts a transfer may be for, best first by evidence a stranger cannot fake (a
 * proven sender, then the first report of the hash, then opened before the transfer, then each
 * source's best before any source's second, then the closest amount, then the latest before the
 * transfer). Every candidate is on some page: `nextCursor` is null on the last. `matching` is how
 * many candidates (for `q`) there are in all.
 */
export const attachCandidatesSchema = z.object({
  candidates: z.array(attachCandidateSchema),
  nextCursor: z.string().nullable(),
  matching: z.number().int(),
});
export type AttachCandidates = z.infer<typeof attachCandidatesSchema>;

/**
 * POST /api/admin/payments/:transferId/attach. Applies the transfer to that checkout through the
 * same settlement code as a payment (an order when it now covers the total, else underpaid with a
 * remainder). Repeating it, or two admins at once, makes at most one order. Answered with
 * `attachResultSchema`.
 */
export const attachTransferSchema = z.strictObject({ checkoutId: z.uuid({ error: 'checkoutId must be a checkout id (a UUID)' }) });

/**
 * The answer of an attach: the desk's item as it is now (underpaid, late, overpaid, out of stock),
 * or null when the transfer needs nobody any more (it made a plain order); and the order it made
 * or helped pay, null while its checkout waits for the rest.
 */
export const attachResultSchema = z.object({ item: attentionItemSchema.nullable(), orderId: z.string().nullable() });
export type AttachResult = z.infer<typeof attachResultSchema>;

// ---------------------------------------------------------------------------------------------
// Orders, as the admin sees them.

/** Where the order's Shopify draft order stands. */
export const draftStateSchema = z.enum([
  /** The hand-off has not created it yet (queued, or retrying after an error: see `handoff`). */
  'pending',
  /** The draft order exists; the shopper has not given shipping details yet. */
  'open',
  /** The shopper completed it: Shopify has an order (`shopifyOrderName`). */
  'completed',
  /** The order was never handed off (refunded or failed before it was). */
  'none',
]);
export type DraftState = z.infer<typeof draftStateSchema>;

export const adminOrderSchema = z.object({
  id: z.string(),
  status: z.string(),
  total: z.string(),
  amountPaid: z.string(),
  refunded: z.string(),
  /** The wallet that paid (lower case). */
  payer: z.string(),
  paidAt: z.string(),
  txHash: z.string(),
  explorerUrl: z.string().nullable(),
  flags: z.object({ overpaid: z.boolean(), late: z.boolean(), hold: z.string().nullable() }),
  /**
   * What was paid, in dollars at the payment's block ("12.40", common/usd-reference.ts), with the
   * reference it was worked out from; null when the order kept none. For the record only.
   */
  usdAtPayment: z.string().nullable(),
  reference: z.object({ usdPerPogs: z.string(), block: z.number().int(), source: z.string() }).nullable(),
  draftState: draftStateSchema,
  shopifyDraftOrderId: z.string().nullable(),
  shopifyOrderName: z.string().nullable(),
  /** The hand-off job: null once done without trouble or when there is none. */
  handoff: z
    .object({ attempts: z.number().int(), lastError: z.string().nullable(), nextAttemptAt: z.string().nullable(), done: z.boolean() })
    .nullable(),
});
export type AdminOrder = z.infer<typeof adminOrderSchema>;

/** GET /api/admin/orders?status=&q=&before= (q: order id, payer or tx hash prefix; newest first, 50 a page). */
export const adminOrdersQuerySchema = z.strictObject({
  status: z.string().max(20).optional(),
  q: z.string().trim().max(80).optional(),
  /** Cursor: the `nextBefore` of the previous page. */
  before: z.string().max(200).optional(),
});
export const adminOrdersPageSchema = z.object({ orders: z.array(adminOrderSchema), nextBefore: z.string().nullable() });
export type AdminOrdersPage = z.infer<typeof adminOrdersPageSchema>;

export const timelineEventSchema = z.object({
  at: z.string(),
  kind: z.enum(['paid', 'handoff-failed', 'handed-off', 'confirmed', 'shipped', 'refunded', 'reorged', 'resolved', 'attached']),
  /** One line a person reads ("Shopify draft order #D12 created", "Refunded 10.00 POG"). */
  text: z.string(),
});
export type TimelineEvent = z.infer<typeof timelineEventSchema>;

/** GET /api/admin/orders/:id (and the answer of POST /api/admin/orders/:id/retry-handoff). */
export const adminOrderDetailSchema = adminOrderSchema.extend({
  items: z.array(z.object({ title: z.string(), quantity: z.number().int(), price: z.string() })),
  /** The transfers that paid it (transferId keys the desk's routes). */
  transfers: z.array(
    z.object({
      transferId: z.string(),
      txHash: z.string(),
      amount: z.string(),
      sender: z.string(),
      /** How it was paid and who paid; null while the shop has not looked yet. */
      paidWith: paidWithSchema.nullable(),
      at: z.string(),
      /**
       * What became of it: `paid` (it counts towards the order), `extra-payment` (a further payment
       * after the order was paid: all of it an excess to refund), `refunded` (its money went back
       * before the order was made; it never counted), `reorged` (a chain reorganisation removed it).
       */
      use: z.enum(['paid', 'extra-payment', 'refunded', 'reorged']),
    }),
  ),
  refunds: z.array(refundRecordSchema),
  timeline: z.array(timelineEventSchema),
});
export type AdminOrderDetail = z.infer<typeof adminOrderDetailSchema>;
