import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdminApiClient, type ClientResponse } from '@shopify/admin-api-client';
import Koa from 'koa';
import mount from 'koa-mount';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DRAFT_BY_TAG_QUERY,
  DRAFT_CREATE_MUTATION,
  DRAFT_STATUS_QUERY,
  PRODUCT_VARIANTS_QUERY,
  PRODUCTS_PAGE_QUERY,
  ShopifyGraphql,
  WEBHOOK_SUBSCRIBE_MUTATION,
  WEBHOOK_SUBSCRIPTIONS_QUERY,
  type DraftCreateResult,
  type ProductsPageResult,
  type ProductVariantsResult,
  type WebhookSubscriptionsResult,
} from '../../server/shopify';
import { createShopifyEmulator, type ShopifyEmulator, type ShopifyEmulatorOptions } from './index';

// The GraphQL documents here are the shop's own (server/shopify/documents.ts), imported, so the
// emulator is tested against exactly what the catalogue sync, the order hand-off and the webhook
// subscription send. The inline ones are requests the shop never makes (errors, limits, throttling).

const TOKEN = 'shpat_emulator_test';
const SECRET = 'shpss_emulator_test_secret';

interface Running {
  origin: string;
  emulator: ShopifyEmulator;
  client: (token?: string) => ReturnType<typeof createAdminApiClient>;
  close: () => Promise<void>;
}

// The public origin must be known before the emulator is built (image and invoice URLs use it),
// so the HTTP server is bound to an ephemeral port first and the Koa app attached afterwards.
// With `mountPath` the emulator sits under that prefix, as in the app (/shopify-emulator).
async function startEmulator(extra: Partial<ShopifyEmulatorOptions> = {}, mountPath = ''): Promise<Running> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}${mountPath}`;
  const emulator = createShopifyEmulator({ publicOrigin: origin, accessToken: TOKEN, clientSecret: SECRET, ...extra });
  server.on('request', (mountPath ? new Koa().use(mount(mountPath, emulator.app)) : emulator.app).callback());
  const client = (token = TOKEN) =>
    createAdminApiClient({
      storeDomain: 'demo-shop.myshopify.com',
      apiVersion: '2026-07',
      accessToken: token,
      retries: 0,
      // @shopify/admin-api-client forces https://<storeDomain>, so customFetchApi rewrites the origin.
      customFetchApi: (url, init) => {
        const u = new URL(url);
        return fetch(origin + u.pathname + u.search, init);
      },
    });
  return { origin, emulator, client, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const gid = (type: string, id: string) => `gid://shopify/${type}/${id}`;
const legacyIdOf = (gidValue: string) => gidValue.split('/').pop()!;

