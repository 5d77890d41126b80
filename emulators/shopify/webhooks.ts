// Webhook subscriptions and delivery, as Shopify's webhook documentation describes them: one POST
// per matching subscription, signed with the app's client secret over the exact body bytes, retried
// with back-off on a non-2xx answer or a network failure, and re-sendable byte for byte so
// duplicate handling can be tested. Delivery never blocks the action that triggered it.
import { createHmac, randomUUID } from 'node:crypto';
import type { UserError } from './order-state';
import { toIsoSeconds } from './emulator-state';

// The topics the invoice and fulfilment flow fires, and those product and stock changes fire.
export const WEBHOOK_TOPICS = [
  'DRAFT_ORDERS_UPDATE',
  'FULFILLMENTS_CREATE',
  'INVENTORY_LEVELS_UPDATE',
  'ORDERS_CREATE',
  'ORDERS_FULFILLED',
  'ORDERS_PAID',
  'ORDERS_UPDATED',
  'PRODUCTS_CREATE',
  'PRODUCTS_DELETE',
  'PRODUCTS_UPDATE',
] as const;

export type WebhookTopic = (typeof WEBHOOK_TOPICS)[number];

export interface WebhookSubscription {
  legacyId: string;
  topic: WebhookTopic;
  uri: string;
  format: 'JSON' | 'XML';
  /** The version of the Admin API call that created it; deliveries are labelled with it. */
  apiVersion: string;
  createdAt: string;
  updatedAt: string;
}

export interface WebhookSubscriptionInput {
  uri?: string | null;
  format?: 'JSON' | 'XML' | null;
}

export interface WebhookDelivery {
  /** REST-style topic, as in the X-Shopify-Topic header ("orders/create"). */
  topic: string;
  subscriptionId: string;
  url: string;
  /** Same across retries of this delivery (and its redeliveries). */
  webhookId: string;
  /** Same across every delivery caused by one merchant action. */
  eventId: string;
  headers: Record<string, string>;
  /** The exact bytes sent and signed. */
  body: string;
  attempts: number;
  status: 'pending' | 'delivered' | 'failed';
  lastStatusCode: number | null;
  lastError: string | null;
}

export interface WebhookMessage {
  topic: WebhookTopic;
  payload: Record<string, unknown>;
}

export interface WebhookOptions {
  clientSecret: string;
  shopDomain: string;
  /** Pause before each retry; its length is the number of retries. */
  retryDelaysMs: readonly number[];
  now: () => number;
  fetch?: typeof fetch;
}

const SUBSCRIPTION_ID_FLOOR = 1_400_000_000_000;
/** Shopify gives up on an answer after 5 s and counts it as a failed attempt. */
const DELIVERY_TIMEOUT_MS = 5000;
const ADDRESS_FIELD = ['webhookSubscription', 'callbackUrl'];

/** 'DRAFT_ORDERS_UPDATE' → 'draft_orders/update': the action is the last word. */
export function topicHeader(topic: string): string {
  const lower = topic.toLowerCase();
  const cut = lower.lastIndexOf('_');
  return `${lower.slice(0, cut)}/${lower.slice(cut + 1)}`;
}

/** X-Shopify-Hmac-Sha256: base64 HMAC-SHA256 of the raw body, keyed with the client secret. */
export function signWebhookBody(body: string, clientSecret: string): string {
  return createHmac('sha256', clientSecret).update(body, 'utf8').digest('base64');
}

