/**
 * The merchant's webhook endpoints as the admin manages them (docs/webhooks.md): the list, adding
 * one (its secret shown in that answer only), changing one, rotating its secret, its deliveries a
 * page at a time, one delivery with its body and attempts, and sending deliveries again. Every
 * change is audited in its own transaction (the admin module's audit trail, handed in as `audit`).
 * A URL is checked as the sender checks it (server/lib/outbound-rules.ts) before it is kept.
 */
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import {
  MAX_WEBHOOK_ENDPOINTS,
  WEBHOOK_DELIVERIES_PAGE_SIZE,
  WEBHOOK_PREVIOUS_SECRET_MS,
  WEBHOOK_REDELIVER_MAX,
  type CreateWebhookEndpointRequest,
  type UpdateWebhookEndpointRequest,
  type WebhookDeliveriesPage,
  type WebhookDelivery,
  type WebhookDeliveryDetail,
  type WebhookDeliveryStatus,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
} from '../../../common/outgoing-webhooks';
import { ErrorCode } from '../../../common/errors';
import type { Db } from '../../db';
import { AppError } from '../../lib/errors';
import { outboundUrlProblem, type Resolve } from '../../lib/outbound-http';
import { deliveryOf, endpointOf, eventsOf, iso, type DeliveryRow, type EndpointRow } from './rows';
import { newWebhookSecret } from './signing';

/** One admin audit entry, written by the admin module in the change's transaction. */
export interface WebhookAudit {
  action: 'webhook-created' | 'webhook-updated' | 'webhook-secret-rotated' | 'webhook-redelivered' | 'webhook-disabled';
  /** The acting admin session's label; null for the shop's own change (an endpoint disabled for failing). */
  session: string | null;
  target: string;
  changes: ReadonlyArray<{ field: string; from: unknown; to: unknown }>;
  at: Date;
}
export type WebhookAuditSink = (trx: Knex.Transaction, entry: WebhookAudit) => Promise<void>;

export interface WebhookEndpointsOptions {
  audit: WebhookAuditSink;
  /** Local mode: plain http and loopback URLs are allowed (the tests' receivers). */
  local: boolean;
  resolve?: Resolve;
  now?: () => Date;
}

const ENDPOINT_ID = /^ep_[0-9a-f]{24}$/;
const DELIVERY_ID = /^[1-9]\d{0,18}$/;
/** The attempts one delivery's detail shows (and keeps: the sender prunes older ones). */
export const ATTEMPTS_KEPT = 20;

const notFound = (what: string) => new AppError(ErrorCode.notFound, `No such ${what}: it may have been removed, or the link is wrong.`);

export class WebhookEndpoints {
  constructor(
    private readonly db: Db,
    private readonly opts: WebhookEndpointsOptions,
  ) {}

  private now() {
    return this.opts.now?.() ?? new Date();
  }

  private async checkUrl(url: string): Promise<void> {
    const problem = await outboundUrlProblem(url, { local: this.opts.local, what: 'webhook URL', resolve: this.opts.resolve });
    if (problem) throw new AppError(ErrorCode.webhookUrlRefused, problem);
  }

  private async counts(ids: readonly string[]): Promise<Map<string, { pending: number; failed: number }>> {
    const rows: Array<{ endpoint_id: string; status: string; n: string | number }> = await this.db('webhook_deliveries')
      .whereIn('endpoint_id', ids)
      .whereIn('status', ['pending', 'failed'])
      .groupBy('endpoint_id', 'status')
      .select('endpoint_id', 'status', this.db.raw('count(*) as n'));
    const counts = new Map(ids.map((id) => [id, { pending: 0, failed: 0 }]));
    for (const r of rows) counts.get(r.endpoint_id)![r.status as 'pending' | 'failed'] = Number(r.n);
    return counts;
  }

  private async answer(rows: EndpointRow[]): Promise<WebhookEndpoint[]> {
    const counts = await this.counts(rows.map((r) => r.id));
    return rows.map((r) => endpointOf(r, counts.get(r.id)!, this.now()));
  }

  private async row(db: Db | Knex.Transaction, id: string, lock = false): Promise<EndpointRow> {
    if (!ENDPOINT_ID.test(id)) throw notFound('webhook endpoint');
    const q = db('webhook_endpoints').where({ id });
    if (lock) q.forUpdate();
    const row: EndpointRow | undefined = await q.first();
    if (!row) throw notFound('webhook endpoint');
    return row;
  }

