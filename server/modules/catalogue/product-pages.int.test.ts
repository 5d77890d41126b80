import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { productSchema, type Product } from '../../../common/api';
import type { CatalogueFacets, CataloguePage } from '../../../common/catalogue-view';
import { parseUnits } from '../../../common/money';
import { startHarness, type Harness } from '../../test/harness';
import { testDatabaseKinds } from '../../test/databases';
import { bumpCatalogueVersion } from './sync';

/** The page's answer as the API documents it: every product in full, the total and the next cursor. */
const cataloguePageSchema = z.object({
  products: z.array(productSchema),
  total: z.number().int(),
  nextCursor: z.string().nullable(),
}) satisfies z.ZodType<CataloguePage, unknown>;

describe.each(testDatabaseKinds)('catalogue pages, search and filters on %s', (kind) => {
  let h: Harness;
  let all: Product[];

  beforeAll(async () => {
    h = await startHarness(kind);
    await h.catalogue.sync();
    await h.catalogue.seedDemoPrices();
    all = (await (await h.api('/api/products')).json()) as Product[];
  });
  afterAll(async () => {
    await h?.close();
  });

  const page = async (query: Record<string, string>): Promise<CataloguePage> => {
    const res = await h.api(`/api/catalogue/products?${new URLSearchParams(query)}`);
    expect(res.status, await res.clone().text()).toBe(200);
    return cataloguePageSchema.parse(await res.json());
  };

  /** Every page of a view, following the cursors. */
  const everyPage = async (query: Record<string, string>, between?: (pageNumber: number) => Promise<void>): Promise<Product[]> => {
    const seen: Product[] = [];
    let cursor: string | null = null;
    for (let n = 0; n < 100; n++) {
      const p = await page(cursor ? { ...query, cursor } : query);
      seen.push(...p.products);
      cursor = p.nextCursor;
      if (!cursor) return seen;
      await between?.(n);
    }
    throw new Error('more than 100 pages');
  };

  it('pages through the featured order exactly as the whole list has it', async () => {
    expect(all.length).toBeGreaterThan(10);
    const first = await page({ limit: '5' });
    expect(first.total).toBe(all.length);
    expect(first.products.map((p) => p.id)).toEqual(all.slice(0, 5).map((p) => p.id));
    expect((await everyPage({ limit: '5' })).map((p) => p.id)).toEqual(all.map((p) => p.id));
    // The default page size is the home's.
    expect((await page({})).products).toHaveLength(Math.min(24, all.length));
  });

  it('sorts by price both ways and by newest, every product once', async () => {
    const asc = await everyPage({ sort: 'price-asc', limit: '4' });
    expect(asc).toHaveLength(all.length);
    for (let i = 1; i < asc.length; i++) expect(parseUnits(asc[i - 1].price) <= parseUnits(asc[i].price)).toBe(true);
    const desc = await everyPage({ sort: 'price-desc', limit: '7' });
    for (let i = 1; i < desc.length; i++) expect(parseUnits(desc[i - 1].price) >= parseUnits(desc[i].price)).toBe(true);
    expect(new Set(desc.map((p) => p.id)).size).toBe(all.length);
    const newest = await everyPage({ sort: 'newest', limit: '6' });
    expect(newest.map((p) => p.id)).toEqual([...all].sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1)).map((p) => p.id));
  });

  it('searches title, description, vendor, type, tags and SKU by word prefixes, accents and case aside', async () => {
    const hoodie = all.find((p) => /hoodie/i.test(p.title))!;
    expect((await page({ q: 'HOOD' })).products[0].id).toBe(hoodie.id);
    const sku = hoodie.variants.find((v) => v.sku)!.sku!;
    expect((await page({ q: sku.toLowerCase() })).products.map((p) => p.id)).toContain(hoodie.id);
    const tag = hoodie.tags[0];
    const byTag = await page({ q: tag, limit: '60' });
    expect(byTag.products.map((p) => p.id)).toContain(hoodie.id);
    // Every word must match: a second word no product has leaves nothing.
    expect((await page({ q: `${hoodie.title} zzqqxx` })).total).toBe(0);
    expect((await page({ q: 'hóodie' })).products.map((p) => p.id)).toContain(hoodie.id);
  });

  it('filters by type, vendor and tag, with facets counting the listed products', async () => {
    const facets = (await (await h.api('/api/catalogue/facets')).json()) as CatalogueFacets;
    const type = facets.productTypes[0];
    expect(type.count).toBe(all.filter((p) => p.productType === type.value).length);
    const byType = await everyPage({ type: type.value, limit: '3' });
    expect(byType.map((p) => p.id).sort()).toEqual(
      all
        .filter((p) => p.productType === type.value)
        .map((p) => p.id)
        .sort(),
    );
    const vendor = facets.vendors[0];
    expect((await page({ vendor: vendor.value, limit: '60' })).total).toBe(vendor.count);
    const tag = facets.tags[0];
    const tagged = await page({ tag: tag.value, type: type.value, limit: '60' });
    expect(tagged.products.every((p) => p.tags.includes(tag.value) && p.productType === type.value)).toBe(true);
  });

  it('loses no product and shows none twice while products come and go between pages', async () => {
    const before = await page({ limit: '60' });
    const gone = all[3];
    const hiddenRow = () =>
      h.database.db('variants').whereIn('product_id', h.database.db('products').select('id').where('shopify_id', gone.id));
    const seen = await everyPage({ limit: '5' }, async (n) => {
      if (n !== 0) return;
      // After the first page: a product on it leaves, and one further on leaves too.
      const later = all[all.length - 2];
      await h.database.db.transaction(async (trx) => {
        await trx('variants')
          .whereIn('product_id', trx('products').select('id').whereIn('shopify_id', [gone.id, later.id]))
          .update({ is_active: false });
        await bumpCatalogueVersion(trx);
      });
    });
    const ids = seen.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    const stayed = before.products.filter((p) => p.id !== all[all.length - 2].id);
    for (const p of stayed) expect(ids).toContain(p.id);
    await h.database.db.transaction(async (trx) => {
      await hiddenRow().transacting(trx).update({ is_active: true });
      await trx('variants')
        .whereIn(
          'product_id',
          trx('products')
            .select('id')
            .where('shopify_id', all[all.length - 2].id),
        )
        .update({ is_active: true });
      await bumpCatalogueVersion(trx);
    });
  });

  it('answers a wrong query with a 400 naming what to fix', async () => {
    const first = await page({ limit: '2' });
    for (const [query, says] of [
      [`limit=0`, /limit/],
      [`limit=61`, /limit/],
      [`limit=two`, /limit/],
      [`sort=cheapest`, /sort/],
      [`q=${'a'.repeat(101)}`, /search/],
      [`cursor=not-a-cursor`, /cursor/],
      [`cursor=${first.nextCursor}&sort=price-asc`, /another search/],
      [`q=a&q=b`, /q/],
    ] as const) {
      const res = await h.api(`/api/catalogue/products?${query}`);
      expect(res.status, query).toBe(400);
      const body = (await res.json()) as { code: string; message: string };
      expect(body.code).toBe('bad-request');
      expect(body.message).toMatch(says);
    }
  });

  it('a stranger finds no hidden product by any search or filter', async () => {
    const hidden = h.emulator.state.listProducts().find((p) => p.status !== 'ACTIVE')!;
    expect(hidden).toBeDefined();
    expect((await page({ q: hidden.title })).products.map((p) => p.id)).not.toContain(hidden.legacyId);
    const facets = (await (await h.api('/api/catalogue/facets')).json()) as CatalogueFacets;
    const listedTypes = new Set(all.map((p) => p.productType));
    expect(facets.productTypes.every((t) => listedTypes.has(t.value))).toBe(true);
  });
});
