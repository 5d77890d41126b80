import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdminApiClient, type ClientResponse } from '@shopify/admin-api-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createShopifyEmulator, type ShopifyEmulator, type ShopifyEmulatorOptions } from './index';
import { CATALOGUE_PAGE_QUERY, PRODUCT_VARIANTS_PAGE_QUERY } from './reference-queries';

const TOKEN = 'shpat_emulator_test';

interface Running {
  origin: string;
  emulator: ShopifyEmulator;
  client: (token?: string) => ReturnType<typeof createAdminApiClient>;
  close: () => Promise<void>;
}

// The public origin must be known before the emulator is built (image URLs use it), so the HTTP
// server is bound to an ephemeral port first and the Koa app attached afterwards.
async function startEmulator(extra: Partial<ShopifyEmulatorOptions> = {}): Promise<Running> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const emulator = createShopifyEmulator({ publicOrigin: origin, accessToken: TOKEN, clientSecret: 'shh', ...extra });
  server.on('request', emulator.app.callback());
  const client = (token = TOKEN) =>
    createAdminApiClient({
      storeDomain: 'demo-shop.myshopify.com',
      apiVersion: '2026-07',
      accessToken: token,
      retries: 0,
      // As in the contract §1.4: the client insists on https://<shop>, so rewrite the origin.
      customFetchApi: (url, init) => {
        const u = new URL(url);
        return fetch(origin + u.pathname + u.search, init);
      },
    });
  return { origin, emulator, client, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const gid = (type: string, id: string) => `gid://shopify/${type}/${id}`;

interface CatalogueProduct {
  id: string;
  handle: string;
  title: string;
  updatedAt: string;
  featuredMedia: { image: { url: string } } | null;
  media: { nodes: unknown[] };
  variantsCount: { count: number };
  variants: { pageInfo: { hasNextPage: boolean }; nodes: Array<{ title: string; availableForSale: boolean; price: string }> };
}

interface ProductsPage<T> {
  products: { nodes: T[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
}

interface IdPage {
  products: {
    nodes?: Array<{ id: string }>;
    edges?: Array<{ cursor: string; node: { id: string } }>;
    pageInfo: { hasNextPage: boolean; endCursor?: string | null };
  };
}

describe('Shopify emulator driven by the real @shopify/admin-api-client', () => {
  let run: Running;
  let clock = Date.parse('2026-11-01T00:00:00Z');

  beforeAll(async () => {
    run = await startEmulator({ now: () => clock });
  });
  afterAll(() => run.close());
  beforeEach(() => {
    run.emulator.reset();
  });

  it('pages the whole catalogue with first: 5, every product exactly once, while the bucket drains', async () => {
    const client = run.client();
    const seen: CatalogueProduct[] = [];
    const available: number[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const { data, errors, extensions }: ClientResponse<ProductsPage<CatalogueProduct>> = await client.request(CATALOGUE_PAGE_QUERY, {
        variables: { first: 5, after, query: null, variantsFirst: 10, mediaFirst: 10 },
      });
      expect(errors).toBeUndefined();
      const cost = extensions!.cost as { requestedQueryCost: number; actualQueryCost: number; throttleStatus: { currentlyAvailable: number } };
      // products 2+5, media and variants 5 × (2+10) each, six plain objects once each
      expect(cost.requestedQueryCost).toBe(7 + 5 * 12 + 5 * 12 + 6);
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
    // sortKey: UPDATED_AT
    const times = seen.map((p) => Date.parse(p.updatedAt));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    // the clock is frozen, so every call leaves strictly less in the bucket
    expect(available[0]).toBeLessThan(2000);
    for (let i = 1; i < available.length; i++) expect(available[i]).toBeLessThan(available[i - 1]);

    const hoodie = seen.find((p) => p.handle === 'classic-hoodie')!;
    expect(hoodie.variantsCount.count).toBe(12);
    expect(hoodie.variants.nodes).toHaveLength(10);
    expect(hoodie.variants.pageInfo.hasNextPage).toBe(true);
    expect(hoodie.variants.nodes[0]).toMatchObject({ title: 'Black / S', availableForSale: true, inventoryQuantity: 8, price: '64.99' });
    expect(hoodie.variants.nodes[1]).toMatchObject({ title: 'Black / M', availableForSale: false, inventoryQuantity: 0 });
    expect(hoodie.featuredMedia!.image.url).toBe(`${run.origin}/cdn/images/classic-hoodie-1.svg`);
    expect(seen.find((p) => p.handle === 'sticker-sheet-vol-1')).toMatchObject({ featuredMedia: null, media: { nodes: [] } });
  });

  it('serves the same order through edges { cursor node } as through nodes', async () => {
    const client = run.client();
    const collect = async (selection: 'nodes' | 'edges') => {
      const ids: string[] = [];
      let after: string | null = null;
      for (let guard = 0; guard < 50; guard++) {
        const body =
          selection === 'nodes'
            ? 'nodes { id } pageInfo { hasNextPage endCursor }'
            : 'edges { cursor node { id } } pageInfo { hasNextPage }';
        const { data, errors }: ClientResponse<IdPage> = await client.request(`query ($after: String) { products(first: 4, after: $after, sortKey: TITLE) { ${body} } }`, {
          variables: { after },
        });
        expect(errors).toBeUndefined();
        const products: IdPage['products'] = data!.products;
        if (selection === 'nodes') {
          ids.push(...products.nodes!.map((n) => n.id));
          after = products.pageInfo.endCursor ?? null;
        } else {
          ids.push(...products.edges!.map((e) => e.node.id));
          after = products.edges!.at(-1)?.cursor ?? null;
        }
        if (!products.pageInfo.hasNextPage) break;
      }
      return ids;
    };
    const viaNodes = await collect('nodes');
    expect(viaNodes).toHaveLength(run.emulator.state.listProducts().length);
    expect(await collect('edges')).toEqual(viaNodes);
  });

  it('pages a product’s variants beyond the first page', async () => {
    const client = run.client();
    const hoodie = run.emulator.state.getProductByHandle('classic-hoodie')!;
    const first = await client.request(PRODUCT_VARIANTS_PAGE_QUERY, { variables: { id: gid('Product', hoodie.legacyId), first: 10 } });
    expect(first.data.product.variants.nodes).toHaveLength(10);
    expect(first.data.product.variants.pageInfo.hasNextPage).toBe(true);
    const rest = await client.request(PRODUCT_VARIANTS_PAGE_QUERY, {
      variables: { id: gid('Product', hoodie.legacyId), first: 10, after: first.data.product.variants.pageInfo.endCursor },
    });
    expect(rest.data.product.variants.pageInfo.hasNextPage).toBe(false);
    const titles = [...first.data.product.variants.nodes, ...rest.data.product.variants.nodes].map((v: { title: string }) => v.title);
    expect(titles).toEqual(hoodie.variants.map((v) => v.title));
  });

  it('filters with query: updated_at:>… and returns null for unknown ids', async () => {
    const client = run.client();
    const { data } = await client.request(`{ products(first: 50, query: "updated_at:>'2026-09-01T10:00:00Z'", sortKey: UPDATED_AT) { nodes { title } } }`);
    expect(data.products.nodes.map((n: { title: string }) => n.title)).toEqual(['Mystery Slammer Bundle', 'Heritage Crewneck']);
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

    // the same through the HTTP control endpoint
    await fetch(`${run.origin}/__emulator/throttle`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"count":2}' });
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
    expect(run.emulator.requestLog).toHaveLength(0);
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
    const tooDear = await client.request(CATALOGUE_PAGE_QUERY, { variables: { first: 50, variantsFirst: 50, mediaFirst: 10 } });
    expect(tooDear.data).toBeUndefined();
    const error = tooDear.errors?.graphQLErrors?.[0];
    expect(error?.extensions).toMatchObject({ code: 'MAX_COST_EXCEEDED', maxCost: 1000 });
    expect(error?.message).toMatch(/^Query cost is \d+, which exceeds the single query max cost limit \(1000\)\./);
    const cost = tooDear.extensions?.cost as { requestedQueryCost: number; actualQueryCost: null; throttleStatus: { currentlyAvailable: number } };
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
    const setFail = await fetch(`${run.origin}/__emulator/fail`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ count: 1, status: 429, retryAfter: 3 }),
    });
    expect(setFail.status).toBe(200);
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
      fetch(`${run.origin}/__emulator/products`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
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
      `{ products(first: 10, query: "updated_at:>'${latestDemo}'") { nodes { id title featuredMedia { ... on MediaImage { image { url } } } variants(first: 5) { nodes { price sku availableForSale } } } } }`,
    );
    expect(changed.data.products.nodes).toEqual([
      {
        id,
        title: 'Glow-in-the-Dark Slammer',
        featuredMedia: { image: { url: `${run.origin}/cdn/images/glow-in-the-dark-slammer-1.svg` } },
        variants: { nodes: [{ price: '12.50', sku: 'PG-SLM-GLOW', availableForSale: true }] },
      },
    ]);

    const updated = (await (await post({ legacyId: product.legacyId, title: 'Glow Slammer' })).json()) as { product: { updatedAt: string } };
    expect(Date.parse(updated.product.updatedAt)).toBeGreaterThan(Date.parse(product.updatedAt));
    expect((await client.request(`{ product(id: "${id}") { title } }`)).data.product.title).toBe('Glow Slammer');

    expect((await post({ title: 'x', variants: [{ price: 'free' }] })).status).toBe(400);

    const del = await fetch(`${run.origin}/__emulator/products/${product.legacyId}`, { method: 'DELETE' });
    expect(del.status).toBe(200);
    expect((await client.request(`{ product(id: "${id}") { title } }`)).data.product).toBeNull();
    const count = await client.request('{ productsCount { count } }');
    expect(count.data.productsCount.count).toBe(run.emulator.state.listProducts().length);
    expect((await fetch(`${run.origin}/__emulator/products/${product.legacyId}`, { method: 'DELETE' })).status).toBe(404);
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

  it('404s unknown API versions and logs operations with their variables', async () => {
    const body = JSON.stringify({ query: '{ shop { name } }' });
    const headers = { 'content-type': 'application/json', 'x-shopify-access-token': TOKEN };
    expect((await fetch(`${run.origin}/admin/api/2026-02/graphql.json`, { method: 'POST', headers, body })).status).toBe(404);
    const unstable = await fetch(`${run.origin}/admin/api/unstable/graphql.json`, { method: 'POST', headers, body });
    expect(unstable.status).toBe(200);
    expect(unstable.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);

    await run.client().request(CATALOGUE_PAGE_QUERY, { variables: { first: 1, variantsFirst: 1, mediaFirst: 1 } });
    const log = (await (await fetch(`${run.origin}/__emulator/requests`)).json()) as { requests: Array<{ operationName?: string; variables: unknown }> };
    expect(log.requests.at(-1)).toMatchObject({ operationName: 'CatalogPage', variables: { first: 1, variantsFirst: 1, mediaFirst: 1 } });
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
      const costOf = async () => (await client.request(query)).extensions!.cost as { actualQueryCost: number | null; throttleStatus: { currentlyAvailable: number } };

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

  it('starts empty with catalogue: "empty"', async () => {
    const run = await startEmulator({ catalogue: 'empty' });
    try {
      const { data } = await run.client().request('{ products(first: 5) { nodes { id } pageInfo { hasNextPage endCursor } } }');
      expect(data.products).toEqual({ nodes: [], pageInfo: { hasNextPage: false, endCursor: null } });
    } finally {
      await run.close();
    }
  });
});
