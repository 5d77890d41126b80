/**
 * Sends the queued events (docs/webhooks.md): every second, due deliveries to enabled endpoints
 * are claimed with `FOR UPDATE SKIP LOCKED` and a lease (two instances never send one at once),
 * several at a time (at most one per endpoint in this instance, so a slow receiver holds only its
 * own lane). The body is composed on the event's first send, from the shop's own state (the
 * composers each module owning the data exports, handed in by server/wiring.ts), and frozen on the
 * message: every attempt and redelivery sends the same id and body. A 2xx is delivered; anything
 * else (a refused address, no answer in time, a redirect, another status) is retried on the
 * Standard Webhooks schedule (schedule.ts), then given up. An endpoint whose every attempt failed
 * for WEBHOOK_DISABLE_AFTER_MS is disabled, audited and logged; its deliveries wait for it.
 */
import { WEBHOOK_DISABLE_AFTER_MS, type WebhookEventBody, type WebhookEventType } from '../../../common/outgoing-webhooks';
import type { Db } from '../../db';
import { periodicJob, type Job } from '../../lib/jobs';
import type { Logger } from '../../lib/logger';
import { webhookAttempts, webhookEndpointsDisabled } from '../../lib/metrics';
import { postOutbound, type OutboundAnswer, type Resolve } from '../../lib/outbound-http';
import { ATTEMPTS_KEPT, type WebhookAuditSink } from './endpoints';
import type { EndpointRow } from './rows';
import { retryDelayMs } from './schedule';
import { signedHeaders } from './signing';

/**
 * The data of an event of one type, from what `subject` names (queueWebhookEvent's), as the shop
 * has it when the event is first sent; null when the thing is gone (sent as `data: null`).
 */
export type WebhookComposer = (subject: string) => Promise<unknown>;
export type WebhookComposers = Record<WebhookEventType, WebhookComposer>;

export interface WebhookSenderOptions {
  db: Db;
  composers: WebhookComposers;
  audit: WebhookAuditSink;
  /** How long one attempt may take, connection to answer (WEBHOOK_TIMEOUT_MS). */
  timeoutMs: number;
  /** Local mode: plain http and loopback URLs are allowed. */
  local: boolean;
  logger: Logger;
  resolve?: Resolve;
  /** Attempts in flight at once in this instance (default 8). */
  lanes?: number;
  intervalMs?: number;
  /** The schedule's clock (due times, failing for a day); the tests move it. Signatures carry the wall clock. */
  now?: () => Date;
}

/** At most this much of an answer or error is kept for the admin. */
const ERROR_MAX = 500;

interface Claimed {
  id: string | number;
  message_id: string;
  endpoint_id: string;
  attempts: number;
  schedule_step: number;
}

export class WebhookSender implements Job {
  readonly name = 'merchant webhooks';
  private readonly loop: Job;

  constructor(private readonly deps: WebhookSenderOptions) {
    this.loop = periodicJob({
      name: 'merchant webhooks pass',
      everyMs: deps.intervalMs ?? 1000,
      logger: deps.logger,
      run: async () => void (await this.runDue()),
    });
  }

  private now() {
    return this.deps.now?.() ?? new Date();
  }