describe('Shopify emulator driven by the real @shopify/admin-api-client', () => {
  let run: Running;
  const clock = Date.parse('2026-11-01T00:00:00Z');

  beforeAll(async () => {
    run = await startEmulator({ now: () => clock });
  });
  afterAll(() => run.close());
  beforeEach(() => {
    run.emulator.reset();
  });

  it('pages the whole catalogue with first: 5, every product exactly once, while the bucket drains', async () => {
    const client = run.client();
    const seen: ProductsPageResult['products']['nodes'] = [];
    const available: number[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const { data, errors, extensions }: ClientResponse<ProductsPageResult> = await client.request(PRODUCTS_PAGE_QUERY, {
        variables: { first: 5, after, variantsFirst: 10, mediaFirst: 10 },
      });
      expect(errors).toBeUndefined();
      const cost = extensions!.cost as {
        requestedQueryCost: number;
        actualQueryCost: number;
        throttleStatus: { currentlyAvailable: number };
      };
      // products 2+5, media and variants 5 × (2+10) each, five plain objects once each
      expect(cost.requestedQueryCost).toBe(7 + 5 * 12 + 5 * 12 + 5);
      expect(cost.actualQueryCost).toBeGreaterThan(0);
      expect(cost.actualQueryCost).toBeLessThan(cost.requestedQueryCost);
      available.push(cost.throttleStatus.currentlyAvailable);
      seen.push(...data!.products.nodes);
      after = data!.products.pageInfo.hasNextPage ? data!.products.pageInfo.endCursor : null;
      pages++;
    } while (after && pages < 50);

    const all = run.emulator.state.listProducts();
    expect(pages).toBe(Math.ceil(all.length / 5));
    expect(seen.map((p) => p.id).sort()).toEqual(all.map((p) => gid('Product', p.legacyId)).sort());
    expect(new Set(seen.map((p) => p.id)).size).toBe(seen.length);
    // sortKey: ID
    const ids = seen.map((p) => Number(p.legacyResourceId));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    // the clock is frozen, so every call leaves strictly less in the bucket
    expect(available[0]).toBeLessThan(2000);
    for (let i = 1; i < available.length; i++) expect(available[i]).toBeLessThan(available[i - 1]);

    const hoodie = seen.find((p) => p.handle === 'classic-hoodie')!;
    expect(hoodie.variants.nodes).toHaveLength(10);
    expect(hoodie.variants.pageInfo.hasNextPage).toBe(true);
    expect(hoodie.variants.nodes[0]).toMatchObject({ title: 'Black / S', availableForSale: true, inventoryQuantity: 8, price: '64.99' });
    expect(hoodie.variants.nodes[1]).toMatchObject({ title: 'Black / M', availableForSale: false, inventoryQuantity: 0 });
    expect(hoodie.featuredMedia!.image!.url).toBe(`${run.origin}/cdn/images/classic-hoodie-1.svg`);
    expect(seen.find((p) => p.handle === 'sticker-sheet-vol-1')).toMatchObject({ featuredMedia: null, media: { nodes: [] } });
  });

  it('pages a product’s variants beyond the first page', async () => {
    const client = run.client();
    const hoodie = run.emulator.state.getProductByHandle('classic-hoodie')!;
    const page = async (after?: string | null) =>
      (
        await client.request<ProductVariantsResult>(PRODUCT_VARIANTS_QUERY, {
          variables: { id: gid('Product', hoodie.legacyId), first: 10, after },
        })
      ).data!.product!.variants;
    const first = await page();
    expect(first.nodes).toHaveLength(10);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const rest = await page(first.pageInfo.endCursor);
    expect(rest.pageInfo.hasNextPage).toBe(false);
    const titles = [...first.nodes, ...rest.nodes].map((v) => v.title);
    expect(titles).toEqual(hoodie.variants.map((v) => v.title));
  });

  it('returns null for unknown ids', async () => {
    const client = run.client();
    const missing = await client.request('{ product(id: "gid://shopify/Product/1") { id } }');
    expect(missing.errors).toBeUndefined();
    expect(missing.data.product).toBeNull();
  });

  it('answers THROTTLED exactly like Shopify when told to, then recovers', async () => {
    const client = run.client();
    run.emulator.throttleNext(1);
    const throttled = await client.request('{ products(first: 10) { nodes { id } } }');
    expect(throttled.data).toBeUndefined();
    expect(throttled.errors?.networkStatusCode).toBe(200);
    expect(throttled.errors?.graphQLErrors?.[0]).toEqual({
      message: 'Throttled',
      extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' },
    });
    expect(throttled.extensions?.cost).toEqual({
      requestedQueryCost: 12,
      actualQueryCost: null,
      throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 2000, restoreRate: 100 },
    });

    const ok = await client.request('{ products(first: 10) { nodes { id } } }');
    expect(ok.errors).toBeUndefined();
    expect(ok.data.products.nodes).toHaveLength(10);
    expect(run.emulator.requestLog.map((r) => r.throttled)).toEqual([true, false]);

    run.emulator.throttleNext(2);
    for (let i = 0; i < 2; i++) {
      const again = await client.request('{ shop { name } }');
      expect(again.errors?.graphQLErrors?.[0].extensions?.code).toBe('THROTTLED');
    }
    expect((await client.request('{ shop { name } }')).errors).toBeUndefined();
  });

  it('rejects a wrong access token with HTTP 401 and Shopify’s body', async () => {
    const { data, errors } = await run.client('shpat_wrong').request('{ shop { name } }');
    expect(data).toBeUndefined();
    expect(errors?.networkStatusCode).toBe(401);
    const raw = await fetch(`${run.origin}/admin/api/2026-07/graphql.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ shop { name } }' }),
    });
    expect(raw.status).toBe(401);
    expect(await raw.json()).toEqual({ errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' });
    // Both refusals are in the log, as refusals.
    expect(run.emulator.requestLog.map((e) => e.status)).toEqual([401, 401]);
  });

  it('reports unknown fields as GraphQL errors with HTTP 200', async () => {
    const query = 'query Broken { products(first: 1) { nodes { id testField } } }';
    const { data, errors, extensions } = await run.client().request(query);
    expect(data).toBeUndefined();
    expect(errors?.networkStatusCode).toBe(200);
    expect(errors?.graphQLErrors).toEqual([
      {
        message: "Field 'testField' doesn't exist on type 'Product'",
        locations: [{ line: 1, column: query.indexOf('testField') + 1 }],
        path: ['query Broken', 'products', 'nodes', 'testField'],
        extensions: { code: 'undefinedField', typeName: 'Product', fieldName: 'testField' },
      },
    ]);
    expect(extensions?.cost).toBeDefined();
  });

  it('rejects queries over the 1,000-point limit and page sizes over 250 without charging the bucket', async () => {
    const client = run.client();
    const tooDear = await client.request(PRODUCTS_PAGE_QUERY, { variables: { first: 50, variantsFirst: 50, mediaFirst: 10 } });
    expect(tooDear.data).toBeUndefined();
    const error = tooDear.errors?.graphQLErrors?.[0];
    expect(error?.extensions).toMatchObject({ code: 'MAX_COST_EXCEEDED', maxCost: 1000 });
    expect(error?.message).toMatch(/^Query cost is \d+, which exceeds the single query max cost limit \(1000\)\./);
    const cost = tooDear.extensions?.cost as {
      requestedQueryCost: number;
      actualQueryCost: null;
      throttleStatus: { currentlyAvailable: number };
    };
    expect(cost.requestedQueryCost).toBeGreaterThan(1000);
    expect(cost.actualQueryCost).toBeNull();
    expect(cost.throttleStatus.currentlyAvailable).toBe(2000);

    const tooBig = await client.request('{ products(first: 251) { nodes { id } } }');
    expect(tooBig.errors?.graphQLErrors?.[0].message).toContain('invalid value (251)');
    const missing = await client.request('{ products { nodes { id } } }');
    expect(missing.errors?.graphQLErrors?.[0].message).toBe('you must provide one of first or last');
  });

  it('fails the next calls with 429 + Retry-After or 503 on request', async () => {
    const client = run.client();
    run.emulator.failNext(1, 429, 3);
    const limited = await client.request('{ shop { name } }');
    expect(limited.errors?.networkStatusCode).toBe(429);
    expect(limited.errors?.response?.headers.get('Retry-After')).toBe('3');
    run.emulator.failNext(1, 503);
    expect((await client.request('{ shop { name } }')).errors?.networkStatusCode).toBe(503);
    const ok = await client.request('{ shop { name } }');
    expect(ok.data.shop.name).toBe('POGS Demo Shop');
    expect(run.emulator.requestLog.map((r) => r.status)).toEqual([429, 503, 200]);
  });

  it('shows an upserted product on the next query and hides it once deleted', async () => {
    const client = run.client();
    const post = (body: unknown) =>
      fetch(`${run.origin}/__emulator/products`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const created = await post({
      title: 'Glow-in-the-Dark Slammer',
      productType: 'Slammers',
      images: [{ alt: 'Glowing' }],
      variants: [{ price: '12.50', inventoryQuantity: 4, sku: 'PG-SLM-GLOW' }],
    });
    expect(created.status).toBe(200);
    const { product } = (await created.json()) as { product: { legacyId: string; updatedAt: string } };
    const id = gid('Product', product.legacyId);
    const latestDemo = '2026-09-15T09:45:00Z';
    expect(Date.parse(product.updatedAt)).toBeGreaterThan(Date.parse(latestDemo));

    const changed = await client.request(
      `{ product(id: "${id}") { id title updatedAt featuredMedia { ... on MediaImage { image { url } } } variants(first: 5) { nodes { price sku availableForSale } } } }`,
    );
    expect(changed.data.product).toEqual({
      id,
      title: 'Glow-in-the-Dark Slammer',
      updatedAt: product.updatedAt,
      featuredMedia: { image: { url: `${run.origin}/cdn/images/glow-in-the-dark-slammer-1.svg` } },
      variants: { nodes: [{ price: '12.50', sku: 'PG-SLM-GLOW', availableForSale: true }] },
    });
    const { data: all } = await client.request('{ products(first: 250) { nodes { id } } }');
    expect(all.products.nodes.at(-1)).toEqual({ id });

    const updated = (await (await post({ legacyId: product.legacyId, title: 'Glow Slammer' })).json()) as {
      product: { updatedAt: string };
    };
    expect(Date.parse(updated.product.updatedAt)).toBeGreaterThan(Date.parse(product.updatedAt));
    expect((await client.request(`{ product(id: "${id}") { title } }`)).data.product.title).toBe('Glow Slammer');

    expect((await post({ title: 'x', variants: [{ price: 'free' }] })).status).toBe(400);

    run.emulator.deleteProduct(product.legacyId);
    expect((await client.request(`{ product(id: "${id}") { title } }`)).data.product).toBeNull();
    const { data: after } = await client.request('{ products(first: 250) { nodes { id } } }');
    expect(after.products.nodes).toHaveLength(run.emulator.state.listProducts().length);
    expect(after.products.nodes).not.toContainEqual({ id });
  });

  it('serves generated product images as cacheable SVG', async () => {
    const res = await fetch(`${run.origin}/cdn/images/classic-hoodie-2.svg`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(res.headers.get('cache-control')).toMatch(/max-age=\d{6,}/);
    const svg = await res.text();
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('Classic Hoodie');
    expect(svg).not.toBe(await (await fetch(`${run.origin}/cdn/images/classic-hoodie-1.svg`)).text());
    expect((await fetch(`${run.origin}/cdn/images/classic-hoodie-5.svg`)).status).toBe(404);
    expect((await fetch(`${run.origin}/cdn/images/no-such-product-1.svg`)).status).toBe(404);
  });

  it("answers the CDN's width and height parameters as Shopify's CDN does: smaller, never larger than the original", async () => {
    const svgSize = async (query: string) => {
      const res = await fetch(`${run.origin}/cdn/images/classic-hoodie-1.svg${query}`);
      expect(res.status, query).toBe(200);
      expect(res.headers.get('cache-control'), query).toMatch(/max-age=\d{6,}/);
      const svg = await res.text();
      expect(svg, query).toContain('viewBox="0 0 800 800"');
      const [, width, height] = /^<svg[^>]* width="(\d+)" height="(\d+)"/.exec(svg) ?? [];
      return `${width}x${height}`;
    };
    expect(await svgSize('')).toBe('800x800');
    expect(await svgSize('?width=400')).toBe('400x400');
    expect(await svgSize('?v=1700000000&width=200')).toBe('200x200');
    expect(await svgSize('?height=300')).toBe('300x300');
    // Both: the picture fits inside the box (it keeps its square aspect).
    expect(await svgSize('?width=600&height=250')).toBe('250x250');
    // Never enlarged past the original.
    expect(await svgSize('?width=1200')).toBe('800x800');
    // Values that are not positive whole numbers are ignored: the original.
    for (const odd of ['?width=abc', '?width=0', '?width=-5', '?width=12.5', '?width=', '?width=1e3'])
      expect(await svgSize(odd)).toBe('800x800');
    // The same drawing, scaled: only the size attributes differ.
    const small = await (await fetch(`${run.origin}/cdn/images/classic-hoodie-1.svg?width=400`)).text();
    const full = await (await fetch(`${run.origin}/cdn/images/classic-hoodie-1.svg`)).text();
    expect(small.replace('width="400" height="400"', 'width="800" height="800"')).toBe(full);
  });

  it('404s unknown API versions and logs operations with their variables', async () => {
    const body = JSON.stringify({ query: '{ shop { name } }' });
    const headers = { 'content-type': 'application/json', 'x-shopify-access-token': TOKEN };
    expect((await fetch(`${run.origin}/admin/api/2026-02/graphql.json`, { method: 'POST', headers, body })).status).toBe(404);
    const unstable = await fetch(`${run.origin}/admin/api/unstable/graphql.json`, { method: 'POST', headers, body });
    expect(unstable.status).toBe(200);
    expect(unstable.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);

    await run.client().request(PRODUCTS_PAGE_QUERY, { variables: { first: 1, variantsFirst: 1, mediaFirst: 1 } });
    expect(run.emulator.requestLog.at(-1)).toMatchObject({
      operationName: 'CataloguePage',
      variables: { first: 1, variantsFirst: 1, mediaFirst: 1 },
    });
  });
});

describe('Shopify emulator leaky bucket over HTTP', () => {
  it('throttles naturally when the bucket runs dry and recovers as time passes', async () => {
    let clock = 0;
    const run = await startEmulator({ now: () => clock, bucket: { maximumAvailable: 100, restoreRate: 10 } });
    try {
      const client = run.client();
      const products = run.emulator.state.listProducts().length;
      const query = '{ products(first: 50) { nodes { id } } }'; // requested 52, actual 2 + products
      const refund = 52 - (2 + products);
      const costOf = async () =>
        (await client.request(query)).extensions!.cost as {
          actualQueryCost: number | null;
          throttleStatus: { currentlyAvailable: number };
        };

      expect((await costOf()).throttleStatus.currentlyAvailable).toBe(100 - 52 + refund);
      expect((await costOf()).throttleStatus.currentlyAvailable).toBe(100 - 2 * (52 - refund));
      const left = 100 - 2 * (52 - refund);
      expect(left).toBeLessThan(52);

      const throttled = await client.request(query);
      expect(throttled.errors?.graphQLErrors?.[0].extensions?.code).toBe('THROTTLED');
      expect(throttled.extensions?.cost).toMatchObject({ actualQueryCost: null, throttleStatus: { currentlyAvailable: left } });

      clock += Math.ceil((52 - left) / 10) * 1000;
      const recovered = await client.request(query);
      expect(recovered.errors).toBeUndefined();
    } finally {
      await run.close();
    }
  });
});

interface ReceivedWebhook {
  headers: http.IncomingHttpHeaders;
  rawBody: Buffer;
}

interface Receiver {
  url: string;
  received: ReceivedWebhook[];
  /** The next n requests are answered with HTTP 500. */
  failNext: { count: number };
  close: () => Promise<void>;
}

// A stand-in for the app's webhook endpoint: keeps the raw bytes, as an HMAC check must.
async function startReceiver(): Promise<Receiver> {
  const received: ReceivedWebhook[] = [];
  const failNext = { count: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, rawBody: Buffer.concat(chunks) });
      const fail = failNext.count > 0;
      if (fail) failNext.count -= 1;
      res.statusCode = fail ? 500 : 200;
      res.end(fail ? 'boom' : 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/shopify`,
    received,
    failNext,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Shopify's webhook HMAC check: base64 HMAC-SHA256 over the raw bytes, constant-time compare. */
function verifyShopifyWebhook(rawBody: Buffer, hmacHeader: string | undefined, secret: string): boolean {
  if (!hmacHeader || rawBody.length === 0) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  const got = Buffer.from(hmacHeader, 'base64');
  return got.length === expected.length && timingSafeEqual(got, expected);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const CHECKOUT_FORM = {
  email: 'buyer@example.com',
  firstName: 'Priya',
  lastName: 'Ahir',
  address1: 'D 10 Sterling Oasis',
  address2: '',
  city: 'Bhopal',
  zip: '462026',
  country: 'IN',
};

const ADDRESS = { firstName: 'Priya', lastName: 'Ahir', address1: 'D 10 Sterling Oasis', city: 'Bhopal', zip: '462026', countryCode: 'IN' };

describe('Shopify emulator: draft orders, the hosted invoice and webhooks', () => {
  let run: Running;
  let receiver: Receiver;
  const clock = Date.parse('2026-11-01T00:00:00Z');

  beforeAll(async () => {
    run = await startEmulator({ now: () => clock, webhookRetryDelaysMs: [5, 5, 5] });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await run.close();
    await receiver.close();
  });
  beforeEach(() => {
    run.emulator.reset();
    receiver.received.length = 0;
    receiver.failNext.count = 0;
  });

  const variantGid = (handle: string, index = 0) =>
    gid('ProductVariant', run.emulator.state.getProductByHandle(handle)!.variants[index].legacyId);

  // The hand-off's draftOrderCreate input: a paid-in-crypto order, free to the shopper.
  const paidInput = (payref = 'pay_01JABCDEF') => ({
    note: `Prepaid in POG. payment_ref=${payref}`,
    tags: ['crypto-paid', `payref-${payref}`],
    customAttributes: [
      { key: 'payment_ref', value: payref },
      { key: 'chain_tx', value: '0x5f2c0000e91a' },
    ],
    lineItems: [
      { variantId: variantGid('classic-hoodie'), quantity: 1 },
      { variantId: variantGid('classic-hoodie', 2), quantity: 2 },
    ],
    appliedDiscount: { title: 'Paid with POG', description: 'Prepaid off-platform', value: 100.0, valueType: 'PERCENTAGE' },
    taxExempt: true,
    shippingLine: { title: 'Free shipping', priceWithCurrency: { amount: '0.00', currencyCode: 'USD' } },
    sourceName: 'pogs-shop',
  });

  const createDraft = async (input: Record<string, unknown> = paidInput()) => {
    const res: ClientResponse<DraftCreateResult> = await run.client().request(DRAFT_CREATE_MUTATION, { variables: { input } });
    expect(res.errors).toBeUndefined();
    return res;
  };

  const subscribe = async (topic: string, uri = receiver.url) =>
    run.client().request(WEBHOOK_SUBSCRIBE_MUTATION, { variables: { topic, webhookSubscription: { uri, format: 'JSON' } } });

  const submitInvoice = (url: string, form: Record<string, string>) =>
    fetch(url, { method: 'POST', body: new URLSearchParams(form), redirect: 'manual' });

  const listedDrafts = async () =>
    ((await (await fetch(`${run.origin}/__emulator/draft-orders`)).json()) as { draftOrders: Array<Record<string, unknown>> }).draftOrders;
  const listedSubscriptions = async () =>
    ((await (await fetch(`${run.origin}/__emulator/webhooks`)).json()) as { subscriptions: Array<Record<string, unknown>> }).subscriptions;

  const received = (topic: string) => receiver.received.filter((r) => r.headers['x-shopify-topic'] === topic);
  const json = (r: ReceivedWebhook) => JSON.parse(r.rawBody.toString('utf8')) as Record<string, unknown>;

  it('lists the webhook subscriptions to the shop’s own query, through its client, filtered by topic', async () => {
    const second = `${receiver.url}?copy=2`;
    for (const [topic, uri] of [
      ['ORDERS_CREATE', receiver.url],
      ['ORDERS_PAID', receiver.url],
      ['ORDERS_CREATE', second],
    ]) {
      expect((await subscribe(topic, uri)).data.webhookSubscriptionCreate.userErrors).toEqual([]);
    }
    const shopify = new ShopifyGraphql({
      storeDomain: 'demo-shop.myshopify.com',
      apiVersion: '2026-07',
      accessToken: TOKEN,
      originOverride: run.origin,
    });
    const list = async (variables: Record<string, unknown>) =>
      shopify.query<WebhookSubscriptionsResult>(WEBHOOK_SUBSCRIPTIONS_QUERY, variables);

    const all = await list({ first: 50 });
    const subscriptionGid = expect.stringMatching(/^gid:\/\/shopify\/WebhookSubscription\/\d+$/);
    expect(all.data.webhookSubscriptions.nodes).toEqual([
      { id: subscriptionGid, topic: 'ORDERS_CREATE', uri: receiver.url },
      { id: subscriptionGid, topic: 'ORDERS_PAID', uri: receiver.url },
      { id: subscriptionGid, topic: 'ORDERS_CREATE', uri: second },
    ]);
    // A connection costs 2 + its page size; what came back, 2 + the nodes returned.
    expect(all.cost).toMatchObject({ requestedQueryCost: 52, actualQueryCost: 5 });

    const created = await list({ first: 50, topics: ['ORDERS_CREATE'] });
    expect(created.data.webhookSubscriptions.nodes.map((n) => n.uri)).toEqual([receiver.url, second]);
    const both = await list({ first: 50, topics: ['ORDERS_PAID', 'ORDERS_CREATE'] });
    expect(both.data.webhookSubscriptions.nodes).toEqual(all.data.webhookSubscriptions.nodes);
    expect((await list({ first: 50, topics: ['FULFILLMENTS_CREATE'] })).data.webhookSubscriptions.nodes).toEqual([]);
    expect((await list({ first: 1 })).data.webhookSubscriptions.nodes).toEqual(all.data.webhookSubscriptions.nodes.slice(0, 1));
    // Same answers as the emulator's own list.
    expect((await listedSubscriptions()).map((s) => `gid://shopify/WebhookSubscription/${String(s.legacyId)}`)).toEqual(
      all.data.webhookSubscriptions.nodes.map((n) => n.id),
    );
  });

  it('pages webhook subscriptions and refuses a topic it does not know', async () => {
    await subscribe('ORDERS_CREATE');
    await subscribe('ORDERS_PAID');
    const page = async (after: string | null) =>
      (
        await run.client().request<{
          webhookSubscriptions: { nodes: Array<{ topic: string }>; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
        }>('query ($after: String) { webhookSubscriptions(first: 1, after: $after) { nodes { topic } pageInfo { hasNextPage endCursor } } }', {
          variables: { after },
        })
      ).data!.webhookSubscriptions;
    const first = await page(null);
    expect(first).toMatchObject({ nodes: [{ topic: 'ORDERS_CREATE' }], pageInfo: { hasNextPage: true } });
    const next = await page(first.pageInfo.endCursor);
    expect(next).toMatchObject({ nodes: [{ topic: 'ORDERS_PAID' }], pageInfo: { hasNextPage: false } });
    const unknown = await run.client().request('{ webhookSubscriptions(first: 5, topics: [NOT_A_TOPIC]) { nodes { id } } }');
    expect(unknown.data).toBeUndefined();
    expect(unknown.errors?.graphQLErrors?.[0].message).toMatch(/NOT_A_TOPIC/);
  });

  it('creates the hand-off’s draft order: 100% discount and $0 shipping make a zero total', async () => {
    const { data, extensions } = await createDraft();
    const { draftOrder, userErrors } = data!.draftOrderCreate;
    expect(userErrors).toEqual([]);
    expect(draftOrder).toEqual({
      id: expect.stringMatching(/^gid:\/\/shopify\/DraftOrder\/\d+$/),
      name: '#D1',
      status: 'OPEN',
      invoiceUrl: expect.stringMatching(new RegExp(`^${run.origin}/548380009/invoices/[0-9a-f]{32}$`)),
    });
    expect(extensions?.cost).toMatchObject({ requestedQueryCost: 10, actualQueryCost: 10 });

    const { data: read } = await run.client().request(DRAFT_STATUS_QUERY, { variables: { id: draftOrder!.id } });
    expect(read.draftOrder).toEqual({ id: draftOrder!.id, status: 'OPEN', invoiceUrl: draftOrder!.invoiceUrl, order: null });

    // Priced from the catalogue (64.99 + 2 × 64.99), then discounted to nothing.
    const [stored] = await listedDrafts();
    expect(stored).toMatchObject({
      id: draftOrder!.id,
      totalPrice: '0.00',
      note: 'Prepaid in POG. payment_ref=pay_01JABCDEF',
      tags: ['crypto-paid', 'payref-pay_01JABCDEF'],
      customAttributes: [
        { key: 'payment_ref', value: 'pay_01JABCDEF' },
        { key: 'chain_tx', value: '0x5f2c0000e91a' },
      ],
    });
    const [line] = run.emulator.orders.listDraftOrders()[0].lineItems;
    expect(line).toMatchObject({ title: 'Classic Hoodie', quantity: 1, unitCents: 6499 });

    // Without the discount the catalogue price and the shipping line add up.
    const priced = await createDraft({
      lineItems: [{ variantId: variantGid('classic-hoodie'), quantity: 2 }],
      shippingLine: { title: 'Standard', priceWithCurrency: { amount: '4.50', currencyCode: 'USD' } },
    });
    const pricedId = priced.data!.draftOrderCreate.draftOrder!.id;
    expect((await listedDrafts()).find((d) => d.id === pricedId)).toMatchObject({ totalPrice: '134.48' });
  });

  it('answers Shopify’s userErrors for bad input and creates nothing', async () => {
    const errorsFor = async (input: Record<string, unknown>) => (await createDraft(input)).data!.draftOrderCreate;
    expect(await errorsFor({ lineItems: [{ variantId: 'gid://shopify/ProductVariant/999999', quantity: 1 }] })).toEqual({
      draftOrder: null,
      userErrors: [{ field: null, message: 'Product with ID 999999 is no longer available.' }],
    });
    expect((await errorsFor({ lineItems: [{ variantId: variantGid('classic-hoodie'), quantity: 0 }] })).userErrors).toEqual([
      { field: ['lineItems', '0', 'quantity'], message: 'Quantity must be greater than or equal to 1' },
    ]);
    expect((await errorsFor({ lineItems: [] })).userErrors).toEqual([{ field: null, message: 'Add at least 1 product' }]);
    expect((await errorsFor({ ...paidInput(), tags: ['pogs-order-0123456789abcdef0123456789abcdef'] })).userErrors).toEqual([
      { field: ['tags', '0'], message: 'Title Tag exceeds the maximum length of 40 characters' },
    ]);
    expect(run.emulator.orders.listDraftOrders()).toEqual([]);

    // Over 499 lines Shopify refuses the request itself: a top-level error and no data.
    const tooMany = await run.client().request(DRAFT_CREATE_MUTATION, {
      variables: { input: { lineItems: Array.from({ length: 500 }, () => ({ variantId: variantGid('classic-hoodie'), quantity: 1 })) } },
    });
    expect(tooMany.data).toBeUndefined();
    expect(tooMany.errors?.graphQLErrors).toEqual([
      {
        message: 'The input array size of 500 is greater than the maximum allowed of 499.',
        locations: [{ line: 3, column: 5 }],
        path: ['draftOrderCreate', 'input', 'lineItems'],
        extensions: { code: 'MAX_INPUT_SIZE_EXCEEDED' },
      },
    ]);
    expect(tooMany.extensions?.cost).toMatchObject({ requestedQueryCost: 10, actualQueryCost: null });
    expect(run.emulator.orders.listDraftOrders()).toEqual([]);
  });

  it('finds a draft by its tag, as the hand-off does before it retries a create', async () => {
    await createDraft(paidInput('pay_A'));
    const b = (await createDraft(paidInput('pay_B'))).data!.draftOrderCreate.draftOrder!;
    const find = (query: string) => run.client().request(DRAFT_BY_TAG_QUERY, { variables: { query } });
    expect((await find('tag:payref-pay_B')).data.draftOrders.nodes).toEqual([b]);
    expect((await find('tag:payref-pay_C')).data.draftOrders.nodes).toEqual([]);
  });

  it('subscribes to webhooks and refuses the same address twice for a topic', async () => {
    const first = await subscribe('ORDERS_CREATE');
    expect(first.data.webhookSubscriptionCreate).toEqual({
      webhookSubscription: { id: expect.stringMatching(/^gid:\/\/shopify\/WebhookSubscription\/\d+$/) },
      userErrors: [],
    });
    // The shop asks only for the id; what was stored is read through the control API.
    expect(await listedSubscriptions()).toEqual([
      expect.objectContaining({
        legacyId: legacyIdOf(first.data.webhookSubscriptionCreate.webhookSubscription.id),
        topic: 'ORDERS_CREATE',
        format: 'JSON',
        uri: receiver.url,
      }),
    ]);
    expect((await subscribe('ORDERS_CREATE')).data.webhookSubscriptionCreate).toEqual({
      webhookSubscription: null,
      userErrors: [{ field: ['webhookSubscription', 'callbackUrl'], message: 'Address for this topic has already been taken' }],
    });
    const blank = await subscribe('ORDERS_CREATE', '  ');
    expect(blank.data.webhookSubscriptionCreate.userErrors).toEqual([
      { field: ['webhookSubscription', 'callbackUrl'], message: "Address can't be blank" },
    ]);
    await subscribe('DRAFT_ORDERS_UPDATE');
    expect((await listedSubscriptions()).map((sub) => [sub.topic, sub.uri])).toEqual([
      ['ORDERS_CREATE', receiver.url],
      ['DRAFT_ORDERS_UPDATE', receiver.url],
    ]);
  });

  it('completes the draft through the hosted invoice form and delivers signed webhooks', async () => {
    await subscribe('DRAFT_ORDERS_UPDATE');
    await subscribe('ORDERS_CREATE');
    const draft = (await createDraft()).data!.draftOrderCreate.draftOrder!;

    const opened = await fetch(draft.invoiceUrl);
    expect(opened.status).toBe(200);
    expect(opened.headers.get('content-type')).toMatch(/^text\/html/);
    const form = await opened.text();
    expect(form).toContain('POGS Demo Store');
    expect(form).toMatch(/<dt>Total<\/dt> <dd>\$0\.00<\/dd>/);
    for (const name of ['email', 'firstName', 'lastName', 'address1', 'city', 'zip', 'country']) {
      expect(form).toContain(`<label for="checkout-${name}">`);
      expect(form).toMatch(new RegExp(`id="checkout-${name}" name="${name}"`));
    }
    expect(form).toContain('Complete order');
    // Opening the invoice changes nothing.
    const before = await run.client().request(DRAFT_STATUS_QUERY, { variables: { id: draft.id } });
    expect(before.data.draftOrder).toMatchObject({ status: 'OPEN', order: null });

    const submitted = await submitInvoice(draft.invoiceUrl, CHECKOUT_FORM);
    expect(submitted.status).toBe(200);
    expect(await submitted.text()).toContain('Thank you, your order #1001 is confirmed');

    const after = await run.client().request(DRAFT_STATUS_QUERY, { variables: { id: draft.id } });
    const order = after.data.draftOrder.order;
    expect(after.data.draftOrder).toMatchObject({ id: draft.id, status: 'COMPLETED', invoiceUrl: draft.invoiceUrl });
    expect(order).toEqual({
      id: expect.stringMatching(/^gid:\/\/shopify\/Order\/\d+$/),
      name: '#1001',
      displayFulfillmentStatus: 'UNFULFILLED',
    });
    // Reopening shows the order status, not the form.
    const reopened = await (await fetch(draft.invoiceUrl)).text();
    expect(reopened).toContain('Thank you, your order #1001 is confirmed');
    expect(reopened).not.toContain('<form');

    await run.emulator.webhooksIdle();
    expect(receiver.received).toHaveLength(2);
    const [update] = received('draft_orders/update');
    const [created] = received('orders/create');
    for (const hook of [update, created]) {
      expect(verifyShopifyWebhook(hook.rawBody, hook.headers['x-shopify-hmac-sha256'] as string, SECRET)).toBe(true);
      expect(verifyShopifyWebhook(hook.rawBody, hook.headers['x-shopify-hmac-sha256'] as string, 'another-secret')).toBe(false);
      expect(hook.headers).toMatchObject({
        'content-type': 'application/json',
        'x-shopify-shop-domain': 'demo-shop.myshopify.com',
        'x-shopify-api-version': '2026-07',
        'x-shopify-webhook-id': expect.stringMatching(UUID),
        'x-shopify-event-id': expect.stringMatching(UUID),
        'x-shopify-triggered-at': expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
      });
    }
    // One merchant action: one event id, a webhook id per delivery.
    expect(update.headers['x-shopify-event-id']).toBe(created.headers['x-shopify-event-id']);
    expect(update.headers['x-shopify-webhook-id']).not.toBe(created.headers['x-shopify-webhook-id']);

    expect(json(update)).toMatchObject({
      id: Number(legacyIdOf(draft.id)),
      admin_graphql_api_id: draft.id,
      name: '#D1',
      status: 'completed',
      completed_at: '2026-11-01T00:00:00+00:00',
      order_id: Number(legacyIdOf(order.id)),
      invoice_url: draft.invoiceUrl,
      tags: 'crypto-paid, payref-pay_01JABCDEF',
      note_attributes: [
        { name: 'payment_ref', value: 'pay_01JABCDEF' },
        { name: 'chain_tx', value: '0x5f2c0000e91a' },
      ],
      total_price: '0.00',
      shipping_address: {
        first_name: 'Priya',
        last_name: 'Ahir',
        address1: 'D 10 Sterling Oasis',
        city: 'Bhopal',
        zip: '462026',
        country: 'India',
        country_code: 'IN',
      },
      line_items: [
        { variant_id: Number(variantGid('classic-hoodie').split('/').pop()), quantity: 1, title: 'Classic Hoodie', price: '64.99' },
        { variant_id: Number(variantGid('classic-hoodie', 2).split('/').pop()), quantity: 2 },
      ],
    });
    expect(json(created)).toMatchObject({
      id: Number(legacyIdOf(order.id)),
      admin_graphql_api_id: order.id,
      name: '#1001',
      order_number: 1001,
      email: 'buyer@example.com',
      note: 'Prepaid in POG. payment_ref=pay_01JABCDEF',
      note_attributes: [
        { name: 'payment_ref', value: 'pay_01JABCDEF' },
        { name: 'chain_tx', value: '0x5f2c0000e91a' },
      ],
      tags: 'crypto-paid, payref-pay_01JABCDEF',
      source_name: 'shopify_draft_order',
      financial_status: 'paid',
      fulfillment_status: null,
      total_price: '0.00',
      created_at: '2026-11-01T00:00:00+00:00',
      shipping_address: { name: 'Priya Ahir', country_code: 'IN' },
      fulfillments: [],
    });
    expect((json(created).line_items as unknown[]).length).toBe(2);
    expect(run.emulator.webhookDeliveries.map((d) => [d.topic, d.status, d.attempts, d.lastStatusCode])).toEqual([
      ['draft_orders/update', 'delivered', 1, 200],
      ['orders/create', 'delivered', 1, 200],
    ]);

    // A second submit (reload, double click) shows the same order and creates nothing.
    const again = await submitInvoice(draft.invoiceUrl, CHECKOUT_FORM);
    expect(await again.text()).toContain('#1001 is confirmed');
    expect(run.emulator.orders.listOrders()).toHaveLength(1);
  });

  it('re-renders the form with 422 when a required field is missing, and changes nothing', async () => {
    await subscribe('DRAFT_ORDERS_UPDATE');
    const draft = (await createDraft()).data!.draftOrderCreate.draftOrder!;
    const res = await submitInvoice(draft.invoiceUrl, { ...CHECKOUT_FORM, city: '', lastName: '  ' });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain('Enter a city');
    expect(html).toContain('Enter a last name');
    expect(html).toContain('value="D 10 Sterling Oasis"');
    expect(html).toContain('Complete order');
    const status = await run.client().request(DRAFT_STATUS_QUERY, { variables: { id: draft.id } });
    expect(status.data.draftOrder).toMatchObject({ status: 'OPEN', order: null });
    await run.emulator.webhooksIdle();
    expect(run.emulator.webhookDeliveries).toEqual([]);
    expect(run.emulator.orders.listOrders()).toEqual([]);
  });

  it('serves 404 for an unknown invoice token', async () => {
    const res = await fetch(`${run.origin}/548380009/invoices/${'0'.repeat(32)}`);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('This checkout link isn’t valid');
    expect((await submitInvoice(`${run.origin}/548380009/invoices/nope`, CHECKOUT_FORM)).status).toBe(404);
  });

  it('fulfils an order through the control API and fires fulfillments/create and orders/fulfilled', async () => {
    await subscribe('FULFILLMENTS_CREATE');
    await subscribe('ORDERS_FULFILLED');
    const draft = (await createDraft()).data!.draftOrderCreate.draftOrder!;
    const { order } = run.emulator.completeDraftOrder(draft.id, ADDRESS);

    const res = await fetch(`${run.origin}/__emulator/orders/${order.legacyId}/fulfill`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(200);
    const status = await run.client().request(DRAFT_STATUS_QUERY, { variables: { id: draft.id } });
    expect(status.data.draftOrder.order).toEqual({
      id: gid('Order', order.legacyId),
      name: order.name,
      displayFulfillmentStatus: 'FULFILLED',
    });

    await run.emulator.webhooksIdle();
    const [fulfillment] = received('fulfillments/create');
    const [fulfilled] = received('orders/fulfilled');
    expect(json(fulfillment)).toMatchObject({
      order_id: Number(order.legacyId),
      status: 'success',
      name: '#1001.1',
      destination: { name: 'Priya Ahir', country_code: 'IN' },
    });
    expect(json(fulfilled)).toMatchObject({
      id: Number(order.legacyId),
      fulfillment_status: 'fulfilled',
      fulfillments: [{ status: 'success' }],
    });
    expect(fulfillment.headers['x-shopify-event-id']).toBe(fulfilled.headers['x-shopify-event-id']);

    // By gid too; a second fulfilment is refused.
    const twice = await fetch(`${run.origin}/__emulator/orders/${encodeURIComponent(gid('Order', order.legacyId))}/fulfill`, {
      method: 'POST',
    });
    expect(twice.status).toBe(409);
    expect((await fetch(`${run.origin}/__emulator/orders/123/fulfill`, { method: 'POST' })).status).toBe(404);
  });

  it('retries a delivery the receiver answered with 500, with the same id and body', async () => {
    await subscribe('ORDERS_CREATE');
    const draft = (await createDraft()).data!.draftOrderCreate.draftOrder!;
    receiver.failNext.count = 1;
    run.emulator.completeDraftOrder(draft.id, ADDRESS);
    await run.emulator.webhooksIdle();
    expect(receiver.received).toHaveLength(2);
    const [failed, retried] = receiver.received;
    expect(retried.rawBody.equals(failed.rawBody)).toBe(true);
    expect(retried.headers['x-shopify-webhook-id']).toBe(failed.headers['x-shopify-webhook-id']);
    expect(retried.headers['x-shopify-hmac-sha256']).toBe(failed.headers['x-shopify-hmac-sha256']);
    expect(run.emulator.webhookDeliveries).toMatchObject([
      { topic: 'orders/create', status: 'delivered', attempts: 2, lastStatusCode: 200 },
    ]);

    // A receiver that keeps failing gets 1 + 3 attempts, then the delivery is marked failed.
    receiver.failNext.count = 10;
    const second = (await createDraft(paidInput('pay_2'))).data!.draftOrderCreate.draftOrder!;
    run.emulator.completeDraftOrder(second.id, ADDRESS);
    await run.emulator.webhooksIdle();
    expect(run.emulator.webhookDeliveries[1]).toMatchObject({ status: 'failed', attempts: 4, lastStatusCode: 500, lastError: 'HTTP 500' });
  });

  it('redelivers a webhook byte for byte', async () => {
    await subscribe('DRAFT_ORDERS_UPDATE');
    const draft = (await createDraft()).data!.draftOrderCreate.draftOrder!;
    await submitInvoice(draft.invoiceUrl, CHECKOUT_FORM);
    await run.emulator.webhooksIdle();
    const [original] = run.emulator.webhookDeliveries;

    run.emulator.redeliver(original.webhookId);
    await run.emulator.webhooksIdle();
    expect(receiver.received).toHaveLength(2);
    for (const copy of receiver.received.slice(1)) {
      expect(copy.rawBody.equals(receiver.received[0].rawBody)).toBe(true);
      for (const header of ['x-shopify-webhook-id', 'x-shopify-event-id', 'x-shopify-hmac-sha256', 'x-shopify-triggered-at']) {
        expect(copy.headers[header]).toBe(receiver.received[0].headers[header]);
      }
    }
    const log = (await (await fetch(`${run.origin}/__emulator/webhooks`)).json()) as {
      subscriptions: unknown[];
      deliveries: Array<{ webhookId: string; status: string }>;
    };
    expect(log.subscriptions).toHaveLength(1);
    expect(log.deliveries.map((d) => [d.webhookId, d.status])).toEqual(Array(2).fill([original.webhookId, 'delivered']));
  });

  it('lists drafts over HTTP, completes one through the control API, and reset forgets it all', async () => {
    await subscribe('ORDERS_CREATE');
    const draft = (await createDraft()).data!.draftOrderCreate.draftOrder!;
    const complete = await fetch(`${run.origin}/__emulator/draft-orders/${legacyIdOf(draft.id)}/complete`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'other@example.com',
        shippingAddress: { lastName: 'Ahir', address1: '1 Main St', city: 'Bhopal', zip: '462026', countryCode: 'IN' },
      }),
    });
    expect(complete.status).toBe(200);
    const listed = (await (await fetch(`${run.origin}/__emulator/draft-orders`)).json()) as { draftOrders: Array<Record<string, unknown>> };
    expect(listed.draftOrders).toEqual([
      expect.objectContaining({
        id: draft.id,
        status: 'COMPLETED',
        invoiceUrl: draft.invoiceUrl,
        email: 'other@example.com',
        tags: ['crypto-paid', 'payref-pay_01JABCDEF'],
        customAttributes: [
          { key: 'payment_ref', value: 'pay_01JABCDEF' },
          { key: 'chain_tx', value: '0x5f2c0000e91a' },
        ],
        orderId: expect.stringMatching(/^gid:\/\/shopify\/Order\/\d+$/),
      }),
    ]);
    expect((await fetch(`${run.origin}/__emulator/draft-orders/${legacyIdOf(draft.id)}/complete`, { method: 'POST' })).status).toBe(409);

    await run.emulator.webhooksIdle();
    expect(run.emulator.webhookDeliveries).toHaveLength(1);
    await fetch(`${run.origin}/__emulator/reset`, { method: 'POST' });
    expect(run.emulator.orders.listDraftOrders()).toEqual([]);
    expect(run.emulator.orders.listOrders()).toEqual([]);
    expect(run.emulator.webhookDeliveries).toEqual([]);
    expect(await listedSubscriptions()).toEqual([]);
    expect((await fetch(draft.invoiceUrl)).status).toBe(404);
  });

  it('applies failNext and throttleNext to the order operations too', async () => {
    run.emulator.failNext(1, 503);
    const failed = await run.client().request(DRAFT_CREATE_MUTATION, { variables: { input: paidInput() } });
    expect(failed.errors?.networkStatusCode).toBe(503);
    run.emulator.throttleNext(1);
    const throttled = await run.client().request(DRAFT_CREATE_MUTATION, { variables: { input: paidInput() } });
    expect(throttled.errors?.graphQLErrors?.[0].extensions?.code).toBe('THROTTLED');
    expect(run.emulator.orders.listDraftOrders()).toEqual([]);
    await createDraft();
    expect(run.emulator.orders.listDraftOrders()).toHaveLength(1);
  });
});

describe('Shopify emulator mounted under a path, as in the app', () => {
  it('builds invoice URLs under the mount and completes the form there', async () => {
    const run = await startEmulator({}, '/shopify-emulator');
    try {
      const { data } = await run.client().request(DRAFT_CREATE_MUTATION, {
        variables: {
          input: {
            lineItems: [{ variantId: gid('ProductVariant', run.emulator.state.listProducts()[0].variants[0].legacyId), quantity: 1 }],
          },
        },
      });
      const url: string = data.draftOrderCreate.draftOrder.invoiceUrl;
      expect(url).toMatch(new RegExp(`^${run.origin}/548380009/invoices/[0-9a-f]{32}$`));
      expect(url).toContain('/shopify-emulator/548380009/invoices/');
      const page = await (await fetch(url)).text();
      // The form posts back to the page's own URL, whatever the mount.
      expect(page).toMatch(/<form method="post" novalidate>/);
      expect(page).toContain(`${run.origin}/cdn/images/`);
      const done = await fetch(url, { method: 'POST', body: new URLSearchParams(CHECKOUT_FORM) });
      expect(done.status).toBe(200);
      expect(await done.text()).toContain('Thank you, your order #1001 is confirmed');
    } finally {
      await run.close();
    }
  });
});
