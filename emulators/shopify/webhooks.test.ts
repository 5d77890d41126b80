import { describe, expect, it } from 'vitest';
import { signWebhookBody, topicHeader, triggeredAtHeader, Webhooks, type WebhookOptions } from './webhooks';

interface Sent {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** A fetch that records requests and answers from a script of statuses ('network' throws). */
function fakeFetch(script: Array<number | 'network'> = []) {
  const sent: Sent[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    sent.push({ url, headers: init.headers as Record<string, string>, body: init.body as string });
    const next = script.shift() ?? 200;
    if (next === 'network') throw new TypeError('fetch failed');
    return new Response('ok', { status: next });
  }) as unknown as typeof globalThis.fetch;
  return { sent, fetch };
}

function webhooks(extra: Partial<WebhookOptions> = {}) {
  return new Webhooks({
    clientSecret: 'shpss_test_secret',
    shopDomain: 'demo-shop.myshopify.com',
    retryDelaysMs: [1, 1, 1],
    now: () => Date.parse('2026-11-01T10:00:00.250Z'),
    ...extra,
  });
}

describe('webhook helpers', () => {
  it('turns GraphQL topic names into X-Shopify-Topic values', () => {
    expect(topicHeader('ORDERS_CREATE')).toBe('orders/create');
    expect(topicHeader('DRAFT_ORDERS_UPDATE')).toBe('draft_orders/update');
    expect(topicHeader('FULFILLMENTS_CREATE')).toBe('fulfillments/create');
  });

  it('signs with base64 HMAC-SHA256 of the body (RFC 4231 test case 2)', () => {
    // A published vector rather than a copied Shopify sample: one such sample's value did not
    // reproduce for its body and secret.
    expect(signWebhookBody('what do ya want for nothing?', 'Jefe')).toBe('W9zBRr9gdU5qBCQmCJV1x1oAPwidJzmDnexYuWTsOEM=');
  });

  it('stamps X-Shopify-Triggered-At with microseconds', () => {
    expect(triggeredAtHeader(Date.parse('2025-07-10T16:15:47Z'))).toBe('2025-07-10T16:15:47.000000Z');
  });
});