  /** A claimed delivery stays this instance's this long (longer than an attempt can take), then another may take it. */
  private get leaseMs() {
    return Math.max(2 * 60_000, 3 * this.deps.timeoutMs);
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /**
   * Sends every due delivery (at most `limit`), `lanes` at a time; answers how many were attempted.
   * `now` (tests) is the schedule's time for this pass.
   */
  async runDue(opts: { limit?: number; now?: Date } = {}): Promise<number> {
    const limit = opts.limit ?? 200;
    const clock = () => opts.now ?? this.now();
    const inFlight = new Set<string>();
    let attempted = 0;
    const lane = async () => {
      while (attempted < limit) {
        const claimed = await this.claim(clock(), [...inFlight]);
        if (!claimed) return;
        attempted++;
        inFlight.add(claimed.endpoint_id);
        try {
          await this.attempt(claimed, clock);
        } finally {
          inFlight.delete(claimed.endpoint_id);
        }
      }
    };
    await Promise.all(Array.from({ length: this.deps.lanes ?? 8 }, lane));
    return attempted;
  }

  /** One due delivery of an enabled endpoint not in `busy`, leased to this instance. */
  private async claim(now: Date, busy: string[]): Promise<Claimed | null> {
    const { db } = this.deps;
    const due = db('webhook_deliveries as d')
      .join('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .select('d.id')
      .where('d.status', 'pending')
      .where('d.next_attempt_at', '<=', now)
      .where('e.enabled', true)
      .orderBy('d.next_attempt_at')
      .orderBy('d.id')
      .limit(1)
      .forUpdate('d')
      .skipLocked();
    if (busy.length) due.whereNotIn('d.endpoint_id', busy);
    const rows: Claimed[] = await db('webhook_deliveries')
      .whereIn('id', due)
      .update({
        attempts: db.raw('attempts + 1'),
        schedule_step: db.raw('schedule_step + 1'),
        next_attempt_at: new Date(now.getTime() + this.leaseMs),
      })
      .returning(['id', 'message_id', 'endpoint_id', 'attempts', 'schedule_step']);
    return rows[0] ?? null;
  }

  /** The event's body: the one frozen on its message, or composed now and frozen (the first writer's wins). */
  private async body(messageId: string): Promise<string> {
    const { db, composers } = this.deps;
    const message: { type: WebhookEventType; subject: string; payload: string | null; created_at: Date | string } = await db(
      'webhook_messages',
    )
      .where({ id: messageId })
      .first('type', 'subject', 'payload', 'created_at');
    if (message.payload !== null) return message.payload;
    const data = (await composers[message.type](message.subject)) ?? null;
    const body: WebhookEventBody = { type: message.type, timestamp: new Date(message.created_at).toISOString(), data };
    await db('webhook_messages')
      .where({ id: messageId })
      .whereNull('payload')
      .update({ payload: JSON.stringify(body) });
    return (await db('webhook_messages').where({ id: messageId }).first('payload')).payload;
  }

  private async attempt(claimed: Claimed, clock: () => Date): Promise<void> {
    const { db, logger } = this.deps;
    const endpoint: EndpointRow = await db('webhook_endpoints').where({ id: claimed.endpoint_id }).first();
    const host = URL.canParse(endpoint.url) ? new URL(endpoint.url).host : '(not a URL)';
    const started = Date.now();
    let answer: OutboundAnswer | null = null;
    let error: string | null = null;
    /** The shop could not compose the event: no fault of the endpoint's, so it does not count towards disabling it. */
    let ours = false;
    try {
      const body = await this.body(claimed.message_id).catch((err: unknown) => {
        ours = true;
        throw new Error(`the event could not be composed (${err instanceof Error ? err.message : String(err)}); it is tried again`);
      });
      const secrets = [endpoint.secret];
      if (endpoint.previous_secret && endpoint.previous_secret_until && new Date(endpoint.previous_secret_until) > clock())
        secrets.push(endpoint.previous_secret);
      // The header's time is the wall clock's: the receiver compares it with its own.
      const sentAt = new Date();
      answer = await postOutbound(
        {
          endpoint: endpoint.url,
          headers: {
            'content-type': 'application/json',
            'user-agent': 'POGS-Shop-Webhooks/1',
            ...signedHeaders(secrets, claimed.message_id, sentAt, body),
          },
          body: Buffer.from(body, 'utf8'),
        },
        { timeoutMs: this.deps.timeoutMs, local: this.deps.local, what: 'webhook URL', resolve: this.deps.resolve },
      );
      if (answer.status >= 300 && answer.status < 400)
        error = `answered ${answer.status}: a redirect, which is not followed (give the final URL)`;
      else if (answer.status < 200 || answer.status >= 300)
        error = `answered ${answer.status}${answer.text.trim() ? `: ${answer.text.trim().slice(0, 200)}` : ''}`;
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    const now = clock();
    const durationMs = Date.now() - started;
    const status = answer?.status ?? null;
    const ok = error === null;
    const delay = ok ? null : retryDelayMs(claimed.schedule_step);
    const disabled = await db.transaction(async (trx) => {
      await trx('webhook_attempts').insert({
        delivery_id: claimed.id,
        at: now,
        response_status: status,
        duration_ms: durationMs,
        error: error?.slice(0, ERROR_MAX) ?? null,
      });
      // The latest ATTEMPTS_KEPT attempts of a delivery are kept.
      await trx('webhook_attempts')
        .where({ delivery_id: claimed.id })
        .whereNotIn(
          'id',
          trx('webhook_attempts').select('id').where({ delivery_id: claimed.id }).orderBy('id', 'desc').limit(ATTEMPTS_KEPT),
        )
        .delete();
      await trx('webhook_deliveries')
        .where({ id: claimed.id })
        .update({
          status: ok ? 'delivered' : delay === null ? 'failed' : 'pending',
          next_attempt_at: ok || delay === null ? null : new Date(now.getTime() + delay),
          last_attempt_at: now,
          last_response_status: status,
          last_error: error?.slice(0, ERROR_MAX) ?? null,
          delivered_at: ok ? now : null,
        });
      if (ok) {
        await trx('webhook_endpoints').where({ id: endpoint.id }).whereNotNull('failing_since').update({ failing_since: null });
        return false;
      }
      if (ours) return false;
      const [row]: Array<Pick<EndpointRow, 'failing_since' | 'enabled'>> = await trx('webhook_endpoints')
        .where({ id: endpoint.id })
        .update({ failing_since: trx.raw('coalesce(failing_since, ?)', [now]) })
        .returning(['failing_since', 'enabled']);
      if (!row?.enabled || now.getTime() - new Date(row.failing_since!).getTime() < WEBHOOK_DISABLE_AFTER_MS) return false;
      await trx('webhook_endpoints')
        .where({ id: endpoint.id })
        .update({ enabled: false, disabled_reason: 'failing', disabled_at: now, updated_at: now });
      await this.deps.audit(trx, {
        action: 'webhook-disabled',
        session: null,
        target: endpoint.id,
        at: now,
        changes: [{ field: 'enabled', from: true, to: false }],
      });
      return true;
    });
    webhookAttempts.inc({ result: ok ? 'delivered' : delay === null ? 'given-up' : 'retry' });
    // Only the endpoint's host is logged: its path may be a secret of the merchant's (a chat's webhook URL).
    const fields = { endpointId: endpoint.id, host, deliveryId: String(claimed.id), eventId: claimed.message_id, status };
    if (ok) logger.debug(fields, 'webhook delivered');
    else
      logger.info(
        { ...fields, err: error, retryInMs: delay },
        delay === null ? 'webhook delivery given up' : 'webhook delivery failed; will retry',
      );
    if (disabled) {
      webhookEndpointsDisabled.inc();
      logger.warn(
        { endpointId: endpoint.id, host },
        'webhook endpoint disabled: every attempt failed for a day; the admin can turn it back on',
      );
    }
  }
}
