/**
 * GET /api/admin/products on each database, with the demo catalogue synced from the emulator
 * through the real Shopify client: the admin's product groups a page at a time, each group exactly
 * once across the pages (also while titles change between pages), searched by title, custom title,
 * variant title and SKU, filtered, with the server's counts; and nothing for a stranger.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminProductsPageSchema, inventorySchema, type AdminProductsPage, type InventoryItem } from '../../../common/admin';
import { testDatabaseKinds } from '../../test/databases';
import { adminCaller, adminSession, startHarness, type Harness } from '../../test/harness';

describe.each(testDatabaseKinds)('the admin’s product pages on %s', (kind) => {
  let h: Harness;
  let admin: string;

  const call: ReturnType<typeof adminCaller> = (path, init) => adminCaller(h.api, () => admin)(path, init);
  const inventory = async (): Promise<InventoryItem[]> => inventorySchema.parse(await (await call('/api/inventory')).json());
  const page = async (query: Record<string, string>): Promise<AdminProductsPage> => {
    const res = await call(`/api/admin/products?${new URLSearchParams(query)}`);
    expect(res.status, await res.clone().text()).toBe(200);
    return adminProductsPageSchema.parse(await res.json());
  };
  /** Every page of a search, following nextCursor; `between` runs after each page. */
  const allPages = async (query: Record<string, string>, between?: (n: number) => Promise<void>) => {
    const pages: AdminProductsPage[] = [];
    let cursor: string | null = null;
    do {
      const p = await page(cursor === null ? query : { ...query, cursor });
      pages.push(p);
      cursor = p.nextCursor;
      await between?.(pages.length);
    } while (cursor !== null && pages.length < 100);
    return pages;
  };
  const productIds = (pages: AdminProductsPage[]) => pages.flatMap((p) => p.groups.map((g) => g.productId));
  /** The test's own reading of the search: every word in a title, the custom title or the SKU. */
  const expected = (items: InventoryItem[], q: string, keep: (i: InventoryItem) => boolean = () => true) => {
    const words = q.toLowerCase().split(/\s+/).filter(Boolean);
    const hits = items.filter(
      (i) =>
        keep(i) && words.every((w) => [i.originalTitle, i.customTitle, i.variantTitle, i.sku].some((s) => s?.toLowerCase().includes(w))),
    );
    return { variants: hits.map((i) => i.id), products: [...new Set(hits.map((i) => i.productId))] };
  };
  const setTitle = async (productId: string, customTitle: string | null) => {
    const item = (await inventory()).find((i) => i.productId === productId)!;
    const path = `/api/products/${encodeURIComponent(item.originalTitle)}/custom-title?productId=${productId}`;
    const res = await call(path, customTitle === null ? { method: 'DELETE' } : { method: 'PUT', body: { customTitle } });
    expect(res.status).toBe(200);
  };

  beforeAll(async () => {
    h = await startHarness(kind);
    await h.catalogue.sync();
    await h.catalogue.seedDemoPrices();
    admin = await adminSession(h);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('pages every group exactly once, in catalogue order, each with all its variants, and counts the inventory', async () => {
    const items = await inventory();
    const products = [...new Set(items.map((i) => i.productId))];
    const pages = await allPages({ limit: '5' });
    expect(pages).toHaveLength(Math.ceil(products.length / 5));
    expect(pages.slice(0, -1).every((p) => p.groups.length === 5 && p.nextCursor !== null)).toBe(true);
    expect(pages.at(-1)!.nextCursor).toBeNull();
    // The counts come with the first page only.
    expect(pages.slice(1).map((p) => p.counts)).toEqual(pages.slice(1).map(() => null));
    expect(productIds(pages)).toEqual(products);
    for (const group of pages.flatMap((p) => p.groups)) {
      const own = items.filter((i) => i.productId === group.productId);
      expect(group.variants).toEqual(own);
      expect(group.matching).toEqual(own.map((i) => i.id));
    }
    expect(pages[0]!.groups.find((g) => g.variants[0]!.originalTitle === 'Classic Hoodie')?.title).toBe('Classic Hoodie');
    expect(pages[0]!.counts).toEqual({
      groups: products.length,
      variants: items.length,
      allGroups: products.length,
      allVariants: items.length,
      unpriced: items.filter((i) => i.pogPrice === null).length,
    });
    expect(products).toHaveLength(27);

    // The default page and the largest allowed one.
    expect((await page({})).groups).toHaveLength(24);
    expect(productIds([await page({ limit: '100' })])).toEqual(products);
  });

  it('lists each group exactly once while products change titles between pages', async () => {
    const products = [...new Set((await inventory()).map((i) => i.productId))];
    const first = products[0]!;
    const late = products[20]!;
    const shopifyLate = products[25]!;
    try {
      const pages = await allPages({ limit: '4' }, async (n) => {
        if (n !== 1) return;
        // A product already listed and two not yet listed change titles, before and after the others alphabetically.
        await setTitle(first, 'Zzz Last By Name');
        await setTitle(late, 'Aaa First By Name');
        h.emulator.upsertProduct({ legacyId: shopifyLate, title: 'Aardvark Renamed In Shopify' });
        await h.catalogue.sync();
      });
      const ids = productIds(pages);
      expect(ids).toEqual(products);
      const groups = pages.flatMap((p) => p.groups);
      expect(groups.find((g) => g.productId === late)!.title).toBe('Aaa First By Name');
      expect(groups.find((g) => g.productId === shopifyLate)!.variants[0]!.originalTitle).toBe('Aardvark Renamed In Shopify');
    } finally {
      await setTitle(first, null);
      await setTitle(late, null);
    }
  });

  it('searches the Shopify title, the custom title, the variant title and the SKU, case-insensitively, with the counts of what matches', async () => {
    const items = await inventory();
    for (const q of [
      'hoodie',
      'HoOdIe',
      'heather grey',
      'PG-HOOD-CLS-BLK',
      'pg-tee',
      'tee her',
      'slammer',
      '1994',
      'zzzz-nothing',
      '%',
      '_',
    ]) {
      const want = expected(items, q);
      const pages = await allPages({ q, limit: '3' });
      expect(productIds(pages), q).toEqual(want.products);
      expect(
        pages.flatMap((p) => p.groups.flatMap((g) => g.matching)),
        q,
      ).toEqual(want.variants);
      expect(pages[0]!.counts, q).toMatchObject({ groups: want.products.length, variants: want.variants.length, allGroups: 27 });
    }
    // A SKU finds its variant; its group still holds every variant of the product.
    const [black] = (await page({ q: 'pg-hood-cls-blk-s' })).groups;
    expect(black!.variants.length).toBe(12);
    expect(black!.matching).toEqual(items.filter((i) => i.sku === 'PG-HOOD-CLS-BLK-S').map((i) => i.id));
    expect((await page({ q: 'zzzz-nothing' })).groups).toEqual([]);

    // The admin's custom title is searched too, and the Shopify title still is.
    const tube = items.find((i) => i.originalTitle === 'Pog Tube')!.productId;
    await setTitle(tube, 'Deluxe Cylinder');
    try {
      const found = await page({ q: 'deluxe cyl' });
      expect(found.groups.map((g) => [g.productId, g.title])).toEqual([[tube, 'Deluxe Cylinder']]);
      expect(found.counts).toMatchObject({ groups: 1, variants: 3 });
      expect((await page({ q: 'pog tube' })).groups.map((g) => g.productId)).toContain(tube);
    } finally {
      await setTitle(tube, null);
    }
  });

  it('filters by status, each group listed with all its variants and the ones that match', async () => {
    const items = await inventory();
    const tube = items.filter((i) => i.originalTitle === 'Pog Tube');
    const off = await call(`/api/inventory/${tube[1]!.id}/update`, { method: 'PATCH', body: { isActive: false } });
    expect(off.status).toBe(200);
    try {
      const now = await inventory();
      for (const [status, keep] of [
        ['active', (i: InventoryItem) => i.isActive],
        ['inactive', (i: InventoryItem) => !i.isActive],
        ['unpriced', (i: InventoryItem) => i.pogPrice === null],
        ['sold-out', (i: InventoryItem) => i.inShop.isSoldOut],
      ] as const) {
        const want = expected(now, '', keep);
        const pages = await allPages({ status, limit: '10' });
        expect(productIds(pages), status).toEqual(want.products);
        expect(pages.flatMap((p) => p.groups.flatMap((g) => g.matching))).toEqual(want.variants);
        expect(pages[0]!.counts, status).toMatchObject({ groups: want.products.length, variants: want.variants.length });
      }
      const inactiveTube = (await page({ status: 'inactive', q: 'pog tube' })).groups;
      expect(inactiveTube.map((g) => [g.variants.length, g.matching])).toEqual([[3, [tube[1]!.id]]]);
      expect(expected(now, '', (i) => i.inShop.isSoldOut).variants.length).toBeGreaterThan(0);
    } finally {
      await call(`/api/inventory/${tube[1]!.id}/update`, { method: 'PATCH', body: { isActive: true } });
    }
  });

  it('refuses a cursor of another search or filter, a made-up cursor and bad parameters with 400 and a code', async () => {
    const tees = await page({ q: 'tee', limit: '1' });
    expect(tees.nextCursor).not.toBeNull();
    expect((await page({ q: 'tee', limit: '1', cursor: tees.nextCursor! })).groups).toHaveLength(1);
    // The same words, spaced and cased otherwise, are the same search.
    expect((await page({ q: '  TEE ', limit: '1', cursor: tees.nextCursor! })).groups).toHaveLength(1);
    for (const query of [
      { q: 'hoodie', cursor: tees.nextCursor! },
      { q: 'tee', status: 'active', cursor: tees.nextCursor! },
      { cursor: tees.nextCursor! },
    ] as Array<Record<string, string>>) {
      const res = await call(`/api/admin/products?${new URLSearchParams(query)}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'invalid-cursor', message: expect.stringContaining('another search') });
    }
    for (const cursor of ['nonsense', '!!!', Buffer.from('abc.1').toString('base64url'), 'x'.repeat(201)]) {
      const res = await call(`/api/admin/products?cursor=${encodeURIComponent(cursor)}`);
      expect(res.status, cursor).toBe(400);
      expect(((await res.json()) as { code: string }).code).toMatch(/^(invalid-cursor|bad-request)$/);
    }
    for (const query of [
      'limit=0',
      'limit=101',
      'limit=abc',
      'limit=-1',
      'limit=1.5',
      'status=gone',
      'q=a&q=b',
      'sort=title',
      `q=${'x'.repeat(101)}`,
    ]) {
      const res = await call(`/api/admin/products?${query}`);
      expect(res.status, query).toBe(400);
      const body = (await res.json()) as { code: string; message: string };
      expect(body.code, query).toBe('bad-request');
      expect(body.message, query).toContain('Expected ?q=');
    }
  });

  it('gives a stranger nothing: no admin session, a forged cookie or another site', async () => {
    for (const init of [{ cookie: null }, { cookie: 'pogs_admin=forged-token-of-a-stranger' }] as const) {
      const res = await call('/api/admin/products?q=hoodie', init);
      expect(res.status).toBe(401);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body).toMatchObject({ code: 'admin-session-required' });
      expect(Object.keys(body).sort()).toEqual(['code', 'message']);
    }
    const crossSite = await call('/api/admin/products', { headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.json()).toMatchObject({ code: 'cross-site-request' });
  });
});
