/**
 * Shopify webhooks (docs/payments.md §6): the HMAC is checked on the raw body bytes before anything
 * is parsed, each delivery is recorded once by X-Shopify-Webhook-Id (a retry or a duplicate is
 * acknowledged and ignored), the fields we read are validated (a signed delivery we cannot use is
 * acknowledged with 200 and logged, never a crash), and the event moves the order through the
 * status machine. Shopify wants a fast 2xx; the work here is one small transaction.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Router } from '@koa/router';
import { z } from 'zod';
import { ErrorCode } from '../../../common/errors';
import type { Db } from '../../db';
import { AppError } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import {
  WEBHOOK_SUBSCRIBE_MUTATION,
  WEBHOOK_SUBSCRIPTIONS_QUERY,
  type ShopifyGraphql,
  type WebhookSubscribeResult,
  type WebhookSubscriptionsResult,
} from '../../shopify';
import { usableTrackingUrl } from '../../../common/order-news';
import { applyOrderEvent } from './events';
import type { OrderEvent } from './status';

const MAX_BODY = 1024 * 1024;

export function verifyShopifyHmac(rawBody: Buffer, header: string | undefined, secret: string): boolean {
  if (!header || rawBody.length === 0) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  const got = Buffer.from(header, 'base64');
  return got.length === expected.length && timingSafeEqual(got, expected);
}

/** A string we may store or look up: Postgres `text` refuses NUL, and nothing we read is long. */
const text = z
  .string()
  .max(1000)
  .refine((s) => !s.includes('\u0000'), 'must not contain NUL characters');
/**
 * REST ids are JSON numbers (a string is tolerated). Not `.int()`: zod 4 refuses integers past
 * 2^53, which Shopify's own samples use; such an id is only ever a fallback for the GID string.
 */
const restId = z.union([z.number().nonnegative(), z.string().regex(/^\d{1,20}$/)]);
const noteAttribute = z.object({ name: text.optional(), key: text.optional(), value: text.optional() });
/** A fulfilment's tracking links (REST: `tracking_url`, and `tracking_urls` for each parcel); one we cannot read is none. */
const trackingFields = {
  tracking_url: text.nullable().optional().catch(undefined),
  tracking_urls: z.array(text).max(100).optional().catch(undefined),
};

/**
 * The fields of a webhook body this shop reads, with the types Shopify sends (REST resource JSON,
 * snake_case). Anything else in the body is ignored, and so is a note attribute we cannot read
 * (other apps add theirs); a body whose fields we read have other types is one we cannot use.
 */
const webhookPayloadSchema = z.object({
  id: restId.optional(),
  admin_graphql_api_id: text.optional(),
  status: text.optional(),
  /** The order's name ("#1001"; a draft's is "#D12", not read). */
  name: text.optional(),
  order_id: restId.nullable().optional(),
  ...trackingFields,
  /** orders/fulfilled: the order's fulfilments, with their tracking links. */
  fulfillments: z.array(z.object(trackingFields)).max(100).optional().catch(undefined),
  note_attributes: z
    .array(z.unknown())
    .max(1000)
    .transform((items) => items.flatMap((item) => noteAttribute.safeParse(item).data ?? []))
    .optional(),
});
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;

/** The usable part of a parsed webhook body, or null when it is not one (null, an array, odd types). */
export function parseWebhookPayload(body: unknown): WebhookPayload | null {
  return webhookPayloadSchema.safeParse(body).data ?? null;
}

/** The first tracking link a fulfilment (or, for an order, its newest fulfilment that has one) names. */
function trackingUrlOf(p: Pick<WebhookPayload, 'tracking_url' | 'tracking_urls' | 'fulfillments'>): string | undefined {
  const own = [...(p.tracking_urls ?? []), ...(p.tracking_url ? [p.tracking_url] : [])].find((u) => usableTrackingUrl(u));
  if (own) return own;
  for (const f of [...(p.fulfillments ?? [])].reverse()) {
    const url = trackingUrlOf(f);
    if (url) return url;
  }
  return undefined;
}

/** What a topic means for one of our orders: which order (how to find it) and which event. */
export function interpretWebhook(
  topic: string,
  p: WebhookPayload,
): { find: OrderLookup; event: OrderEvent; shopifyOrderId?: string; shopifyOrderName?: string; trackingUrl?: string } | null {
  const ourId = p.note_attributes?.find((a) => (a.name ?? a.key) === 'pogs_order_id')?.value;
  const orderGid = (id: number | string | null | undefined) =>
    id == null ? undefined : String(id).startsWith('gid://') ? String(id) : `gid://shopify/Order/${id}`;
  switch (topic) {
    case 'draft_orders/update':
      if (p.status !== 'completed' || !p.admin_graphql_api_id) return null;
      return { find: { draftId: p.admin_graphql_api_id, ourId }, event: 'shipping-received', shopifyOrderId: orderGid(p.order_id) };
    case 'orders/create':
      return {
        find: { shopifyOrderId: p.admin_graphql_api_id ?? orderGid(p.id), ourId },
        event: 'shipping-received',
        shopifyOrderId: p.admin_graphql_api_id ?? orderGid(p.id),
        ...(p.name ? { shopifyOrderName: p.name } : {}),
      };
    case 'orders/fulfilled': {
      const trackingUrl = trackingUrlOf(p);
      return {
        find: { shopifyOrderId: p.admin_graphql_api_id ?? orderGid(p.id), ourId },
        event: 'fulfilled',
        ...(trackingUrl ? { trackingUrl } : {}),
      };
    }
    case 'fulfillments/create': {
      if (p.status && p.status !== 'success') return null;
      const trackingUrl = trackingUrlOf(p);
      return { find: { shopifyOrderId: orderGid(p.order_id) }, event: 'fulfilled', ...(trackingUrl ? { trackingUrl } : {}) };
    }
    default:
      return null;
  }
}

