/**
 * The Shopify hand-off (docs/payments.md §6): for each paid order, the outbox job written with
 * it creates a Shopify draft order (the items at a 100% discount, $0 shipping, tax exempt, our
 * order id and the transaction in note, tags and attributes) and stores its invoice URL, the page
 * where the shopper gives the shipping address. Shopify being down only delays the link: the job
 * is retried with back-off, and before every retry the draft is looked up by its tag, so a create
 * whose answer was lost is never repeated. A slower poll catches webhooks that never arrived.
 */
import type { Db } from '../../db';
import { periodicJob, type Job } from '../../lib/jobs';
import type { Logger } from '../../lib/logger';
import type { Outages } from '../../lib/outages';
import {
  DRAFT_BY_TAG_QUERY,
  DRAFT_CREATE_MUTATION,
  DRAFT_STATUS_QUERY,
  type DraftByTagResult,
  type DraftCreateResult,
  type DraftNode,
  type DraftStatusResult,
  type ShopifyGraphql,
} from '../../shopify';
import { formatUnits } from '../../../common/money';
import { HANDOFF_JOB } from './create-order';
import { applyOrderEvent } from './events';
import { claimOutboxJob, failOutboxJob, finishOutboxJob, runDueOutboxJobs, type OutboxJob } from './outbox';
import type { OrderRow } from './service';

export const orderTag = (orderId: string) => `pogs-order-${orderId}`;

/** What a hand-off job notes when it finished without Shopify: the order was refunded first. */
const NOT_HANDED_OFF_REFUNDED = 'Not handed off: the order was refunded before its hand-off ran.';

export class ShopifyHandoff implements Job {
  readonly name = 'Shopify hand-off';
  private readonly loop: Job;

  constructor(
    private readonly deps: {
      db: Db;
      shopify: ShopifyGraphql;
      logger: Logger;
      /** Where the outages its passes meet are reported, once each for the process. */
      outages?: Outages;
      intervalMs?: number;
      now?: () => Date;
    },
  ) {
    this.loop = periodicJob({
      name: 'Shopify hand-off pass',
      everyMs: deps.intervalMs ?? 1000,
      logger: deps.logger,
      outages: deps.outages,
      run: () => this.runDue(),
    });
  }

