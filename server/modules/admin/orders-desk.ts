/**
 * The admin's orders view: every order with its status, amounts, payer, Shopify draft
 * state and hand-off trouble; one order's items, transfers, refunds and timeline; and "retry now"
 * for a failed hand-off. It reads what settlement, the hand-off, webhooks and the desk wrote, and
 * changes nothing itself except through the hand-off's own code (ShopifyHandoff.runOne).
 *
 * The Shopify draft state, from the order and its hand-off job (outbox, kind HANDOFF_JOB):
 *
 * | what the server has                                          | draftState  |
 * |--------------------------------------------------------------|-------------|
 * | a Shopify order id, or confirmed_at / shipped_at set          | `completed` |
 * | a Shopify draft order id                                      | `open`      |
 * | a hand-off job not done                                       | `pending`   |
 * | no job (held: paid after the stock was gone), or done without a draft (skipped) | `none` |
 *
 * `handoff` is the job as the admin needs it: null when there is none, and null when it is done
 * and no attempt ever failed (nothing to tell). A job that failed and then succeeded keeps its
 * last error (`done: true`), so the admin sees what happened.
 *
 * The timeline is built only from records the server already keeps, sorted by time:
 * paid (orders.paid_at), handoff-failed (the job's last failure: outbox.last_error_at and
 * last_error; earlier failures are counted, not kept), handed-off (outbox.done_at, when a draft
 * exists), confirmed (confirmed_at), shipped (shipped_at), refunded (each refunds row),
 * reorged (status_reason payment-reorged, at the order's updated_at), and the admin's audit rows
 * about the order or its transfers: resolved (payment-resolved) and attached (payment-attached).
 */
import { explorerUrlOf, iso, paidWithOfRow, pog, wei, type ExplorerUrl } from './desk-format';
import { orderStatusSchema, type OrderStatus } from '../../../common/api';
import { ErrorCode } from '../../../common/errors';
import { formatUnits, parseUnits } from '../../../common/money';
import type { AdminOrder, AdminOrderDetail, AdminOrdersPage, DraftState, RefundRecord, TimelineEvent } from '../../../common/payments-desk';
import type { Config } from '../../config';
import type { Db } from '../../db';
import { AppError } from '../../lib/errors';
import { orderReferenceOf, PAYMENT_REORGED, type ShopifyHandoff } from '../orders';
import { formatUsdReference, usdReference } from '../../../common/usd-reference';
import { handoffJobs, orderById, orderItems, ordersNewestFirst, type AdminOrderRecord, type HandoffJobRecord } from './desk/order-reads';
import { type TransferStatus } from '../payments';
import { transfersOfCheckout } from './desk/transfer-reads';
import { recordAudit } from './audit';
import { refundRecords } from './refund-records';

/** Orders on one page of the list. */
const PAGE_SIZE = 50;
/** What an order id, a wallet or a tx hash can start with; anything else finds no order. */
const ID_LIKE = /^[A-Za-z0-9]{1,80}$/;

export class OrdersDesk {
  private readonly now: () => Date;
  /** The explorer's page of a transaction. */
  private readonly explorerUrl: ExplorerUrl;

  constructor(
    private readonly db: Db,
    private readonly deps: {
      config: Pick<Config, 'mode' | 'publicLinks'>;
      /** The orders module's hand-off (absent without a chain: there are no orders to hand off). */
      handoff?: ShopifyHandoff;
      now?: () => Date;
    },
  ) {
    this.now = deps.now ?? (() => new Date());
    this.explorerUrl = explorerUrlOf(deps.config);
  }

  /** Every order, newest paid first, 50 a page: `before` is the previous page's `nextBefore`. */
  async list(query: { status?: string; q?: string; before?: string }): Promise<AdminOrdersPage> {
    const status = query.status === undefined ? undefined : parseStatus(query.status);
    const before = query.before === undefined ? undefined : decodeCursor(query.before);
    const term = query.q?.trim();
    if (term && !ID_LIKE.test(term)) return { orders: [], nextBefore: null };
    // Case-insensitive prefix; the term is letters and digits only, so it holds no LIKE wildcard.
    const prefix = term ? `${term.toLowerCase()}%` : undefined;
    const rows = await ordersNewestFirst(this.db, { limit: PAGE_SIZE + 1, status, prefix, before });
    const page = rows.slice(0, PAGE_SIZE);
    const jobs = await handoffJobs(
      this.db,
      page.map((r) => r.id),
    );
    const last = page.at(-1);
    return {
      orders: page.map((r) => this.summary(r, jobs.get(r.id))),
      nextBefore: rows.length > PAGE_SIZE && last ? encodeCursor(new Date(last.paid_at), last.id) : null,
    };
  }

