/**
 * The outbox's mechanics (docs/decisions/outbox.md), for every kind of job that follows an order's
 * transaction: the Shopify hand-off (handoff.ts) and the order news (the notifications module,
 * through this module's index). A job is one `outbox` row, unique per kind and order, written in
 * the transaction of the change it follows; `claimOutboxJob` takes one due row with
 * `FOR UPDATE SKIP LOCKED` and leases it, so two instances never run the same job at once; a
 * failure keeps its error and waits (`retryDelayMs`).
 */
import type { Knex } from 'knex';
import type { Db } from '../../db';
import { outboxFailures } from '../../lib/metrics';
import { ORDER_NEWS_STATUSES, type OrderNewsStatus } from '../../../common/order-news';
import { queueWebhookEvent } from '../outgoing-webhooks';

/** A lease: a claimed job is invisible to other workers this long (then it is retried). */
export const LEASE_MS = 2 * 60_000;

export function retryDelayMs(attempts: number): number {
  return Math.min(5_000 * 2 ** Math.max(attempts - 1, 0), 30 * 60_000);
}

export interface OutboxJob {
  id: number;
  kind: string;
  order_id: string;
  attempts: number;
  created_at: Date;
}

/**
 * Claims one due job of `kinds` and leases it. With `orderId`: that order's job if its last attempt
 * failed and none is in flight (the back-off skipped, never a running attempt's lease).
 */
export async function claimOutboxJob(db: Db, opts: { kinds: readonly string[]; now: Date; orderId?: string }): Promise<OutboxJob | null> {
  const { now, orderId } = opts;
  const due = db('outbox').select('id').whereIn('kind', opts.kinds).whereNull('done_at');
  if (orderId === undefined) due.where('next_attempt_at', '<=', now).orderBy('id').limit(1);
  else
    due
      .where({ order_id: orderId })
      .whereNotNull('last_error')
      .where((w) => w.where('next_attempt_at', '<=', now).orWhereRaw('last_failed_attempt = attempts'))
      .limit(1);
  const rows: Array<OutboxJob & { created_at: Date | string }> = await db('outbox')
    .whereIn('id', due.forUpdate().skipLocked())
    .update({ attempts: db.raw('attempts + 1'), next_attempt_at: new Date(now.getTime() + LEASE_MS), updated_at: now })
    .returning(['id', 'kind', 'order_id', 'attempts', 'created_at']);
  const row = rows[0];
  return row ? { ...row, created_at: new Date(row.created_at) } : null;
}

/** The job is done; `note` (why it finished without its work) is kept as its last error. Earlier failures stay. */
/**
 * One pass of a job kind's worker: claims due jobs one at a time (`claim`, which leases each) and
 * runs them, at most `limit`; answers how many `run` called done.
 */
export async function runDueOutboxJobs(
  claim: () => Promise<OutboxJob | null>,
  run: (job: OutboxJob) => Promise<boolean>,
  limit = 20,
): Promise<number> {
  let done = 0;
  for (let i = 0; i < limit; i++) {
    const job = await claim();
    if (!job) break;
    if (await run(job)) done++;
  }
  return done;
}

export async function finishOutboxJob(db: Db, id: number, now: Date, note?: string): Promise<void> {
  await db('outbox')
    .where({ id })
    .update({ done_at: now, updated_at: now, ...(note ? { last_error: note } : {}) });
}

/** The attempt failed: its error is kept and the job waits `retryDelayMs` of its attempts. Answers the wait. */
export async function failOutboxJob(db: Db, job: OutboxJob, message: string, now: Date): Promise<number> {
  const delay = retryDelayMs(job.attempts);
  await db('outbox')
    .where({ id: job.id })
    .update({
      last_error: message.slice(0, 2000),
      last_error_at: now,
      last_failed_attempt: job.attempts,
      next_attempt_at: new Date(now.getTime() + delay),
      updated_at: now,
    });
  outboxFailures.inc({ job: job.kind });
  return delay;
}

/** The outbox kind of the news of one status: sent once per order. */
export const orderNewsKind = (status: OrderNewsStatus) => `notify:${status}`;

/** Every kind of order news job. */
export const ORDER_NEWS_KINDS: readonly string[] = ORDER_NEWS_STATUSES.map(orderNewsKind);

/**
 * How long after an order's payment its `order.paid` webhook event is first sent: the dollar
 * reference the event carries is recorded just after the payment's transaction (price-reference.ts).
 */
export const ORDER_PAID_EVENT_DELAY_MS = 5_000;

/**
 * In the transaction of the status change: the news of `status` for order `orderId`, and the
 * merchant's webhook event `order.<status>`, each once per order (a status reached again, say paid
 * after a reorganisation undone, is not news twice).
 */
export async function queueOrderNews(trx: Knex.Transaction, orderId: string, status: string, now: Date): Promise<void> {
  if (!(ORDER_NEWS_STATUSES as readonly string[]).includes(status)) return;
  const news = status as OrderNewsStatus;
  await trx('outbox')
    .insert({ kind: orderNewsKind(news), order_id: orderId, next_attempt_at: now, created_at: now, updated_at: now })
    .onConflict(['kind', 'order_id'])
    .ignore();
  await queueWebhookEvent(trx, `order.${news}`, `order.${news}:${orderId}`, now, {
    subject: orderId,
    delayMs: news === 'paid' ? ORDER_PAID_EVENT_DELAY_MS : 0,
  });
}
