import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { productSchema, type Product } from '../../../common/api';
import { parseUnits } from '../../../common/money';
import type { EmulatorProduct, EmulatorProductInput } from '../../../emulators/shopify/emulator-state';
import { startHarness, type Harness } from '../../test/harness';
import { testDatabaseKinds } from '../../test/databases';
import { getState } from '../../lib/app-state';
import { CATALOGUE_VERSION } from './freshness';
import { bumpCatalogueVersion } from './sync';

describe.each(testDatabaseKinds)('catalogue on %s', (kind) => {
  let h: Harness;

  beforeAll(async () => {
    // These tests are about paging (and the bulk query's fallback): sync-jobs.int.test.ts covers bulk.
    h = await startHarness(kind, { syncMethod: 'paged' });
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(() => {
    h.waits.length = 0;
  });

  /** Shopify's product as it is, with `changes` (and every variant at `price`, when given): a merchant's edit. */
  const republish = (source: EmulatorProduct, changes: Partial<EmulatorProductInput>, price?: string) =>
    h.emulator.upsertProduct({
      legacyId: source.legacyId,
      title: source.title,
      handle: source.handle,
      descriptionHtml: source.descriptionHtml,
      status: source.status,
      tags: source.tags,
      vendor: source.vendor,
      productType: source.productType,
      variants: source.variants.map((v) => ({
        legacyId: v.legacyId,
        title: v.title,
        sku: v.sku,
        price: price ?? v.price,
        inventoryQuantity: v.inventoryQuantity,
        availableForSale: v.availableForSale,
        selectedOptions: v.selectedOptions,
      })),
      ...changes,
    });

  const listed = async (): Promise<Product[]> => {
    const res = await h.api('/api/products');
    expect(res.status).toBe(200);
    return (await res.json()) as Product[];
  };

  it('pages through every Shopify product and every variant of a long product', async () => {
    const shop = h.emulator.state.listProducts();
    const result = await h.catalogue.sync();

    expect(result.products).toBe(shop.length);
    expect(result.variants).toBe(shop.reduce((n, p) => n + p.variants.length, 0));
    expect(result.pages).toBe(Math.ceil(shop.length / 5));
    expect(result.deactivated).toBe(0);

    const long = shop.find((p) => p.variants.length > 10);
    expect(long, 'demo catalogue has a product with more than one page of variants').toBeDefined();
    const [{ n }] = await h.database
      .db('variants')
      .join('products', 'products.id', 'variants.product_id')
      .where('products.shopify_id', long!.legacyId)
      .count({ n: '*' });
    expect(Number(n)).toBe(long!.variants.length);
  });

  it('hides everything until an admin prices and activates variants', async () => {
    expect(await listed()).toEqual([]);
  });

  it('lists only ACTIVE products with active, priced variants, in the API shape', async () => {
    const seeded = await h.catalogue.seedDemoPrices();
    expect(seeded).toBeGreaterThan(0);
    // Seeding happens once: a second call changes nothing.
    expect(await h.catalogue.seedDemoPrices()).toBe(0);

    const products = await listed();
    const shop = h.emulator.state.listProducts();
    const active = shop.filter((p) => p.status === 'ACTIVE');
    expect(products.map((p) => p.id).sort()).toEqual(active.map((p) => p.legacyId).sort());
    for (const p of products) expect(() => productSchema.parse(p)).not.toThrow();

    // Prices are exact: ten POG per demo dollar, canonical decimals, min variant price on the product.
    const sample = products.find((p) => p.variants.length > 1)!;
    const source = shop.find((p) => p.legacyId === sample.id)!;
    for (const v of sample.variants) {
      const sv = source.variants.find((x) => x.legacyId === v.id)!;
      expect(parseUnits(v.price)).toBe(parseUnits(sv.price) * 10n);
      expect(v.price).toMatch(/^\d+\.\d{2,}$/);
    }
    const min = sample.variants.map((v) => parseUnits(v.price)).reduce((a, b) => (b < a ? b : a));
    expect(parseUnits(sample.price)).toBe(min);
    expect(sample.priceRange.minVariantPrice).toEqual({ amount: sample.price, currencyCode: 'POG' });

    // Sold out in Shopify shows as sold out; images keep their order.
    const soldOut = shop.flatMap((p) => p.variants).find((v) => !v.availableForSale)!;
    const apiSoldOut = products.flatMap((p) => p.variants).find((v) => v.id === soldOut.legacyId);
    expect(apiSoldOut?.isSoldOut).toBe(true);
    const many = shop.find((p) => p.status === 'ACTIVE' && p.images.length > 5)!;
    expect(products.find((p) => p.id === many.legacyId)!.images).toHaveLength(many.images.length);
    const none = shop.find((p) => p.status === 'ACTIVE' && p.images.length === 0)!;
    expect(products.find((p) => p.id === none.legacyId)!.featuredImage).toBeNull();
  });

  it('serves the list with an ETag and answers 304 when nothing changed', async () => {
    const first = await h.api('/api/products');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);
    const again = await h.api('/api/products', { headers: { 'If-None-Match': etag! } });
    expect(again.status).toBe(304);
  });

  it('serves the list compressed (br or gzip) with the same content', async () => {
    const plain = await (await h.api('/api/products', { headers: { 'Accept-Encoding': 'identity' } })).text();
    for (const encoding of ['br', 'gzip']) {
      const res = await h.api('/api/products', { headers: { 'Accept-Encoding': encoding } });
      expect(res.headers.get('content-encoding')).toBe(encoding);
      expect(res.headers.get('vary')).toMatch(/Accept-Encoding/i);
      expect(await res.text()).toBe(plain); // fetch decodes it
    }
  });

  it('rebuilds the list when the catalogue changes (any instance bumps the version)', async () => {
    const before = await h.api('/api/products');
    const etag = before.headers.get('etag')!;
    const [product] = (await before.json()) as Product[];
    const variant = product.variants[0];
    await h.database.db('variants').where({ shopify_id: variant.id }).update({ pog_price: '1234.5' });
    await bumpCatalogueVersion(h.database.db);

    const after = await h.api('/api/products', { headers: { 'If-None-Match': etag } });
    expect(after.status).toBe(200);
    const updated = ((await after.json()) as Product[]).find((p) => p.id === product.id)!;
    expect(updated.variants.find((v) => v.id === variant.id)!.price).toBe('1234.50');
  });

  it('keeps admin-owned fields across a sync while taking Shopify changes', async () => {
    const source = h.emulator.state.listProducts().find((p) => p.status === 'ACTIVE' && p.variants.length > 1)!;
    const [v0, v1] = source.variants;
    const db = h.database.db;
    await db('variants').where({ shopify_id: v0.legacyId }).update({ pog_price: '77.7', available_stock: 3, is_sold_out: true });
    await db('variants').where({ shopify_id: v1.legacyId }).update({ is_active: false });
    await db('products').where({ shopify_id: source.legacyId }).update({ custom_title: 'Admin Title' });

    republish(
      source,
      { title: `${source.title} (renamed in Shopify)`, descriptionHtml: '<p>New description</p>', status: 'ACTIVE' },
      '999.00',
    );
    await h.catalogue.sync();

    const row0 = await db('variants').where({ shopify_id: v0.legacyId }).first();
    expect(row0.pog_price).toMatch(/^77\.70*$/);
    expect(row0.available_stock).toBe(3);
    expect(row0.is_sold_out).toBe(true);
    expect(row0.shopify_price).toMatch(/^999\.0*$/);
    expect((await db('variants').where({ shopify_id: v1.legacyId }).first()).is_active).toBe(false);
    const productRow = await db('products').where({ shopify_id: source.legacyId }).first();
    expect(productRow.custom_title).toBe('Admin Title');
    expect(productRow.title).toBe(`${source.title} (renamed in Shopify)`);

    const res = await h.api(`/api/products/${source.legacyId}`);
    const product = (await res.json()) as Product;
    expect(product.title).toBe('Admin Title');
    expect(product.description).toBe('<p>New description</p>');
    expect(product.variants.map((v) => v.id)).not.toContain(v1.legacyId);
    const shown = product.variants.find((v) => v.id === v0.legacyId)!;
    expect(shown).toMatchObject({ price: '77.70', availableStock: 3, isSoldOut: true });
  });

  it('marks products that disappeared from Shopify as removed, and brings them back', async () => {
    const gone = h.emulator.state.listProducts().find((p) => p.status === 'ACTIVE')!;
    const snapshot = structuredClone(gone);
    h.emulator.deleteProduct(gone.legacyId);
    const result = await h.catalogue.sync();
    expect(result.deactivated).toBe(1);
    expect((await listed()).map((p) => p.id)).not.toContain(gone.legacyId);
    const res = await h.api(`/api/products/${gone.legacyId}`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'product-not-found' });
    // The row is kept (orders may point at it).
    expect(await h.database.db('products').where({ shopify_id: gone.legacyId }).first()).toMatchObject({ title: gone.title });

    h.emulator.upsertProduct({
      legacyId: snapshot.legacyId,
      title: snapshot.title,
      handle: snapshot.handle,
      status: 'ACTIVE',
      variants: snapshot.variants.map((v) => ({
        legacyId: v.legacyId,
        title: v.title,
        price: v.price,
        inventoryQuantity: v.inventoryQuantity,
        selectedOptions: v.selectedOptions,
      })),
    });
    await h.catalogue.sync();
    expect((await listed()).map((p) => p.id)).toContain(gone.legacyId);
  });

  it('waits out THROTTLED answers for as long as the bucket needs, then finishes', async () => {
    h.emulator.throttleNext(2);
    const result = await h.catalogue.sync();
    expect(result.throttledWaits).toBe(2);
    const throttled = h.waits.filter((w) => w.reason === 'throttled');
    expect(throttled).toHaveLength(2);
    for (const w of throttled) expect(w.ms).toBeGreaterThanOrEqual(1000);
    expect(result.products).toBe(h.emulator.state.listProducts().length);
  });

  it('backs off on HTTP 5xx and honours Retry-After seconds on 429', async () => {
    h.emulator.failNext(2, 503);
    let result = await h.catalogue.sync();
    expect(result.products).toBe(h.emulator.state.listProducts().length);
    expect(h.waits.map((w) => w.ms)).toEqual([1000, 2000]);
    expect(h.waits.every((w) => w.reason === 'unavailable')).toBe(true);

    h.waits.length = 0;
    h.emulator.failNext(1, 429, 3);
    result = await h.catalogue.sync();
    expect(result.products).toBe(h.emulator.state.listProducts().length);
    expect(h.waits).toEqual([{ reason: 'rate-limited', ms: 3000 }]);
  });

  it('marks nothing removed when Shopify stays down mid-sync', async () => {
    const before = await listed();
    h.emulator.failNext(50, 500);
    await expect(h.catalogue.sync()).rejects.toMatchObject({ code: 'shopify-unavailable' });
    h.emulator.failNext(0, 500);
    expect((await listed()).map((p) => p.id)).toEqual(before.map((p) => p.id));
  });

  it('refuses a second sync while one runs', async () => {
    const first = h.catalogue.sync();
    await expect(h.catalogue.sync()).rejects.toMatchObject({ code: 'sync-in-progress' });
    await first;
  });

  it('answers bad product ids with 404 and a code, never 500', async () => {
    for (const bad of ['abc', '0', '-1', '1.5', '%27%20or%201%3D1', '9'.repeat(30), '99999999', 'gid%3A%2F%2Fshopify%2FProduct%2F1']) {
      const res = await h.api(`/api/products/${bad}`);
      expect(res.status, bad).toBe(404);
      expect(await res.json()).toMatchObject({ code: 'product-not-found', message: expect.any(String) });
    }
    const unknown = await h.api('/api/nope');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'not-found' });
    const wrongMethod = await h.api('/api/products', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(wrongMethod.status).toBe(405);
    expect(await wrongMethod.json()).toMatchObject({ code: 'method-not-allowed' });
    const badJson = await h.api('/api/products', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{oops' });
    expect(badJson.status).toBeLessThan(500);
  });

  it('publishes the public config and health', async () => {
    const config = await (await h.api('/api/config')).json();
    expect(config).toMatchObject({
      productName: 'POGS',
      tokenSymbol: 'POG',
      tokenDecimals: 18,
      chainId: 8453,
      explorerUrl: 'https://basescan.org',
    });
    expect(JSON.stringify(config)).not.toMatch(/shpat_|secret/i);
    const health = await (await h.api('/api/health')).json();
    expect(health).toMatchObject({ status: 'ok', database: 'pglite', shopify: 'emulator' });
    expect(health.catalogue.products).toBeGreaterThan(0);
    expect(health.catalogue.lastSyncAt).toEqual(expect.any(String));
  });
  it('a sync that brings no change keeps the catalogue version and the list’s ETag; one that does moves them', async () => {
    const version = async () => Number(await getState<number>(h.database.db, CATALOGUE_VERSION));
    await h.catalogue.sync();
    const etag = (await h.api('/api/products')).headers.get('etag');
    const before = await version();

    // Shopify unchanged: rows rewritten with a new sync time, nothing anyone sees.
    await h.catalogue.sync();
    expect(await version()).toBe(before);
    expect((await h.api('/api/products', { headers: { 'If-None-Match': etag! } })).status).toBe(304);

    // One title changed in Shopify: a new version.
    const source = h.emulator.state.listProducts().find((p) => p.status === 'ACTIVE')!;
    republish(source, { title: `${source.title} (edited)` });
    await h.catalogue.sync();
    expect(await version()).toBe(before + 1);
  });
});

describe.each(testDatabaseKinds)('sync against a small leaky bucket on %s', (kind) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(kind, { bucket: { maximumAvailable: 200, restoreRate: 10 }, pageSize: 5, syncMethod: 'paged' });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('waits exactly until the bucket can pay for the next page', async () => {
    const result = await h.catalogue.sync();
    expect(result.products).toBe(h.emulator.state.listProducts().length);
    const log = h.emulator.requestLog;
    const throttled = log.filter((r) => r.throttled);
    expect(throttled.length).toBeGreaterThan(0);
    expect(result.throttledWaits).toBe(throttled.length);
    // Each wait was long enough: the retry right after a throttled call went through.
    log.forEach((entry, i) => {
      if (entry.throttled) expect(log[i + 1]?.throttled, `retry after call ${i}`).toBe(false);
    });
    for (const w of h.waits.filter((x) => x.reason === 'throttled')) {
      expect(w.ms % 1000).toBe(0);
      expect(w.ms).toBeGreaterThanOrEqual(1000);
    }
  });
});