  /** One order with its items, transfers, refunds and timeline; 404 order-not-found otherwise. */
  async get(id: string): Promise<AdminOrderDetail> {
    const row = ID_LIKE.test(id) ? await orderById(this.db, id) : undefined;
    if (!row) throw new AppError(ErrorCode.orderNotFound, `No order ${id}. Look it up in the orders list.`);
    const job = (await handoffJobs(this.db, [row.id])).get(row.id);
    const summary = this.summary(row, job);
    const items = await orderItems(this.db, row.id);
    const transfers = await transfersOfCheckout(this.db, row.intent_id);
    const refunds = await refundRecords(this.db, 'order_id', [row.id], this.explorerUrl);
    const transferIds = transfers.map((t) => String(t.id));
    const audit: Array<{ at: Date | string; action: string; target: string; changes: unknown }> = await this.db('admin_audit_log')
      .whereIn('target', [row.id, ...transferIds])
      .orderBy('id')
      .select('at', 'action', 'target', 'changes');
    return {
      ...summary,
      items: items.map((i) => ({ title: i.title, quantity: i.quantity, price: formatUnits(parseUnits(i.unit_price)) })),
      transfers: transfers.map((t) => ({
        transferId: String(t.id),
        txHash: t.tx_hash,
        amount: pog(wei(t.value_wei)),
        sender: t.from_address,
        paidWith: paidWithOfRow(t),
        at: iso(t.created_at),
        use: TRANSFER_USE[t.status] ?? 'paid',
      })),
      refunds,
      timeline: timeline(row, summary, job, refunds, audit),
    };
  }

  /**
   * "Retry now" for a failed hand-off: runs it at once through the hand-off's own code (which
   * claims the job, so two retries at once make one attempt and one draft order), audits the
   * retry, and answers the order as it is now (with the new error if Shopify failed again).
   * 409 handoff-not-retryable when it is done, never failed, or an attempt is running.
   */
  async retryHandoff(id: string, session: string): Promise<AdminOrderDetail> {
    const before = await this.get(id);
    const { handoff } = this.deps;
    const ok = handoff ? await handoff.runOne(before.id) : null;
    if (ok === null) throw new AppError(ErrorCode.handoffNotRetryable, await this.whyNotRetryable(before.id, !handoff));
    await recordAudit(this.db, {
      at: this.now(),
      action: 'handoff-retried',
      session,
      target: before.id,
      changes: [{ field: 'handoff', from: before.handoff?.lastError ?? null, to: ok ? 'handed off' : 'failed again' }],
    });
    return this.get(before.id);
  }

  private async whyNotRetryable(orderId: string, noHandoff: boolean): Promise<string> {
    if (noHandoff) return 'The Shopify hand-off does not run on this server (no chain is configured).';
    const job = (await handoffJobs(this.db, [orderId])).get(orderId);
    if (!job) return `Order ${orderId} has no Shopify hand-off (it was held or never handed off): there is nothing to retry.`;
    if (job.done_at) return `Order ${orderId} is already handed off to Shopify: there is nothing to retry.`;
    if (!job.last_error) return `The Shopify hand-off of order ${orderId} has not failed: it runs by itself shortly.`;
    return `The Shopify hand-off of order ${orderId} is running right now; look again in a moment.`;
  }

  private summary(r: AdminOrderRecord, job: HandoffJobRecord | undefined): AdminOrder {
    const reference = orderReferenceOf(r);
    return {
      id: r.id,
      status: r.status,
      total: pog(wei(r.total_wei)),
      amountPaid: pog(wei(r.amount_paid_wei)),
      refunded: pog(wei(r.refunded_wei)),
      payer: r.customer_wallet,
      paidAt: iso(r.paid_at),
      txHash: r.tx_hash,
      explorerUrl: this.explorerUrl(r.tx_hash),
      flags: { overpaid: r.overpaid, late: r.late, hold: r.hold_reason },
      usdAtPayment: reference && usdReference(wei(r.amount_paid_wei), reference.usdPerPogs),
      reference,
      draftState: draftStateOf(r, job),
      shopifyDraftOrderId: r.shopify_draft_order_id,
      shopifyOrderName: r.shopify_order_name,
      handoff:
        !job || (job.done_at && job.last_failed_attempt === 0)
          ? null
          : {
              attempts: job.attempts,
              lastError: job.last_error,
              nextAttemptAt: job.done_at ? null : iso(job.next_attempt_at),
              done: job.done_at !== null,
            },
    };
  }
}

function draftStateOf(r: AdminOrderRecord, job: HandoffJobRecord | undefined): DraftState {
  if (r.shopify_order_id || r.confirmed_at || r.shipped_at) return 'completed';
  if (r.shopify_draft_order_id) return 'open';
  if (job && !job.done_at) return 'pending';
  return 'none';
}

