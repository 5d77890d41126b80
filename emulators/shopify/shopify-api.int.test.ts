/**
 * A second client, written by Shopify and not by this project, against the emulator:
 * `@shopify/shopify-api` gets a token with its client-credentials grant (the request it builds, its
 * parsing of the answer and of a refusal), uses it on the Admin GraphQL API, and validates the
 * emulator's webhook deliveries with its own HMAC and header checks.
 */
import '@shopify/shopify-api/adapters/node';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiVersion, HttpResponseError, LogSeverity, shopifyApi, type Session } from '@shopify/shopify-api';
import { setAbstractFetchFunc } from '@shopify/shopify-api/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DRAFT_CREATE_MUTATION,
  WEBHOOK_SUBSCRIBE_MUTATION,
  WEBHOOK_SUBSCRIPTIONS_QUERY,
  type DraftCreateResult,
  type WebhookSubscribeResult,
  type WebhookSubscriptionsResult,
} from '../../server/shopify';
import { EMULATOR_SHOP } from './admin-resolvers';
import { createShopifyEmulator, type ShopifyEmulator } from './index';

const CLIENT_ID = '5f0c3a1e9b7d4c2a8e6f1b3d5a7c9e0f';
const CLIENT_SECRET = '9a'.repeat(32);
const SHOP = EMULATOR_SHOP.myshopifyDomain;
const TTL_SECONDS = 3600;

function library(apiSecretKey = CLIENT_SECRET) {
  return shopifyApi({
    apiKey: CLIENT_ID,
    apiSecretKey,
    hostName: 'pogs-shop.example',
    apiVersion: ApiVersion.July26,
    isEmbeddedApp: false,
    logger: { level: LogSeverity.Error },
  });
}

interface Delivery {
  rawBody: string;
  rawRequest: http.IncomingMessage;
  rawResponse: http.ServerResponse;
}