describe('Webhooks', () => {
  it('validates subscriptions: blank, unusable and duplicate addresses', () => {
    const hooks = webhooks();
    const ok = hooks.createSubscription('ORDERS_CREATE', { uri: ' https://app.test/hooks ' }, '2026-07');
    expect(ok).toEqual({
      subscription: expect.objectContaining({
        topic: 'ORDERS_CREATE',
        uri: 'https://app.test/hooks',
        format: 'JSON',
        apiVersion: '2026-07',
      }),
    });
    const field = ['webhookSubscription', 'callbackUrl'];
    expect(hooks.createSubscription('ORDERS_CREATE', { uri: 'https://app.test/hooks' }, '2026-07')).toEqual({
      userErrors: [{ field, message: 'Address for this topic has already been taken' }],
    });
    expect(hooks.createSubscription('ORDERS_CREATE', { uri: '' }, '2026-07')).toEqual({
      userErrors: [{ field, message: "Address can't be blank" }],
    });
    expect(hooks.createSubscription('ORDERS_CREATE', { uri: 'pubsub://project:topic' }, '2026-07')).toEqual({
      userErrors: [{ field, message: 'Address is invalid' }],
    });
    // Same address, other topic or other format: a separate subscription.
    expect(hooks.createSubscription('ORDERS_PAID', { uri: 'https://app.test/hooks' }, '2026-07')).toHaveProperty('subscription');
    expect(hooks.createSubscription('ORDERS_CREATE', { uri: 'https://app.test/hooks', format: 'XML' }, '2026-07')).toHaveProperty(
      'subscription',
    );
    expect(hooks.listSubscriptions()).toHaveLength(3);
  });

  it('sends one signed delivery per matching subscription, all with the action’s event id', async () => {
    const { sent, fetch } = fakeFetch();
    const hooks = webhooks({ fetch });
    hooks.createSubscription('ORDERS_CREATE', { uri: 'https://a.test/hooks' }, '2026-07');
    hooks.createSubscription('ORDERS_CREATE', { uri: 'https://b.test/hooks' }, '2026-04');
    hooks.createSubscription('ORDERS_PAID', { uri: 'https://a.test/hooks' }, '2026-07');
    const deliveries = hooks.trigger([
      { topic: 'ORDERS_CREATE', payload: { id: 1, name: '#1001', note: 'x' } },
      { topic: 'ORDERS_PAID', payload: { id: 1 } },
      { topic: 'ORDERS_UPDATED', payload: { id: 2 } },
    ]);
    expect(deliveries.map((d) => d.status)).toEqual(['pending', 'pending', 'pending']);
    await hooks.idle();

    expect(sent.map((s) => [s.url, s.headers['X-Shopify-Topic'], s.body])).toEqual([
      ['https://a.test/hooks', 'orders/create', '{"id":1,"name":"#1001","note":"x"}'],
      ['https://b.test/hooks', 'orders/create', '{"id":1,"name":"#1001","note":"x"}'],
      ['https://a.test/hooks', 'orders/paid', '{"id":1}'],
    ]);
    for (const s of sent) {
      expect(s.headers['X-Shopify-Hmac-Sha256']).toBe(signWebhookBody(s.body, 'shpss_test_secret'));
      expect(s.headers['X-Shopify-Event-Id']).toBe(sent[0].headers['X-Shopify-Event-Id']);
      expect(s.headers).toMatchObject({
        'Content-Type': 'application/json',
        'X-Shopify-Shop-Domain': 'demo-shop.myshopify.com',
        'X-Shopify-Triggered-At': '2026-11-01T10:00:00.250000Z',
      });
    }
    expect(new Set(sent.map((s) => s.headers['X-Shopify-Webhook-Id'])).size).toBe(3);
    expect(sent.map((s) => s.headers['X-Shopify-API-Version'])).toEqual(['2026-07', '2026-04', '2026-07']);
    expect(hooks.deliveries.map((d) => [d.status, d.attempts, d.lastStatusCode])).toEqual([
      ['delivered', 1, 200],
      ['delivered', 1, 200],
      ['delivered', 1, 200],
    ]);
  });

  it('retries non-2xx answers and network failures with the same bytes, then gives up', async () => {
    const { sent, fetch } = fakeFetch([503, 'network', 200, 500, 500, 500, 500]);
    const hooks = webhooks({ fetch });
    hooks.createSubscription('ORDERS_CREATE', { uri: 'https://a.test/hooks' }, '2026-07');
    const [first] = hooks.trigger([{ topic: 'ORDERS_CREATE', payload: { id: 1 } }]);
    await hooks.idle();
    expect(first).toMatchObject({ status: 'delivered', attempts: 3, lastStatusCode: 200, lastError: null });
    expect(new Set(sent.map((s) => JSON.stringify(s)))).toHaveProperty('size', 1);

    const [second] = hooks.trigger([{ topic: 'ORDERS_CREATE', payload: { id: 2 } }]);
    await hooks.idle();
    expect(second).toMatchObject({ status: 'failed', attempts: 4, lastStatusCode: 500, lastError: 'HTTP 500' });
  });

  it('redelivers the identical request as a new log entry', async () => {
    const { sent, fetch } = fakeFetch();
    const hooks = webhooks({ fetch });
    hooks.createSubscription('ORDERS_CREATE', { uri: 'https://a.test/hooks' }, '2026-07');
    const [original] = hooks.trigger([{ topic: 'ORDERS_CREATE', payload: { id: 1 } }]);
    await hooks.idle();
    const again = hooks.redeliver(original.webhookId);
    await hooks.idle();
    expect(again).not.toBe(original);
    expect(again).toMatchObject({ webhookId: original.webhookId, eventId: original.eventId, status: 'delivered', attempts: 1 });
    expect(sent[1]).toEqual(sent[0]);
    expect(hooks.deliveries).toHaveLength(2);
    expect(() => hooks.redeliver('nope')).toThrow(/No webhook delivery nope/);
  });

  it('drops subscriptions, the log and pending retries on reset', async () => {
    const { sent, fetch } = fakeFetch([500]);
    const hooks = webhooks({ fetch, retryDelaysMs: [60_000] });
    hooks.createSubscription('ORDERS_CREATE', { uri: 'https://a.test/hooks' }, '2026-07');
    hooks.trigger([{ topic: 'ORDERS_CREATE', payload: { id: 1 } }]);
    const log = hooks.deliveries;
    // Let the first attempt fail; its retry then waits a minute.
    await new Promise((resolve) => setTimeout(resolve, 10));
    hooks.reset();
    await hooks.idle();
    expect(log).toEqual([]);
    expect(hooks.listSubscriptions()).toEqual([]);
    expect(sent).toHaveLength(1);
  });
});
