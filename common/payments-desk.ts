/**
 * The admin's payments desk (issue 13), first slice: the transfers that need a person (the
 * "Needs attention" queue), marking one resolved with a note, and the accountant's CSV export.
 * Shared by the server (which validates every request with these schemas) and the client (which
 * types what it reads). Every route is behind the admin session (common/admin.ts).
 */
import { z } from 'zod';

/**
 * Why a transfer to the store wallet needs a person:
 * - `unmatched`: it identifies no checkout (not an exact amount, no proven sender);
 * - `underpaid`: it counts towards a checkout that still waits for the rest;
 * - `overpaid`: it made an order with an excess of a cent or more, or it paid an already paid checkout;
 * - `late`: it paid a checkout after its time (or finished one after an underpayment);
 * - `out-of-stock`: it made an order, on hold, after the stock was gone;
 * - `reorged`: a chain reorganisation removed it, or failed the order it paid.
 */
export const attentionKindSchema = z.enum(['unmatched', 'underpaid', 'overpaid', 'late', 'out-of-stock', 'reorged']);
export type AttentionKind = z.infer<typeof attentionKindSchema>;

export const attentionItemSchema = z.object({
  /** The transfer's id on the desk (the key of the resolve route). */
  transferId: z.string(),
  kind: attentionKindSchema,
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
  /** What was paid beyond the order's total (or the whole transfer, for an already paid checkout), POG decimal string; else null. */
  excess: z.string().nullable(),
  /** What the server noted when it judged the transfer. */
  note: z.string().nullable(),
  resolved: z.object({ at: z.string(), note: z.string() }).nullable(),
});
export type AttentionItem = z.infer<typeof attentionItemSchema>;

/** GET /api/admin/payments/attention?kind=&resolved= (query; resolved defaults to false). */
export const attentionQuerySchema = z.strictObject({
  kind: attentionKindSchema.optional(),
  resolved: z.enum(['true', 'false'], { error: 'resolved must be true or false' }).optional(),
});

/** The queue, newest first, and how many items are unresolved (all kinds: the admin header's count). */
export const attentionPageSchema = z.object({ items: z.array(attentionItemSchema), unresolved: z.number().int() });
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
] as const;