/** Events in time order; events at the same instant keep the order of the lifecycle. */
function timeline(
  r: AdminOrderRecord,
  order: AdminOrder,
  job: HandoffJobRecord | undefined,
  refunds: RefundRecord[],
  audit: Array<{ at: Date | string; action: string; target: string; changes: unknown }>,
): TimelineEvent[] {
  const events: TimelineEvent[] = [];
  const add = (at: Date | string | null, kind: TimelineEvent['kind'], text: string) => {
    if (at) events.push({ at: iso(at), kind, text });
  };
  const flags = [order.flags.overpaid && 'overpaid', order.flags.late && 'late', order.flags.hold && `on hold: ${order.flags.hold}`];
  const flagged = flags.filter(Boolean).join(', ');
  // The dollar reference at the payment's block, for the record (docs/price-reference.md).
  const dollars = order.reference && formatUsdReference(wei(r.amount_paid_wei), order.reference.usdPerPogs);
  const worth = dollars && order.reference ? `, ${dollars} at block ${order.reference.block}` : '';
  add(
    r.paid_at,
    'paid',
    `Paid ${order.amountPaid} POG${worth} of ${order.total} POG from ${r.customer_wallet}${flagged ? ` (${flagged})` : ''}`,
  );
  if (job?.last_error)
    add(job.last_error_at, 'handoff-failed', `Shopify hand-off attempt ${job.last_failed_attempt} failed: ${job.last_error}`);
  if (job?.done_at && r.shopify_draft_order_id)
    add(job.done_at, 'handed-off', `Shopify draft order ${r.shopify_draft_order_id.split('/').pop()} created`);
  add(r.confirmed_at, 'confirmed', `Shipping details given in Shopify${r.shopify_order_name ? ` (order ${r.shopify_order_name})` : ''}`);
  add(r.shipped_at, 'shipped', 'Shipped by Shopify');
  for (const refund of refunds) add(refund.at, 'refunded', `Refunded ${refund.amount} POG to ${refund.to}`);
  if (r.status_reason === PAYMENT_REORGED) add(r.updated_at, 'reorged', 'The payment left the chain in a reorganisation: the order failed');
  for (const a of audit) {
    if (a.action === 'payment-resolved') add(a.at, 'resolved', `Transfer ${a.target} resolved: ${resolutionNote(a.changes)}`);
    else if (a.action === 'payment-attached') add(a.at, 'attached', `Transfer ${a.target} attached by an admin`);
  }
  const rank = (k: TimelineEvent['kind']) => TIMELINE_ORDER.indexOf(k);
  return events
    .map((e, i) => ({ e, i }))
    .sort((a, b) => a.e.at.localeCompare(b.e.at) || rank(a.e.kind) - rank(b.e.kind) || a.i - b.i)
    .map(({ e }) => e);
}

/** What a transfer of the order's checkout became, by its chain_transfers status. */
const TRANSFER_USE: Partial<Record<TransferStatus, AdminOrderDetail['transfers'][number]['use']>> = {
  matched: 'paid',
  'extra-payment': 'extra-payment',
  refunded: 'refunded',
  removed: 'reorged',
};

const TIMELINE_ORDER: ReadonlyArray<TimelineEvent['kind']> = [
  'paid',
  'attached',
  'handoff-failed',
  'handed-off',
  'confirmed',
  'shipped',
  'refunded',
  'reorged',
  'resolved',
];

/** The note of a payment-resolved audit row (its `resolved` change). */
function resolutionNote(changes: unknown): string {
  const list = typeof changes === 'string' ? (JSON.parse(changes) as unknown) : changes;
  const resolved = Array.isArray(list) ? list.find((c) => c && typeof c === 'object' && c.field === 'resolved') : undefined;
  return typeof resolved?.to === 'string' ? resolved.to : '(no note)';
}

function parseStatus(value: string): OrderStatus {
  const parsed = orderStatusSchema.safeParse(value);
  if (!parsed.success)
    throw new AppError(ErrorCode.badRequest, `status must be one of ${orderStatusSchema.options.join(', ')} (got "${value.slice(0, 20)}")`);
  return parsed.data;
}

/** The cursor: where the previous page ended (paid time and id), opaque to the client. */
function encodeCursor(paidAt: Date, id: string): string {
  return Buffer.from(`${paidAt.toISOString()}|${id}`, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): { paidAt: Date; id: string } {
  const bad = () =>
    new AppError(
      ErrorCode.badRequest,
      'before must be the nextBefore of the previous page, as it was given (or leave it out for the first page)',
    );
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) throw bad();
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)\|([A-Za-z0-9]{1,40})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const paidAt = m ? new Date(m[1]!) : null;
  if (!m || !paidAt || Number.isNaN(paidAt.getTime()) || paidAt.toISOString() !== m[1]) throw bad();
  return { paidAt, id: m[2]! };
}
