import { describe, expect, it } from 'vitest';
import { interpretWebhook, parseWebhookPayload } from './webhooks';

const TOPICS = ['draft_orders/update', 'orders/create', 'orders/fulfilled', 'fulfillments/create', 'products/update'];

describe('parseWebhookPayload', () => {
  it.each([
    null,
    [],
    5,
    'x',
    true,
    { note_attributes: 'x' },
    { id: {} },
    { status: 5 },
    { admin_graphql_api_id: {} },
    { order_id: 'abc' },
    { id: -1 },
    { admin_graphql_api_id: 'gid://shopify/Order/1\u0000' },
    { status: 'x'.repeat(1001) },
  ])('%j is not a body we can use', (body) => {
    expect(parseWebhookPayload(body)).toBeNull();
  });

  it('keeps the fields it reads and ignores the rest', () => {
    // An id past 2^53, as in Shopify's samples, parsed from the JSON text as the webhook route
    // does: kept as the nearest double (only ever a fallback).
    const body = JSON.parse(`{
      "id": 890612572568261625,
      "admin_graphql_api_id": "gid://shopify/DraftOrder/890612572568261625",
      "status": "completed",
      "order_id": null,
      "line_items": [{ "id": 1 }],
      "shipping_address": { "city": "Shippington" },
      "note_attributes": [{ "name": "pogs_order_id", "value": "order-1" }]
    }`);
    expect(parseWebhookPayload(body)).toEqual({
      id: body.id,
      admin_graphql_api_id: 'gid://shopify/DraftOrder/890612572568261625',
      status: 'completed',
      order_id: null,
      note_attributes: [{ name: 'pogs_order_id', value: 'order-1' }],
    });
  });

  it('skips note attributes it cannot read (other apps add theirs)', () => {
    const parsed = parseWebhookPayload({
      note_attributes: [
        null,
        5,
        'x',
        { name: 7, value: 'a' },
        { name: 'pogs_order_id', value: { nested: true } },
        { key: 'pogs_order_id', value: 'order-2' },
      ],
    });
    expect(parsed?.note_attributes).toEqual([{ key: 'pogs_order_id', value: 'order-2' }]);
    expect(interpretWebhook('orders/fulfilled', parsed!)).toMatchObject({ find: { ourId: 'order-2' } });
  });
});

describe('interpretWebhook', () => {
  it('reads the four order topics', () => {
    expect(
      interpretWebhook('draft_orders/update', {
        status: 'completed',
        admin_graphql_api_id: 'gid://shopify/DraftOrder/7',
        order_id: 9,
        note_attributes: [{ name: 'pogs_order_id', value: 'o1' }],
      }),
    ).toEqual({
      find: { draftId: 'gid://shopify/DraftOrder/7', ourId: 'o1' },
      event: 'shipping-received',
      shopifyOrderId: 'gid://shopify/Order/9',
    });
    expect(interpretWebhook('draft_orders/update', { status: 'open', admin_graphql_api_id: 'gid://shopify/DraftOrder/7' })).toBeNull();
    expect(interpretWebhook('orders/create', { id: 9 })).toEqual({
      find: { shopifyOrderId: 'gid://shopify/Order/9', ourId: undefined },
      event: 'shipping-received',
      shopifyOrderId: 'gid://shopify/Order/9',
    });
    // The order's name comes with orders/create only (a draft's "#D1" is not an order's name).
    expect(interpretWebhook('orders/create', { id: 9, name: '#1001' })).toMatchObject({ shopifyOrderName: '#1001' });
    expect(
      interpretWebhook('draft_orders/update', { status: 'completed', admin_graphql_api_id: 'gid://shopify/DraftOrder/7', name: '#D1' }),
    ).not.toHaveProperty('shopifyOrderName');
    expect(interpretWebhook('orders/fulfilled', { admin_graphql_api_id: 'gid://shopify/Order/9' })).toMatchObject({
      event: 'fulfilled',
      find: { shopifyOrderId: 'gid://shopify/Order/9' },
    });
    expect(interpretWebhook('fulfillments/create', { status: 'success', order_id: '9' })).toEqual({
      find: { shopifyOrderId: 'gid://shopify/Order/9' },
      event: 'fulfilled',
    });
    expect(interpretWebhook('fulfillments/create', { status: 'failure', order_id: 9 })).toBeNull();
    expect(interpretWebhook('products/update', { id: 9 })).toBeNull();
  });

  it.each(TOPICS)('never throws on an empty body (%s)', (topic) => {
    expect(() => interpretWebhook(topic, parseWebhookPayload({})!)).not.toThrow();
  });
});

describe('tracking links of fulfilment webhooks', () => {
  const read = (topic: string, body: unknown) => interpretWebhook(topic, parseWebhookPayload(body)!);

  it('takes the first usable link of a fulfilment (tracking_urls, then tracking_url)', () => {
    expect(read('fulfillments/create', { order_id: 7, status: 'success', tracking_urls: ['https://t.example/1'] })).toMatchObject({
      event: 'fulfilled',
      trackingUrl: 'https://t.example/1',
    });
    expect(read('fulfillments/create', { order_id: 7, tracking_urls: ['ftp://x'], tracking_url: 'https://t.example/2' })?.trackingUrl).toBe(
      'https://t.example/2',
    );
    expect(read('fulfillments/create', { order_id: 7, tracking_urls: [], tracking_url: null })).not.toHaveProperty('trackingUrl');
  });

  it('takes an order’s newest fulfilment that has one, and ignores tracking fields it cannot read', () => {
    const order = {
      id: 7,
      fulfillments: [{ tracking_urls: ['https://t.example/old'] }, { tracking_urls: [] }, { tracking_url: 'https://t.example/new' }],
    };
    expect(read('orders/fulfilled', order)?.trackingUrl).toBe('https://t.example/new');
    expect(read('orders/fulfilled', { id: 7, fulfillments: 'x', tracking_urls: 5 })).toMatchObject({ event: 'fulfilled' });
    expect(read('orders/fulfilled', { id: 7, fulfillments: 'x' })).not.toHaveProperty('trackingUrl');
  });
});
