import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '../../../common/api';
import type { CataloguePage } from '../../../common/catalogue-view';
import { testDatabaseKinds } from '../../test/databases';
import { startHarness, type Harness } from '../../test/harness';
import { fetchRaw as raw } from '../../test/raw-http';
import { bumpCatalogueVersion } from './sync';

const decode = (answer: { headers: Record<string, unknown>; body: Buffer }): unknown => {
  const coding = answer.headers['content-encoding'];
  const bytes = coding === 'br' ? brotliDecompressSync(answer.body) : coding === 'gzip' ? gunzipSync(answer.body) : answer.body;
  return JSON.parse(bytes.toString('utf8'));
};

describe.each(testDatabaseKinds)('the catalogue answers stored per version on %s', (kind) => {
  let h: Harness;
  let product: Product;
  const priceOf = (list: Product[]) => list.find((p) => p.id === product.id)!.variants[0].price;
  /** A price edit as the admin's commits it: the row, then the version, in this process. */
  const editPrice = async (price: string) => {
    await h.database.db('variants').where({ shopify_id: product.variants[0].id }).update({ pog_price: price });
    await bumpCatalogueVersion(h.database.db);
  };

  beforeAll(async () => {
    h = await startHarness(kind);
    await h.catalogue.sync();
    await h.catalogue.seedDemoPrices();
    [product] = (await (await h.api('/api/products')).json()) as Product[];
  });
  afterAll(async () => {
    await h?.close();
  });

  it('shows a price edit at the next read of the list, the product and a search page, while the compressed list is still pending', async () => {
    const url = `${h.baseUrl}/api/products`;
    // The stored forms of this version exist (the first ask starts them).
    await expect
      .poll(async () => (await raw(url, { 'accept-encoding': 'br' })).headers['content-length'], { timeout: 30_000 })
      .toBeDefined();
    const oldEtag = (await raw(url)).headers.etag;

    await editPrice('4321.5');
    // The first ask of the new version: its br form was only started by it, so the answer is
    // compressed on the fly (chunked, no Content-Length), and it is the new version, never the old.
    const first = await raw(url, { 'accept-encoding': 'br' });
    expect(first.status).toBe(200);
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers['content-length']).toBeUndefined();
    expect(first.headers.etag).not.toBe(oldEtag);
    expect(priceOf(decode(first) as Product[])).toBe('4321.50');
    for (const coding of ['gzip', 'identity'])
      expect(priceOf(decode(await raw(url, { 'accept-encoding': coding })) as Product[])).toBe('4321.50');

    const one = await raw(`${url}/${product.id}`, { 'accept-encoding': 'gzip' });
    expect((decode(one) as Product).variants[0].price).toBe('4321.50');
    const page = decode(await raw(`${h.baseUrl}/api/catalogue/products?q=${encodeURIComponent(product.title)}`)) as CataloguePage;
    expect(priceOf(page.products)).toBe('4321.50');

    // Once stored, the list is the same JSON in every coding.
    await expect
      .poll(async () => (await raw(url, { 'accept-encoding': 'br' })).headers['content-length'], { timeout: 30_000 })
      .toBeDefined();
    await expect
      .poll(async () => (await raw(url, { 'accept-encoding': 'gzip' })).headers['content-length'], { timeout: 30_000 })
      .toBeDefined();
    const identity = decode(await raw(url, { 'accept-encoding': 'identity' }));
    for (const coding of ['br', 'gzip']) {
      const answer = await raw(url, { 'accept-encoding': coding });
      expect(answer.headers['content-encoding']).toBe(coding);
      expect(answer.headers.etag).toBe(first.headers.etag);
      expect(decode(answer)).toEqual(identity);
    }
  });

  it("answers a product in br, gzip and identity with one ETag: a 304 to it, a 200 once the product's price changes", async () => {
    const url = `${h.baseUrl}/api/products/${product.id}`;
    const identity = await raw(url, { 'accept-encoding': 'identity' });
    expect(identity.status).toBe(200);
    expect(identity.headers['content-encoding']).toBeUndefined();
    const etag = identity.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    for (const coding of ['br', 'gzip']) {
      const answer = await raw(url, { 'accept-encoding': coding });
      expect(answer.headers['content-encoding']).toBe(coding);
      expect(answer.headers.vary).toMatch(/accept-encoding/i);
      expect(answer.headers.etag).toBe(etag);
      expect(decode(answer)).toEqual(decode(identity));
    }
    const again = await raw(url, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    // Another product's change leaves this product's ETag as it was.
    const other = (decode(await raw(`${h.baseUrl}/api/products`)) as Product[]).find((p) => p.id !== product.id)!;
    await h.database.db('variants').where({ shopify_id: other.variants[0].id }).update({ pog_price: '77' });
    await bumpCatalogueVersion(h.database.db);
    expect((await raw(url, { 'if-none-match': etag })).status).toBe(304);

    await editPrice('55.25');
    const changed = await raw(url, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect((decode(changed) as Product).variants[0].price).toBe('55.25');
  });

  it('answers a search page with an ETag of its version and query: a 304 to it, a 200 for another query or after a change', async () => {
    const path = `/api/catalogue/products?q=${encodeURIComponent(product.title.split(' ')[0])}&limit=5`;
    const first = await raw(h.baseUrl + path, { 'accept-encoding': 'gzip' });
    expect(first.status).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    expect((await raw(h.baseUrl + path, { 'if-none-match': etag })).status).toBe(304);
    const otherQuery = await raw(`${h.baseUrl}/api/catalogue/products?limit=5`, { 'if-none-match': etag });
    expect(otherQuery.status).toBe(200);
    expect(otherQuery.headers.etag).not.toBe(etag);

    await editPrice('66.5');
    const after = await raw(h.baseUrl + path, { 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(priceOf((decode(after) as CataloguePage).products)).toBe('66.50');
    // A bad query is still a 400, ETag or not.
    expect((await raw(`${h.baseUrl}/api/catalogue/products?limit=0`, { 'if-none-match': etag })).status).toBe(400);
  });

  it("gives a stranger's made-up ids nothing and keeps no answer for them", async () => {
    for (const id of ['123456789', 'abc', '1'.repeat(30)]) {
      const res = await raw(`${h.baseUrl}/api/products/${id}`, { 'if-none-match': '*' });
      expect(res.status).toBe(404);
    }
    const snap = await h.catalogue.list();
    expect(snap.product('123456789')).toBeUndefined();
  });
});