export interface OrderLookup {
  ourId?: string;
  draftId?: string;
  shopifyOrderId?: string;
}

async function findOrderId(db: Db, find: OrderLookup): Promise<string | undefined> {
  if (find.ourId) {
    const row = await db('orders').where({ id: find.ourId }).first('id');
    if (row) return row.id;
  }
  if (find.draftId) {
    const row = await db('orders').where({ shopify_draft_order_id: find.draftId }).first('id');
    if (row) return row.id;
  }
  if (find.shopifyOrderId) {
    const row = await db('orders').where({ shopify_order_id: find.shopifyOrderId }).first('id');
    if (row) return row.id;
  }
  return undefined;
}

/**
 * Topics another module handles on this endpoint (the catalogue's product and stock topics): after
 * the signature check and before the duplicate check's transaction, `prepare` reads what it needs
 * (it may ask Shopify) and answers the change to make in the transaction that records the delivery.
 */
export interface WebhookTopicHandler {
  readonly topics: readonly string[];
  prepare(topic: string, body: unknown): Promise<((trx: Db) => Promise<string>) | null>;
}

export function shopifyWebhookRoutes(deps: {
  db: Db;
  logger: Logger;
  clientSecret: string | undefined;
  /** Further topics (the catalogue's). */
  handlers?: readonly WebhookTopicHandler[];
}): Router {
  const router = new Router();
  router.post('/api/webhooks/shopify', async (ctx) => {
    const { db, logger, clientSecret } = deps;
    const raw = await readRawBody(ctx.req);
    const header = ctx.get('X-Shopify-Hmac-Sha256') || ctx.get('shopify-hmac-sha256');
    if (!clientSecret || !verifyShopifyHmac(raw, header || undefined, clientSecret)) {
      throw new AppError(
        ErrorCode.webhookUnauthorized,
        'The webhook signature (X-Shopify-Hmac-Sha256) does not match this shop’s client secret.',
      );
    }
    // From here the delivery is Shopify's (it is signed): a 4xx would only make Shopify retry it and
    // in the end drop the subscription, so one we cannot use is acknowledged and logged.
    const acknowledge = (ignored: string) => {
      logger.warn(
        { topic: ctx.get('X-Shopify-Topic') || undefined, webhookId: ctx.get('X-Shopify-Webhook-Id') || undefined, ignored },
        'signed Shopify webhook ignored',
      );
      ctx.status = 200;
      ctx.body = { ok: true, ignored };
    };
    const topic = ctx.get('X-Shopify-Topic') || ctx.get('shopify-topic');
    const webhookId = ctx.get('X-Shopify-Webhook-Id') || ctx.get('shopify-webhook-id');
    if (!topic || !webhookId) return acknowledge('X-Shopify-Topic and X-Shopify-Webhook-Id are required');
    // Shopify's are short (a topic, a UUID); a key past Postgres' index row limit would fail the insert.
    if (topic.length > 200 || webhookId.length > 200) return acknowledge('X-Shopify-Topic or X-Shopify-Webhook-Id is too long');
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      return acknowledge('the body is not JSON');
    }
    const record = (trx: Db, resourceId: string | null) =>
      trx('webhook_events')
        .insert({ webhook_id: webhookId, topic, event_id: ctx.get('X-Shopify-Event-Id') || null, resource_id: resourceId })
        .onConflict('webhook_id')
        .ignore()
        .returning('webhook_id');

    const handler = deps.handlers?.find((h) => h.topics.includes(topic));
    if (handler) {
      // A copy already applied is not read from Shopify again; the insert below settles races.
      if (await db('webhook_events').where({ webhook_id: webhookId }).first('webhook_id')) {
        logger.debug({ topic, webhookId }, 'duplicate Shopify webhook ignored');
        ctx.status = 200;
        ctx.body = { ok: true };
        return;
      }
      const change = await handler.prepare(topic, body);
      const resourceId = (body as { admin_graphql_api_id?: unknown } | null)?.admin_graphql_api_id;
      const done = await db.transaction(async (trx) => {
        if ((await record(trx as unknown as Db, typeof resourceId === 'string' ? resourceId.slice(0, 200) : null)).length === 0)
          return 'duplicate';
        return change ? change(trx as unknown as Db) : 'nothing to do';
      });
      logger.info({ topic, webhookId, outcome: done }, 'Shopify webhook applied');
      ctx.status = 200;
      ctx.body = { ok: true };
      return;
    }
    const payload = parseWebhookPayload(body);

    // Recording the delivery and acting on it commit together: a failure leaves no trace, so
    // Shopify's retry is processed; a success makes every later copy a no-op.
    const outcome = await db.transaction(async (trx) => {
      const inserted = await record(trx as unknown as Db, payload?.admin_graphql_api_id ?? null);
      if (inserted.length === 0) return 'duplicate' as const;
      if (!payload) return 'unusable' as const;
      const meaning = interpretWebhook(topic, payload);
      if (!meaning) return 'ignored' as const;
      const orderId = await findOrderId(trx as unknown as Db, meaning.find);
      if (!orderId) return 'unknown-order' as const;
      const change = await applyOrderEvent(trx as unknown as Db, orderId, meaning.event, {
        shopifyOrderId: meaning.shopifyOrderId,
        shopifyOrderName: meaning.shopifyOrderName,
        trackingUrl: meaning.trackingUrl,
      });
      return { orderId, change };
    });
    if (outcome === 'unusable') return acknowledge('the body is not a Shopify resource this shop can read');
    if (outcome === 'duplicate') logger.debug({ topic, webhookId }, 'duplicate Shopify webhook ignored');
    else if (outcome === 'unknown-order')
      logger.info({ topic, webhookId }, 'Shopify webhook for an order that is not ours (or not yet known); the poller will catch up');
    else if (typeof outcome === 'object' && outcome.change)
      logger.info({ orderId: outcome.orderId, topic, ...outcome.change }, 'order moved by a Shopify webhook');
    ctx.status = 200;
    ctx.body = { ok: true };
  });
  return router;
}