  private now() {
    return this.deps.now?.() ?? new Date();
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Runs every due job once; answers how many succeeded. */
  runDue(limit = 20): Promise<number> {
    return runDueOutboxJobs(
      () => this.claim(),
      (job) => this.run(job),
      limit,
    );
  }

  /**
   * The admin's "retry now": runs the order's hand-off job at once if its last attempt failed and
   * no attempt is in flight (it skips the back-off, never a running attempt's lease), through the
   * same claim and run as every job, so two retries at once make one attempt. Answers whether it
   * succeeded, or null when there was nothing to run (done, never failed, or running now).
   */
  async runOne(orderId: string): Promise<boolean | null> {
    const job = await this.claim(orderId);
    return job ? this.run(job) : null;
  }

  /**
   * Claims one due job (FOR UPDATE SKIP LOCKED + a lease), so two servers never run the same job
   * at once; with `orderId`, that order's job if it failed and is not running (see runOne).
   */
  private claim(orderId?: string): Promise<OutboxJob | null> {
    return claimOutboxJob(this.deps.db, { kinds: [HANDOFF_JOB], now: this.now(), orderId });
  }

  private async run(job: OutboxJob): Promise<boolean> {
    const { db, logger } = this.deps;
    try {
      const order: OrderRow | undefined = await db('orders').where({ id: job.order_id }).first();
      if (!order) throw new Error(`order ${job.order_id} is gone`);
      if (order.status === 'refunded') {
        // Refunded before it was handed off: nothing to ship, so Shopify never hears of it.
        await finishOutboxJob(db, job.id, this.now(), NOT_HANDED_OFF_REFUNDED);
        logger.info({ orderId: order.id }, 'order refunded before its hand-off; no Shopify draft order made');
        return true;
      }
      const draft = (await this.findDraft(order.id)) ?? (await this.createDraft(order));
      await db('orders')
        .where({ id: order.id })
        .update({ shopify_draft_order_id: draft.id, shopify_invoice_url: draft.invoiceUrl, updated_at: this.now() });
      // An earlier failure (last_error, last_error_at) stays: the admin's orders view shows it.
      await finishOutboxJob(db, job.id, this.now());
      logger.info({ orderId: order.id, draft: draft.name }, 'Shopify draft order ready for shipping details');
      return true;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const delay = await failOutboxJob(db, job, message, this.now());
      logger.warn({ orderId: job.order_id, attempts: job.attempts, retryInMs: delay, err: message }, 'Shopify hand-off failed; will retry');
      return false;
    }
  }

  private async findDraft(orderId: string): Promise<DraftNode | null> {
    const { data } = await this.deps.shopify.query<DraftByTagResult>(DRAFT_BY_TAG_QUERY, {
      query: `tag:${orderTag(orderId)}`,
    });
    return data.draftOrders.nodes[0] ?? null;
  }

  private async createDraft(order: OrderRow): Promise<DraftNode> {
    const items: Array<{ variant_id: string; quantity: number }> = await this.deps
      .db('order_items')
      .where({ order_id: order.id })
      .orderBy('id');
    const paid = formatUnits(BigInt(order.amount_paid_wei), 18, 2);
    const input = {
      lineItems: items.map((i) => ({ variantId: `gid://shopify/ProductVariant/${i.variant_id}`, quantity: i.quantity })),
      appliedDiscount: {
        valueType: 'PERCENTAGE',
        value: 100,
        title: 'Paid in $POGS',
        description: `Paid on Base, transaction ${order.tx_hash}`,
      },
      shippingLine: { title: 'Shipping (paid in $POGS)', priceWithCurrency: { amount: '0.00', currencyCode: 'USD' } },
      taxExempt: true,
      note: `POGS Shop order ${order.id}: paid ${paid} POG on Base (chain ${order.chain_id}) in transaction ${order.tx_hash} from ${order.customer_wallet}.`,
      tags: ['pogs-shop', orderTag(order.id)],
      customAttributes: [
        { key: 'pogs_order_id', value: order.id },
        { key: 'chain_tx', value: order.tx_hash },
        { key: 'customer_wallet', value: order.customer_wallet },
      ],
      sourceName: 'pogs-shop',
    };
    const { data } = await this.deps.shopify.query<DraftCreateResult>(DRAFT_CREATE_MUTATION, { input }, { idempotent: false });
    const { draftOrder, userErrors } = data.draftOrderCreate;
    if (!draftOrder)
      throw new Error(
        `Shopify refused the draft order: ${userErrors.map((e) => `${(e.field ?? []).join('.')} ${e.message}`.trim()).join('; ')}`,
      );
    return draftOrder;
  }

  /** Catches up on webhooks that never came: asks Shopify about open hand-offs. */
  async reconcile(limit = 50): Promise<number> {
    const rows: Array<{ id: string; shopify_draft_order_id: string }> = await this.deps
      .db('orders')
      .whereIn('status', ['paid', 'confirmed'])
      .whereNotNull('shopify_draft_order_id')
      .orderBy('updated_at')
      .limit(limit)
      .select('id', 'shopify_draft_order_id');
    let changed = 0;
    for (const row of rows) {
      const { data } = await this.deps.shopify.query<DraftStatusResult>(DRAFT_STATUS_QUERY, { id: row.shopify_draft_order_id });
      const draft = data.draftOrder;
      if (!draft || draft.status !== 'COMPLETED') continue;
      const shopifyOrderId = draft.order?.id ?? null;
      const shopifyOrderName = draft.order?.name ?? null;
      if (await applyOrderEvent(this.deps.db, row.id, 'shipping-received', { shopifyOrderId, shopifyOrderName })) changed++;
      if (
        draft.order?.displayFulfillmentStatus === 'FULFILLED' &&
        (await applyOrderEvent(this.deps.db, row.id, 'fulfilled', { shopifyOrderId }))
      )
        changed++;
    }
    return changed;
  }
}

/** The outbox's jobs not done yet, by kind: how many, and how many of them failed their last attempt (for the metrics). */
export async function outboxDepth(db: Db): Promise<Array<{ kind: string; pending: number; failing: number }>> {
  const rows: Array<{ kind: string; pending: string | number; failing: string | number }> = await db('outbox')
    .whereNull('done_at')
    .groupBy('kind')
    .select('kind', db.raw('count(*) as pending'), db.raw('count(last_error) as failing'));
  return rows.map((r) => ({ kind: r.kind, pending: Number(r.pending), failing: Number(r.failing) }));
}