  /** Every endpoint, newest first (at most MAX_WEBHOOK_ENDPOINTS exist). */
  async list(): Promise<WebhookEndpoint[]> {
    const rows: EndpointRow[] = await this.db('webhook_endpoints').orderBy('created_at', 'desc').orderBy('id').limit(MAX_WEBHOOK_ENDPOINTS);
    return this.answer(rows);
  }

  /** A new endpoint, enabled, with its secret (answered this once). */
  async create(input: CreateWebhookEndpointRequest, session: string): Promise<WebhookEndpointWithSecret> {
    await this.checkUrl(input.url);
    const now = this.now();
    const secret = newWebhookSecret();
    const id = `ep_${randomBytes(12).toString('hex')}`;
    const row = await this.db.transaction(async (trx) => {
      // One creation at a time, so two admins at once cannot pass the bound together.
      await trx.raw('select pg_advisory_xact_lock(hashtext(?))', ['webhook_endpoints']);
      const [{ n }] = await trx('webhook_endpoints').count({ n: '*' });
      if (Number(n) >= MAX_WEBHOOK_ENDPOINTS)
        throw new AppError(
          ErrorCode.webhookEndpointLimit,
          `The shop keeps at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints. Change one you no longer use instead.`,
        );
      const [inserted]: EndpointRow[] = await trx('webhook_endpoints')
        .insert({
          id,
          url: input.url,
          description: input.description ?? '',
          events: JSON.stringify(input.events),
          secret,
          enabled: true,
          created_at: now,
          updated_at: now,
        })
        .returning('*');
      await this.opts.audit(trx, {
        action: 'webhook-created',
        session,
        target: id,
        at: now,
        changes: [
          { field: 'url', from: null, to: input.url },
          { field: 'events', from: null, to: input.events },
        ],
      });
      return inserted!;
    });
    return { endpoint: (await this.answer([row]))[0]!, secret };
  }

  /** Changes an endpoint; `enabled: true` turns it back on and its waiting deliveries go at once. */
  async update(id: string, patch: UpdateWebhookEndpointRequest, session: string): Promise<WebhookEndpoint> {
    if (patch.url !== undefined) await this.checkUrl(patch.url);
    const now = this.now();
    const row = await this.db.transaction(async (trx) => {
      const before = await this.row(trx, id, true);
      const change: Record<string, unknown> = {};
      const changes: WebhookAudit['changes'][number][] = [];
      if (patch.url !== undefined && patch.url !== before.url) {
        change.url = patch.url;
        changes.push({ field: 'url', from: before.url, to: patch.url });
      }
      if (patch.description !== undefined && patch.description !== before.description) {
        change.description = patch.description;
        changes.push({ field: 'description', from: before.description, to: patch.description });
      }
      const events = eventsOf(before);
      if (patch.events !== undefined && JSON.stringify(patch.events) !== JSON.stringify(events)) {
        change.events = JSON.stringify(patch.events);
        changes.push({ field: 'events', from: events, to: patch.events });
      }
      if (patch.enabled !== undefined && patch.enabled !== before.enabled) {
        Object.assign(
          change,
          patch.enabled
            ? { enabled: true, disabled_reason: null, disabled_at: null, failing_since: null }
            : { enabled: false, disabled_reason: 'admin', disabled_at: now },
        );
        changes.push({ field: 'enabled', from: before.enabled, to: patch.enabled });
        // Back on: what waited while it was off is sent now, on a fresh schedule.
        if (patch.enabled)
          await trx('webhook_deliveries').where({ endpoint_id: id, status: 'pending' }).update({ next_attempt_at: now, schedule_step: 0 });
      }
      if (changes.length === 0) return before;
      const [after]: EndpointRow[] = await trx('webhook_endpoints')
        .where({ id })
        .update({ ...change, updated_at: now })
        .returning('*');
      await this.opts.audit(trx, { action: 'webhook-updated', session, target: id, at: now, changes });
      return after!;
    });
    return (await this.answer([row]))[0]!;
  }

  /** A new secret (answered this once); the one before still signs beside it for WEBHOOK_PREVIOUS_SECRET_MS. */
  async rotate(id: string, session: string): Promise<WebhookEndpointWithSecret> {
    const now = this.now();
    const secret = newWebhookSecret();
    const until = new Date(now.getTime() + WEBHOOK_PREVIOUS_SECRET_MS);
    const row = await this.db.transaction(async (trx) => {
      const before = await this.row(trx, id, true);
      const [after]: EndpointRow[] = await trx('webhook_endpoints')
        .where({ id })
        .update({ secret, previous_secret: before.secret, previous_secret_until: until, updated_at: now })
        .returning('*');
      // Never the secrets themselves: only until when the previous one signs.
      await this.opts.audit(trx, {
        action: 'webhook-secret-rotated',
        session,
        target: id,
        at: now,
        changes: [{ field: 'previousSecretUntil', from: iso(before.previous_secret_until), to: until.toISOString() }],
      });
      return after!;
    });
    return { endpoint: (await this.answer([row]))[0]!, secret };
  }