/** Past this much, an oversized body is no longer read through: the connection is closed after the 413. */
const MAX_DRAINED = 8 * MAX_BODY;

/**
 * The body's bytes, up to MAX_BODY. A larger body is read to its end (and thrown away) before the
 * 413, so the connection stays usable for the sender's next request; one past MAX_DRAINED is not
 * read on (the error middleware answers 413 with `Connection: close`).
 */
function readRawBody(req: NodeJS.ReadableStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const tooLarge = () => new AppError(ErrorCode.payloadTooLarge, 'The webhook body is too large.');
    const done = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (chunk: Buffer | string) => {
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      size += buf.length;
      if (size <= MAX_BODY) chunks.push(buf);
      else if (size > MAX_DRAINED) {
        done();
        req.pause();
        reject(tooLarge());
      }
    };
    const onEnd = () => {
      done();
      if (size > MAX_BODY) reject(tooLarge());
      else resolve(Buffer.concat(chunks));
    };
    const onError = (err: Error) => {
      done();
      reject(err);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

const WEBHOOK_TOPICS = [
  'DRAFT_ORDERS_UPDATE',
  'ORDERS_CREATE',
  'ORDERS_FULFILLED',
  'FULFILLMENTS_CREATE',
  // The catalogue's (modules/catalogue/webhooks.ts, handed over by this endpoint).
  'PRODUCTS_CREATE',
  'PRODUCTS_UPDATE',
  'PRODUCTS_DELETE',
  'INVENTORY_LEVELS_UPDATE',
] as const;

/**
 * Subscribes the shop's webhook endpoint to the order and catalogue topics. Idempotent: Shopify answers an
 * existing subscription with a userError ("already been taken"), which is fine.
 */
export async function subscribeShopifyWebhooks(shopify: ShopifyGraphql, uri: string, logger: Logger): Promise<number> {
  let created = 0;
  for (const topic of WEBHOOK_TOPICS) {
    const { data } = await shopify.query<WebhookSubscribeResult>(WEBHOOK_SUBSCRIBE_MUTATION, {
      topic,
      webhookSubscription: { uri, format: 'JSON' },
    });
    const { webhookSubscription, userErrors } = data.webhookSubscriptionCreate;
    if (webhookSubscription) created++;
    else if (!userErrors.every((e) => /taken/i.test(e.message)))
      logger.warn({ topic, userErrors }, 'Shopify refused a webhook subscription');
  }
  return created;
}

/**
 * The topics with no subscription delivering to `uri` (empty when Shopify will tell the shop
 * about every order event). Lists the app's subscriptions of those topics.
 */
export async function missingWebhookTopics(shopify: ShopifyGraphql, uri: string): Promise<string[]> {
  const { data } = await shopify.query<WebhookSubscriptionsResult>(WEBHOOK_SUBSCRIPTIONS_QUERY, {
    first: 100,
    topics: [...WEBHOOK_TOPICS],
  });
  const delivered = new Set(data.webhookSubscriptions.nodes.filter((s) => s.uri === uri).map((s) => s.topic));
  return WEBHOOK_TOPICS.filter((topic) => !delivered.has(topic));
}