describe.each(testDatabaseKinds)('catalogue freshness without a query per request on %s', (kind) => {
  let h: Harness;
  let product: Product;
  beforeAll(async () => {
    // Fallback reads every 200 ms; a lost LISTEN connection is made again after 4 s.
    h = await startHarness(kind, { env: { CATALOGUE_STALENESS_MS: '200' }, catalogueReconnectMs: 4000 });
    await h.catalogue.sync();
    await h.catalogue.seedDemoPrices();
    [product] = (await (await h.api('/api/products')).json()) as Product[];
  });
  beforeEach(async () => {
    await expect.poll(() => h.catalogue.freshness.state().listening).toBe(true);
  });
  afterAll(async () => {
    await h?.close();
  });

  const state = () => h.catalogue.freshness.state();
  const shownPrice = async (api = h.api) => {
    const list = (await (await api('/api/products')).json()) as Product[];
    return list.find((p) => p.id === product.id)!.variants[0].price;
  };
  /** A price change as another process makes it: its own connections, its bump a notification at commit. */
  const changeElsewhere = async (db: Harness['database']['db'], price: string) => {
    await db('variants').where({ shopify_id: product.variants[0].id }).update({ pog_price: price });
    await bumpCatalogueVersion(db);
  };
  const countQueries = () => {
    const sql: string[] = [];
    const record = (q: { sql: string }) => sql.push(q.sql);
    h.database.db.on('query', record);
    return { sql, stop: () => h.database.db.off('query', record) };
  };

  it('answers 50 list and product requests from memory: no database query at all', async () => {
    await h.api('/api/products'); // built
    const queries = countQueries();
    try {
      for (let i = 0; i < 50; i++) {
        const res = await h.api(i % 5 ? '/api/products' : `/api/products/${product.id}`, { headers: { 'accept-encoding': 'gzip' } });
        expect(res.status).toBe(200);
        await res.arrayBuffer();
      }
    } finally {
      queries.stop();
    }
    expect(queries.sql).toEqual([]);
  });

  it('learns a change that reaches it only as a notification (as another process sends it)', async () => {
    const reads = state().versionReads;
    await h.database.db('variants').where({ shopify_id: product.variants[0].id }).update({ pog_price: '2222' });
    // What bumpCatalogueVersion does in another process: no in-process announcement here.
    const { rows } = await h.database.db.raw(
      `update app_state set value = to_jsonb((value)::text::bigint + 1) where key = 'catalogue_version' returning value`,
    );
    await h.database.db.raw(`select pg_notify('catalogue_changed', current_schema() || ':' || ?)`, [String(rows[0].value)]);
    await expect.poll(() => shownPrice(), { timeout: 3000, interval: 20 }).toBe('2222.00');
    expect(state().versionReads, 'learned from the notification, not by reading the version').toBe(reads);
  });

  it("learns this process's change when its transaction commits, never one rolled back", async () => {
    const db = h.database.db;
    const known = () => h.catalogue.freshness.known;
    const start = known();
    await expect(
      db.transaction(async (trx) => {
        await bumpCatalogueVersion(trx);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    // A savepoint rolled back inside a transaction that commits.
    await db.transaction(async (trx) => {
      await trx
        .transaction(async (inner) => {
          await bumpCatalogueVersion(inner);
          throw new Error('savepoint rolled back');
        })
        .catch(() => undefined);
    });
    await new Promise((r) => setTimeout(r, 100)); // a notification, were one sent, would be here by now
    expect(known()).toBe(start);

    // A bump in a savepoint: learned at the outer commit, not before, and without waiting for the notification.
    await db.transaction(async (trx) => {
      await trx.transaction(async (inner) => bumpCatalogueVersion(inner));
      await new Promise((r) => setTimeout(r, 50));
      expect(known()).toBe(start);
    });
    expect(known()).toBe(start + 1);
  });

  it.runIf(kind === 'postgres')("shows another instance's change promptly, learned by NOTIFY, never by reading the version", async () => {
    const other = await h.startAnotherInstance();
    const reads = state().versionReads;
    await changeElsewhere(other.db, '3333');
    await expect.poll(() => shownPrice(), { timeout: 3000, interval: 20 }).toBe('3333.00');
    expect(state().versionReads).toBe(reads);
    // And the other instance's own list.
    expect(await shownPrice(other.api)).toBe('3333.00');
    // Then memory again: no query for 20 more requests.
    const queries = countQueries();
    try {
      for (let i = 0; i < 20; i++) expect(await shownPrice()).toBe('3333.00');
    } finally {
      queries.stop();
    }
    expect(queries.sql).toEqual([]);
  });

  it.runIf(kind === 'postgres')('falls back to reading the version while its LISTEN connection is lost, then listens again', async () => {
    const other = await h.startAnotherInstance();
    const { pid } = state();
    expect(pid).toEqual(expect.any(Number));
    await other.db.raw('select pg_terminate_backend(?)', [pid]);
    await expect.poll(() => state().listening).toBe(false);

    const reads = state().versionReads;
    await changeElsewhere(other.db, '4444');
    // Bounded staleness: seen within the 200 ms fallback, before the connection is back (4 s).
    await expect.poll(() => shownPrice(), { timeout: 2000, interval: 20 }).toBe('4444.00');
    expect(state().listening).toBe(false);
    expect(state().versionReads).toBeGreaterThan(reads);

    await expect.poll(() => state().listening, { timeout: 10_000 }).toBe(true);
    expect(state().pid).not.toBe(pid);
    const readsAfter = state().versionReads;
    await changeElsewhere(other.db, '5555');
    await expect.poll(() => shownPrice(), { timeout: 3000, interval: 20 }).toBe('5555.00');
    expect(state().versionReads, 'listening again: no more reads').toBe(readsAfter);
  });
});