  /** An endpoint's deliveries, newest first, WEBHOOK_DELIVERIES_PAGE_SIZE at a time (`before`: the previous page's nextBefore). */
  async deliveries(id: string, query: { status?: WebhookDeliveryStatus; before?: string }): Promise<WebhookDeliveriesPage> {
    await this.row(this.db, id);
    const q = this.db('webhook_deliveries as d')
      .join('webhook_messages as m', 'm.id', 'd.message_id')
      .where('d.endpoint_id', id)
      .orderBy('d.id', 'desc')
      .limit(WEBHOOK_DELIVERIES_PAGE_SIZE + 1)
      .select('d.*', 'm.type');
    if (query.status) q.where('d.status', query.status);
    if (query.before) q.where('d.id', '<', query.before);
    const rows: Array<DeliveryRow & { type: WebhookDelivery['eventType'] }> = await q;
    const page = rows.slice(0, WEBHOOK_DELIVERIES_PAGE_SIZE);
    return {
      deliveries: page.map(deliveryOf),
      nextBefore: rows.length > WEBHOOK_DELIVERIES_PAGE_SIZE ? String(page[page.length - 1]!.id) : null,
    };
  }

  private async deliveryRow(db: Db | Knex.Transaction, deliveryId: string) {
    if (!DELIVERY_ID.test(deliveryId)) throw notFound('delivery');
    const row: (DeliveryRow & { type: WebhookDelivery['eventType']; payload: string | null }) | undefined = await db(
      'webhook_deliveries as d',
    )
      .join('webhook_messages as m', 'm.id', 'd.message_id')
      .where('d.id', deliveryId)
      .first('d.*', 'm.type', 'm.payload');
    if (!row) throw notFound('delivery');
    return row;
  }

  /** One delivery, the body its endpoint receives, and its latest attempts (newest first). */
  async delivery(deliveryId: string): Promise<WebhookDeliveryDetail> {
    const row = await this.deliveryRow(this.db, deliveryId);
    const attempts: Array<{ at: Date | string; response_status: number | null; duration_ms: number; error: string | null }> = await this.db(
      'webhook_attempts',
    )
      .where({ delivery_id: row.id })
      .orderBy('id', 'desc')
      .limit(ATTEMPTS_KEPT);
    return {
      delivery: deliveryOf(row),
      payload: row.payload,
      attempts: attempts.map((a) => ({ at: iso(a.at)!, responseStatus: a.response_status, durationMs: a.duration_ms, error: a.error })),
    };
  }

  /** The same event (same id, same body) sent again as soon as possible, whatever its state, on a fresh schedule. */
  async redeliver(deliveryId: string, session: string): Promise<WebhookDelivery> {
    const now = this.now();
    await this.db.transaction(async (trx) => {
      const before = await this.deliveryRow(trx, deliveryId);
      await trx('webhook_deliveries')
        .where({ id: before.id })
        .update({ status: 'pending', next_attempt_at: now, schedule_step: 0, delivered_at: null });
      await this.opts.audit(trx, {
        action: 'webhook-redelivered',
        session,
        target: before.endpoint_id,
        at: now,
        changes: [{ field: `delivery ${before.id}`, from: before.status, to: 'pending' }],
      });
    });
    return deliveryOf(await this.deliveryRow(this.db, deliveryId));
  }

  /**
   * The deliveries of endpoint `id` given up since `since` queued again, the oldest first, at most
   * WEBHOOK_REDELIVER_MAX per call (ask again for the rest); answers how many.
   */
  async redeliverFailed(id: string, since: Date, session: string): Promise<{ queued: number }> {
    const now = this.now();
    return this.db.transaction(async (trx) => {
      await this.row(trx, id);
      const ids = trx('webhook_deliveries')
        .select('id')
        .where({ endpoint_id: id, status: 'failed' })
        .where('last_attempt_at', '>=', since)
        .orderBy('id')
        .limit(WEBHOOK_REDELIVER_MAX);
      const queued = await trx('webhook_deliveries')
        .whereIn('id', ids)
        .update({ status: 'pending', next_attempt_at: now, schedule_step: 0 });
      await this.opts.audit(trx, {
        action: 'webhook-redelivered',
        session,
        target: id,
        at: now,
        changes: [{ field: `failed since ${since.toISOString()}`, from: queued, to: 'pending' }],
      });
      return { queued };
    });
  }
}
