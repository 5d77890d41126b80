/**
 * The admin's product groups on each database, with the demo catalogue synced from the emulator
 * through the real Shopify client: a group is a Shopify product (common/admin's `inventoryGroups`
 * over `GET /api/inventory`), and its bulk price, status and title act on exactly its variants.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inventoryGroups, inventorySchema, inventoryWriteResultSchema, type InventoryItem } from '../../../common/admin';
import type { Product } from '../../../common/api';
import { testDatabaseKinds } from '../../test/databases';
import { adminCaller, adminSession, startHarness, type Harness } from '../../test/harness';

/** Demo products whose variants differ by a colour or a finish word, which title suffixes never grouped. */
const COLOUR_PRODUCTS = ['Pog Tube', 'Snapback Cap', 'Chrome Skull Slammer', 'Yin-Yang Slammer', 'Kini Art Poster', 'Heritage Mug'];

describe.each(testDatabaseKinds)('product groups on %s', (kind) => {
  let h: Harness;
  let admin: string;

  const call: ReturnType<typeof adminCaller> = (path, init) => adminCaller(h.api, () => admin)(path, init);
  const inventory = async (): Promise<InventoryItem[]> => {
    const res = await call('/api/inventory');
    expect(res.status).toBe(200);
    return inventorySchema.parse(await res.json());
  };
  const groupOf = async (title: string) => {
    const group = inventoryGroups(await inventory()).find((g) => g.title === title);
    expect(group, title).toBeDefined();
    return group!;
  };
  /** A group's bulk action as the group card sends it: one PATCH per variant, all at once. */
  const bulk = async (ids: readonly string[], changes: Record<string, unknown>) => {
    const answers = await Promise.all(ids.map((id) => call(`/api/inventory/${id}/update`, { method: 'PATCH', body: changes })));
    expect(answers.map((r) => r.status)).toEqual(ids.map(() => 200));
  };
  const variantRows = async () =>
    (await h.database.db('variants').orderBy('shopify_id').select('shopify_id', 'pog_price', 'is_active')).map((r) => ({
      id: String(r.shopify_id),
      price: r.pog_price == null ? null : Number(r.pog_price).toFixed(2),
      active: Boolean(r.is_active),
    }));
  const listed = async (): Promise<Product[]> => (await (await h.api('/api/products')).json()) as Product[];
  const titlePath = (title: string, query = '') => `/api/products/${encodeURIComponent(title)}/custom-title${query}`;
  const customTitles = async () =>
    Object.fromEntries(
      (await h.database.db('products').orderBy('id').select('shopify_id', 'custom_title')).map((r) => [
        String(r.shopify_id),
        r.custom_title,
      ]),
    );

  beforeAll(async () => {
    h = await startHarness(kind);
    await h.catalogue.sync();
    await h.catalogue.seedDemoPrices();
    admin = await adminSession(h);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('makes one group per Shopify product: the demo’s 27 products are 27 groups, each exactly its product’s variants', async () => {
    const items = await inventory();
    const groups = inventoryGroups(items);
    const products = await h.database.db('products').whereNull('removed_at').select('shopify_id', 'title');
    expect(products).toHaveLength(27);
    expect(groups).toHaveLength(27);
    // A partition of the inventory by product.
    expect(new Set(groups.map((g) => g.productId)).size).toBe(27);
    for (const group of groups) {
      expect(group.variants.every((v) => v.productId === group.productId)).toBe(true);
      expect(group.variants.map((v) => v.id)).toEqual(items.filter((i) => i.productId === group.productId).map((i) => i.id));
    }

    // Variants that differ by a colour or finish word are one group, named by the product.
    for (const title of COLOUR_PRODUCTS) {
      const group = groups.find((g) => g.title === title);
      const variants = await h.database
        .db('variants as v')
        .join('products as p', 'p.id', 'v.product_id')
        .where('p.title', title)
        .whereNull('v.removed_at')
        .count<Array<{ n: number | string }>>({ n: '*' });
      expect(group?.variants.length, title).toBe(Number(variants[0]!.n));
      expect(group!.variants.length, title).toBeGreaterThan(1);
    }
    expect((await groupOf('Pog Tube')).variants.map((v) => v.variantTitle)).toEqual(['Clear', 'Smoke', 'Neon Green']);
    // The suffix stripping still names a group: the hoodie by its forced name, with every size and colour.
    expect((await groupOf('Classic Hoodie')).variants).toHaveLength(12);
  });

  it('sets a group’s price and status on exactly its variants, and the shop follows', async () => {
    const tube = await groupOf('Pog Tube');
    const ids = tube.variants.map((v) => v.id);
    const before = await variantRows();

    await bulk(ids, { pogPrice: '77.70' });
    const afterPrice = await variantRows();
    expect(afterPrice.filter((r) => ids.includes(r.id)).map((r) => r.price)).toEqual(ids.map(() => '77.70'));
    expect(afterPrice.filter((r) => !ids.includes(r.id))).toEqual(before.filter((r) => !ids.includes(r.id)));
    const shown = (await listed()).find((p) => p.id === tube.productId)!;
    expect(shown.variants.map((v) => v.price)).toEqual(ids.map(() => '77.70'));

    // Deactivate All: the product leaves the shop, nothing else moves; Activate All brings it back.
    await bulk(ids, { isActive: false });
    const afterOff = await variantRows();
    expect(afterOff.filter((r) => ids.includes(r.id)).every((r) => !r.active)).toBe(true);
    expect(afterOff.filter((r) => !ids.includes(r.id))).toEqual(before.filter((r) => !ids.includes(r.id)));
    expect((await listed()).some((p) => p.id === tube.productId)).toBe(false);
    expect(
      inventoryGroups(await inventory())
        .find((g) => g.productId === tube.productId)!
        .variants.every((v) => !v.isActive),
    ).toBe(true);

    await bulk(ids, { isActive: true });
    expect((await listed()).find((p) => p.id === tube.productId)?.variants).toHaveLength(3);
  });

  describe('two Shopify products with the same title', () => {
    let tube: string;
    let twin: string;

    beforeAll(async () => {
      tube = (await groupOf('Pog Tube')).productId;
      const made = h.emulator.upsertProduct({
        title: 'Pog Tube',
        productType: 'Accessories',
        variants: [{ title: 'Default Title', price: '4.99', inventoryQuantity: 7 }],
      });
      twin = made.legacyId;
      await h.catalogue.sync();
      await h.database
        .db('variants as v')
        .whereIn('v.product_id', h.database.db('products').where({ shopify_id: twin }).select('id'))
        .update({ pog_price: '49.90', is_active: true });
      // Another product sharing the title is its own group: 28 products, 28 groups.
      const groups = inventoryGroups(await inventory());
      expect(groups).toHaveLength(28);
      expect(groups.filter((g) => g.title === 'Pog Tube').map((g) => [g.productId, g.variants.length])).toEqual([
        [tube, 3],
        [twin, 1],
      ]);
    });
    afterAll(async () => {
      h.emulator.deleteProduct(twin);
      await h.catalogue.sync();
    });

    it('sets and clears the title of the group’s product alone (?productId=), the shop showing each', async () => {
      const others = await customTitles();
      const set = await call(titlePath('Pog Tube', `?productId=${tube}`), { method: 'PUT', body: { customTitle: 'Pog Tube Trio' } });
      expect(set.status, await set.clone().text()).toBe(200);
      const { items } = inventoryWriteResultSchema.parse(await set.json());
      expect(items.map((i) => [i.productId, i.title])).toEqual([
        [tube, 'Pog Tube Trio - Clear'],
        [tube, 'Pog Tube Trio - Smoke'],
        [tube, 'Pog Tube Trio - Neon Green'],
      ]);
      expect(await customTitles()).toEqual({ ...others, [tube]: 'Pog Tube Trio' });
      const shop = await listed();
      expect(shop.find((p) => p.id === tube)!.title).toBe('Pog Tube Trio');
      expect(shop.find((p) => p.id === twin)!.title).toBe('Pog Tube');
      expect(inventoryGroups(await inventory()).find((g) => g.productId === tube)!.title).toBe('Pog Tube Trio');

      const cleared = await call(titlePath('Pog Tube', `?productId=${tube}`), { method: 'DELETE' });
      expect(cleared.status).toBe(200);
      expect(await customTitles()).toEqual(others);
    });

    it('keeps the group call without productId: every product with that Shopify title', async () => {
      const res = await call(titlePath('Pog Tube'), { method: 'PUT', body: { customTitle: 'All Tubes' } });
      expect(res.status).toBe(200);
      const titles = await customTitles();
      expect([titles[tube], titles[twin]]).toEqual(['All Tubes', 'All Tubes']);
      expect((await call(titlePath('Pog Tube'), { method: 'DELETE' })).status).toBe(200);
    });

    it('answers 404 for a product that does not have the path’s title, and 400 for a bad productId, changing nothing', async () => {
      const before = await customTitles();
      const snapId = (await groupOf('Snapback Cap')).productId;
      const wrong = await call(titlePath('Pog Tube', `?productId=${snapId}`), { method: 'PUT', body: { customTitle: 'Nope' } });
      expect(wrong.status).toBe(404);
      expect(await wrong.json()).toMatchObject({ code: 'product-not-found' });
      const unknown = await call(titlePath('Pog Tube', '?productId=1'), { method: 'DELETE' });
      expect(unknown.status).toBe(404);
      for (const query of ['?productId=abc', '?productId=', `?productId=${tube}&productId=${twin}`, `?productId=${tube}&extra=1`]) {
        const bad = await call(titlePath('Pog Tube', query), { method: 'PUT', body: { customTitle: 'Nope' } });
        expect(bad.status, query).toBe(400);
        expect(await bad.json()).toMatchObject({ code: 'bad-request', message: expect.stringContaining('productId') });
      }
      expect(await customTitles()).toEqual(before);
    });

    it('gives a stranger nothing: no admin session, a shopper’s cookie or another site get 401/403 and change nothing', async () => {
      const before = await customTitles();
      const path = titlePath('Pog Tube', `?productId=${tube}`);
      for (const method of ['PUT', 'DELETE']) {
        const body = method === 'PUT' ? { customTitle: 'Hijacked' } : undefined;
        const none = await call(path, { method, body, cookie: null });
        expect(none.status, method).toBe(401);
        expect(await none.json()).toMatchObject({ code: 'admin-session-required' });
        const forged = await call(path, { method, body, cookie: 'pogs_admin=forged-token-of-a-stranger' });
        expect(forged.status, method).toBe(401);
        const crossSite = await call(path, { method, body, headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } });
        expect(crossSite.status, method).toBe(403);
        expect(await crossSite.json()).toMatchObject({ code: 'cross-site-request' });
      }
      expect(await customTitles()).toEqual(before);
    });
  });
});
