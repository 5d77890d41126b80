/**
 * Sends the order news the status changes queued (docs/order-updates.md): every second, each due
 * `notify:<status>` job of the outbox (claimed with a lease: one instance runs it) goes to every
 * subscription of the order's wallet, encrypted for it (RFC 8291) and signed with the shop's VAPID
 * key (RFC 8292) by web-push, and sent by the shop's outbound client (server/lib/outbound-http.ts). A 404 or 410 drops the subscription; any
 * other failure counts against it (dropped at MAX_FAILURES) and the job is retried with back-off
 * for the subscriptions it has not reached. News older than a day is no longer sent.
 */
import webpush from 'web-push';
import { orderNewsMessage, orderNewsTag } from '../../../common/order-news';
import type { Db } from '../../db';
import { periodicJob, type Job } from '../../lib/jobs';
import type { Logger } from '../../lib/logger';
import type { VapidKeys } from '../../push-config';
import { claimOutboxJob, failOutboxJob, finishOutboxJob, ORDER_NEWS_KINDS, orderNewsOf, runDueOutboxJobs, type OutboxJob } from '../orders';
import {
  postOutbound,
  type OutboundAnswer as PushAnswer,
  type OutboundRequest as PushRequest,
  type Resolve,
} from '../../lib/outbound-http';
import type { PushSubscriptions, SubscriptionRow } from './subscriptions';

/** Failed sends in a row after which a subscription is dropped. */
export const MAX_FAILURES = 5;
/** News older than this is not sent any more (the push service keeps it this long too: TTL). */
const STALE_MS = 24 * 60 * 60_000;

export interface OrderNewsOptions {
  db: Db;
  subscriptions: PushSubscriptions;
  /** The key pair and contact; null when the shop sends no order updates (the jobs are finished unsent). */
  vapid: VapidKeys | null;
  /** The shop's public origin: the notification's links. */
  origin: string;
  timeoutMs: number;
  local: boolean;
  logger: Logger;
  resolve?: Resolve;
  intervalMs?: number;
  now?: () => Date;
}

type Outcome = 'sent' | 'gone' | 'failed';

export class OrderNews implements Job {
  readonly name = 'order news';
  private readonly loop: Job;

  constructor(private readonly deps: OrderNewsOptions) {
    this.loop = periodicJob({ name: 'order news pass', everyMs: deps.intervalMs ?? 1000, logger: deps.logger, run: () => this.runDue() });
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

  /** Runs every due news job once; answers how many were finished. */
  runDue(limit = 20): Promise<number> {
    return runDueOutboxJobs(
      () => claimOutboxJob(this.deps.db, { kinds: ORDER_NEWS_KINDS, now: this.now() }),
      (job) => this.run(job),
      limit,
    );
  }

  private async run(job: OutboxJob): Promise<boolean> {
    const { db, subscriptions, vapid, logger } = this.deps;
    const finish = async (note?: string) => {
      await finishOutboxJob(db, job.id, this.now(), note);
      await subscriptions.forgetJob(job.id);
      return true;
    };
    try {
      if (!vapid) return finish('Not sent: order updates are off (no VAPID keys).');
      if (this.now().getTime() - job.created_at.getTime() > STALE_MS) return finish('Not sent: the news was a day old.');
      const news = await orderNewsOf(db, job.order_id, job.kind);
      if (!news) return finish('Not sent: no such order or news.');
      const payload = JSON.stringify(orderNewsMessage(news.facts, this.deps.origin));
      const pending = await subscriptions.pendingFor(news.wallet, job.id);
      const outcomes = await Promise.all(pending.map((sub) => this.sendOne(job, sub, payload, news.facts.orderId)));
      const failed = outcomes.filter((o) => o === 'failed').length;
      if (failed === 0) return finish();
      const delay = await failOutboxJob(db, job, `${failed} of ${pending.length} push services did not take the message`, this.now());
      logger.warn({ orderId: job.order_id, kind: job.kind, failed, retryInMs: delay }, 'order news not delivered everywhere; will retry');
      return false;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const delay = await failOutboxJob(db, job, message, this.now());
      logger.warn({ orderId: job.order_id, kind: job.kind, retryInMs: delay, err: message }, 'order news failed; will retry');
      return false;
    }
  }

  private async sendOne(job: OutboxJob, sub: SubscriptionRow, payload: string, orderId: string): Promise<Outcome> {
    const { subscriptions, logger } = this.deps;
    const now = this.now();
    // Only the push service's host is logged: the endpoint's path is the subscription's secret.
    const host = new URL(sub.endpoint).host;
    let answer: PushAnswer;
    try {
      answer = await this.send(this.request(sub, payload, orderId));
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const dropped = await subscriptions.failed(sub.id, message, now, MAX_FAILURES);
      logger.info({ orderId: job.order_id, pushService: host, err: message, dropped }, 'push message not sent');
      return dropped ? 'gone' : 'failed';
    }
    if (answer.status >= 200 && answer.status < 300) {
      await subscriptions.delivered(sub.id, job.id, now);
      return 'sent';
    }
    if (answer.status === 404 || answer.status === 410) {
      await subscriptions.drop(sub.id);
      logger.info({ orderId: job.order_id, pushService: host, status: answer.status }, 'push subscription gone; dropped');
      return 'gone';
    }
    const error = `the push service answered ${answer.status}${answer.text ? `: ${answer.text.slice(0, 200)}` : ''}`;
    const dropped = await subscriptions.failed(sub.id, error, now, MAX_FAILURES);
    logger.info({ orderId: job.order_id, pushService: host, status: answer.status, dropped }, 'push message refused');
    return dropped ? 'gone' : 'failed';
  }

  /** The encrypted, signed request for one subscription (web-push: RFC 8291's aes128gcm, RFC 8292's VAPID JWT). */
  private request(sub: SubscriptionRow, payload: string, orderId: string): PushRequest {
    const details = webpush.generateRequestDetails({ endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } }, payload, {
      vapidDetails: this.deps.vapid!,
      TTL: STALE_MS / 1000,
      urgency: 'normal',
      // A newer status of the same order replaces an older one still waiting at the push service.
      topic: orderNewsTag(orderId),
      contentEncoding: 'aes128gcm',
    });
    return { endpoint: details.endpoint, headers: details.headers as Record<string, string | number>, body: details.body };
  }

  private send(req: PushRequest): Promise<PushAnswer> {
    return postOutbound(req, { timeoutMs: this.deps.timeoutMs, local: this.deps.local, what: 'push service', resolve: this.deps.resolve });
  }
}