/** "2025-07-10T16:15:47.000000Z", microseconds as in Shopify's sample. */
export function triggeredAtHeader(ms: number): string {
  return new Date(ms).toISOString().replace(/Z$/, '000Z');
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    // A retry waiting in the background must not keep the process alive.
    timer.unref();
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export class Webhooks {
  /** The delivery log, oldest first; callers may hold on to this array. */
  readonly deliveries: WebhookDelivery[] = [];
  private readonly subscriptions: WebhookSubscription[] = [];
  private readonly inflight = new Set<Promise<void>>();
  private lastId = SUBSCRIPTION_ID_FLOOR;
  private stop = new AbortController();

  constructor(private readonly opts: WebhookOptions) {}

  listSubscriptions(): WebhookSubscription[] {
    return [...this.subscriptions];
  }

  createSubscription(
    topic: WebhookTopic,
    input: WebhookSubscriptionInput,
    apiVersion: string,
  ): { subscription: WebhookSubscription } | { userErrors: UserError[] } {
    const uri = (input.uri ?? '').trim();
    if (!uri) return { userErrors: [{ field: ADDRESS_FIELD, message: "Address can't be blank" }] };
    let url: URL | null = null;
    try {
      url = new URL(uri);
    } catch {
      url = null;
    }
    // Shopify also takes pubsub:// and arn:aws:events: addresses, which the emulator cannot
    // deliver to; and it takes plain http://, which local receivers need.
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
      return { userErrors: [{ field: ADDRESS_FIELD, message: 'Address is invalid' }] };
    }
    const format = input.format ?? 'JSON';
    if (this.subscriptions.some((s) => s.topic === topic && s.uri === uri && s.format === format)) {
      return { userErrors: [{ field: ADDRESS_FIELD, message: 'Address for this topic has already been taken' }] };
    }
    this.lastId += 1;
    const at = toIsoSeconds(this.opts.now());
    const subscription: WebhookSubscription = {
      legacyId: String(this.lastId),
      topic,
      uri,
      format,
      apiVersion,
      createdAt: at,
      updatedAt: at,
    };
    this.subscriptions.push(subscription);
    return { subscription };
  }

  /**
   * One merchant action: every message goes to every subscription of its topic, all under one
   * X-Shopify-Event-Id. Returns the new (pending) log entries; sending happens in the background.
   */
  trigger(messages: readonly WebhookMessage[]): WebhookDelivery[] {
    const eventId = randomUUID();
    const triggeredAt = triggeredAtHeader(this.opts.now());
    const created: WebhookDelivery[] = [];
    for (const { topic, payload } of messages) {
      for (const sub of this.subscriptions.filter((s) => s.topic === topic)) {
        // Bodies are JSON even for an XML subscription: XML payloads are not emulated.
        const body = JSON.stringify(payload);
        const webhookId = randomUUID();
        const delivery: WebhookDelivery = {
          topic: topicHeader(topic),
          subscriptionId: `gid://shopify/WebhookSubscription/${sub.legacyId}`,
          url: sub.uri,
          webhookId,
          eventId,
          headers: {
            'Content-Type': 'application/json',
            'User-Agent': 'Shopify-Captain-Hook',
            'X-Shopify-Topic': topicHeader(topic),
            'X-Shopify-Hmac-Sha256': signWebhookBody(body, this.opts.clientSecret),
            'X-Shopify-Shop-Domain': this.opts.shopDomain,
            'X-Shopify-API-Version': sub.apiVersion,
            'X-Shopify-Webhook-Id': webhookId,
            'X-Shopify-Event-Id': eventId,
            'X-Shopify-Triggered-At': triggeredAt,
          },
          body,
          attempts: 0,
          status: 'pending',
          lastStatusCode: null,
          lastError: null,
        };
        created.push(this.send(delivery));
      }
    }
    return created;
  }

  /** Sends an earlier delivery again, same headers and body (a new log entry tracks it). */
  redeliver(webhookId: string): WebhookDelivery {
    const original = this.deliveries.find((d) => d.webhookId === webhookId);
    if (!original) throw new Error(`No webhook delivery ${webhookId}`);
    return this.send({
      ...original,
      headers: { ...original.headers },
      attempts: 0,
      status: 'pending',
      lastStatusCode: null,
      lastError: null,
    });
  }

  /** Resolves once nothing is being sent or waiting for a retry. */
  async idle(): Promise<void> {
    while (this.inflight.size) await Promise.allSettled([...this.inflight]);
  }

  /** Drops subscriptions and the log, and abandons pending retries. */
  reset(): void {
    this.stop.abort();
    this.stop = new AbortController();
    this.inflight.clear();
    this.subscriptions.length = 0;
    this.deliveries.length = 0;
    this.lastId = SUBSCRIPTION_ID_FLOOR;
  }

  private send(delivery: WebhookDelivery): WebhookDelivery {
    this.deliveries.push(delivery);
    const run = this.attempt(delivery, this.stop.signal).finally(() => this.inflight.delete(run));
    this.inflight.add(run);
    return delivery;
  }

  private async attempt(delivery: WebhookDelivery, stop: AbortSignal): Promise<void> {
    const post = this.opts.fetch ?? fetch;
    const delays = this.opts.retryDelaysMs;
    for (let retry = 0; ; retry++) {
      delivery.attempts += 1;
      try {
        const res = await post(delivery.url, {
          method: 'POST',
          headers: delivery.headers,
          body: delivery.body,
          // A redirect is a failed delivery for Shopify too.
          redirect: 'manual',
          signal: AbortSignal.any([stop, AbortSignal.timeout(DELIVERY_TIMEOUT_MS)]),
        });
        await res.body?.cancel();
        delivery.lastStatusCode = res.status;
        if (res.ok) {
          delivery.status = 'delivered';
          delivery.lastError = null;
          return;
        }
        delivery.lastError = `HTTP ${res.status}`;
      } catch (err) {
        if (stop.aborted) return;
        delivery.lastStatusCode = null;
        delivery.lastError = (err as Error).message;
      }
      if (retry >= delays.length) {
        delivery.status = 'failed';
        return;
      }
      if (!(await pause(delays[retry], stop))) return;
    }
  }
}