describe('@shopify/shopify-api against the emulator', () => {
  let server: http.Server;
  let receiver: http.Server;
  let origin: string;
  let receiverUrl: string;
  let emulator: ShopifyEmulator;
  const requested: string[] = [];
  const deliveries: Delivery[] = [];

  beforeAll(async () => {
    server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    emulator = createShopifyEmulator({
      publicOrigin: origin,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      tokenTtlSeconds: TTL_SECONDS,
      webhookRetryDelaysMs: [5],
    });
    server.on('request', emulator.app.callback());

    // The library builds https://{shop}/...; its fetch hook sends that to the emulator instead.
    setAbstractFetchFunc((input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      requested.push(url.href);
      if (url.host !== SHOP) throw new Error(`Unexpected request to ${url.href}`);
      return fetch(origin + url.pathname + url.search, init);
    });

    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        deliveries.push({ rawBody: Buffer.concat(chunks).toString('utf8'), rawRequest: req, rawResponse: res });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/shopify`;
  });
  afterAll(async () => {
    setAbstractFetchFunc(globalThis.fetch);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  const adminRequest = async <T>(session: Session, query: string, variables?: Record<string, unknown>) => {
    const client = new (library().clients.Graphql)({ session });
    const response = await client.request<T>(query, { variables });
    return response.data!;
  };

  it('gets a token with auth.clientCredentials, which then works on the Admin GraphQL API', async () => {
    const before = Date.now();
    const { session } = await library().auth.clientCredentials({ shop: SHOP });
    expect(requested.at(-1)).toBe(`https://${SHOP}/admin/oauth/access_token`);
    expect(session.accessToken).toMatch(/^shpat_[0-9a-f]{32}$/);
    expect(session.shop).toBe(SHOP);
    expect(session.scope).toBe('read_products,read_inventory,write_draft_orders,read_orders');
    expect(session.isOnline).toBe(false);
    // The library turns expires_in into a date.
    expect(session.expires!.getTime()).toBeGreaterThanOrEqual(before + TTL_SECONDS * 1000);
    expect(session.expires!.getTime()).toBeLessThanOrEqual(Date.now() + TTL_SECONDS * 1000);
    expect(emulator.accessTokenGrants.at(-1)?.body).toBe('json');

    const data = await adminRequest<{ shop: { name: string; myshopifyDomain: string } }>(session, '{ shop { name myshopifyDomain } }');
    expect(data.shop).toEqual({ name: 'POGS Demo Shop', myshopifyDomain: SHOP });
    expect(requested.at(-1)).toBe(`https://${SHOP}/admin/api/2026-07/graphql.json`);

    // Once the token is expired, the library sees Shopify's 401.
    emulator.expireAccessTokens();
    const refused = await adminRequest(session, '{ shop { name } }').catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(HttpResponseError);
    expect((refused as HttpResponseError).response.code).toBe(401);
  });

  it('throws on a wrong client secret, carrying the 400 and invalid_client, and no token is minted', async () => {
    const granted = emulator.accessTokenGrants.length;
    const err = await library('0'.repeat(64))
      .auth.clientCredentials({ shop: SHOP })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpResponseError);
    const { response } = err as HttpResponseError;
    expect(response.code).toBe(400);
    expect(response.body).toEqual({
      error: 'invalid_client',
      error_description: 'Client authentication failed: the client id is unknown or the client secret is wrong.',
    });
    expect(emulator.accessTokenGrants).toHaveLength(granted);
  });

  it('validates an emulator webhook delivery with webhooks.validate, and rejects a tampered body', async () => {
    const { session } = await library().auth.clientCredentials({ shop: SHOP });
    const subscribed = await adminRequest<WebhookSubscribeResult>(session, WEBHOOK_SUBSCRIBE_MUTATION, {
      topic: 'ORDERS_CREATE',
      webhookSubscription: { uri: receiverUrl, format: 'JSON' },
    });
    expect(subscribed.webhookSubscriptionCreate.userErrors).toEqual([]);
    const listed = await adminRequest<WebhookSubscriptionsResult>(session, WEBHOOK_SUBSCRIPTIONS_QUERY, {
      first: 10,
      topics: ['ORDERS_CREATE'],
    });
    expect(listed.webhookSubscriptions.nodes).toEqual([
      { id: subscribed.webhookSubscriptionCreate.webhookSubscription!.id, topic: 'ORDERS_CREATE', uri: receiverUrl },
    ]);

    const variant = emulator.state.getProductByHandle('classic-hoodie')!.variants[0];
    const created = await adminRequest<DraftCreateResult>(session, DRAFT_CREATE_MUTATION, {
      input: { lineItems: [{ variantId: `gid://shopify/ProductVariant/${variant.legacyId}`, quantity: 1 }], tags: ['library-test'] },
    });
    const draft = created.draftOrderCreate.draftOrder!;
    const { order } = emulator.completeDraftOrder(draft.id, {
      firstName: 'Ada',
      address1: '1 Loop',
      city: 'Leeds',
      zip: 'LS1',
      countryCode: 'GB',
    });
    await emulator.webhooksIdle();

    expect(deliveries).toHaveLength(1);
    const [delivery] = deliveries;
    const sent = emulator.webhookDeliveries.find((d) => d.topic === 'orders/create')!;
    expect(delivery.rawBody).toBe(sent.body);

    const shopify = library();
    const valid = await shopify.webhooks.validate(delivery);
    expect(valid).toMatchObject({
      valid: true,
      webhookType: 'webhooks',
      topic: 'ORDERS_CREATE',
      domain: SHOP,
      apiVersion: '2026-07',
      webhookId: sent.webhookId,
      eventId: sent.eventId,
    });
    expect(JSON.parse(delivery.rawBody)).toMatchObject({ id: Number(order.legacyId) });

    const tampered = delivery.rawBody.replace('"library-test"', '"library-tesT"');
    expect(tampered).not.toBe(delivery.rawBody);
    expect(await shopify.webhooks.validate({ ...delivery, rawBody: tampered })).toEqual({ valid: false, reason: 'invalid_hmac' });
    // Another app's secret does not validate it either.
    expect(await library('1'.repeat(64)).webhooks.validate(delivery)).toEqual({ valid: false, reason: 'invalid_hmac' });
  });
});
