/**
 * The home and product pages' HTML with their data inlined (shop-pages.ts): the exact public API
 * bodies, a preload of the first photo, nothing that can break out of its tag, nothing private,
 * and an ETag that moves with the catalogue.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '../../common/api';
import { CATALOGUE_PAGE_SIZE, type CataloguePage } from '../../common/catalogue-view';
import { growDemoStore } from '../../emulators/shopify/demo-catalogue';
import { INLINE_DATA_IDS } from '../../common/inline-data';
import { SHOP_PAGE_MODULES } from '../../common/shop-render';
import { IMAGE_SIZES, productImages, responsiveImage, simplePageImageUrl } from '../../common/product-image-url';
import { bumpCatalogueVersion } from '../modules/catalogue';
import { startHarness, type Harness } from '../test/harness';
import { makeClientDir, renameFirstActiveProduct } from '../test/shop-pages';
import { Shopper } from '../test/shopper';

const INDEX_HTML =
  '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>POGS Shop</title>' +
  '<script type="module" crossorigin src="/assets/index-abc.js"></script></head>' +
  '<body><div id="root"></div></body></html>';
const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

let h: Harness;
const client = makeClientDir(INDEX_HTML, {
  'index.html': { file: 'assets/index-abc.js', isEntry: true },
  [SHOP_PAGE_MODULES.home]: { file: 'assets/shop-home-page-h.js', isDynamicEntry: true, imports: ['index.html'] },
});

beforeAll(async () => {
  h = await startHarness('pglite', { staticDir: client.dir });
  await h.catalogue.sync();
  await h.catalogue.seedDemoPrices();
});
afterAll(async () => {
  await h?.close();
  client.remove();
});

async function page(urlPath: string, headers: Record<string, string> = {}) {
  const res = await h.api(urlPath, { headers: { ...html, ...headers } });
  return { res, body: await res.text() };
}

/** The JSON of a data tag, parsed the way the browser hands it to the client (the tag's text). */
function inlined(body: string, id: string): unknown {
  const match = new RegExp(`<script type="application/json" id="${id}">([^<]*)</script>`).exec(body);
  return match ? JSON.parse(match[1]) : undefined;
}

const decodeAttribute = (value: string) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

function preloads(body: string) {
  return [...body.matchAll(/<link rel="preload" as="image" fetchpriority="high" ([^>]*)>/g)].map(([, attrs]) => {
    const attr = (name: string) => {
      const m = new RegExp(`${name}="([^"]*)"`).exec(attrs);
      return m ? decodeAttribute(m[1]) : undefined;
    };
    return { src: attr('href'), srcSet: attr('imagesrcset'), sizes: attr('imagesizes') };
  });
}

/** A conditional GET as a browser sends it on a reload (node:http: nothing added). */
function revalidate(urlPath: string, etag: string): Promise<http.IncomingMessage> {
  const url = new URL(h.baseUrl + urlPath);
  return new Promise((resolve, reject) => {
    const req = http.get({ host: url.hostname, port: url.port, path: urlPath, headers: { ...html, 'if-none-match': etag } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res));
    });
    req.on('error', reject);
  });
}

const apiJson = async (urlPath: string) => (await h.api(urlPath)).json();

describe('the home', () => {
  it('carries GET /api/config and the first page of the catalogue exactly, and preloads the first card’s photo as the card asks for it', async () => {
    const { res, body } = await page('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const firstPage = (await apiJson('/api/catalogue/products')) as CataloguePage;
    const products = firstPage.products;
    expect(products.length).toBeGreaterThan(1);
    expect(inlined(body, INLINE_DATA_IDS.cataloguePage)).toEqual(firstPage);
    expect(inlined(body, INLINE_DATA_IDS.config)).toEqual(await apiJson('/api/config'));
    expect(inlined(body, INLINE_DATA_IDS.product)).toBeUndefined();
    const first = productImages(products[0])[0].url;
    expect(preloads(body)).toEqual([responsiveImage(first, 'card')]);
    expect(preloads(body)[0].srcSet).toContain(' 400w');
    expect(preloads(body)[0].sizes).toBe(IMAGE_SIZES.card);
    // In the head, before the app's script; the data in the body.
    expect(body.indexOf('rel="preload"')).toBeLessThan(body.indexOf('</head>'));
    expect(body.indexOf(INLINE_DATA_IDS.cataloguePage)).toBeGreaterThan(body.indexOf('<body>'));
  });

  it('carries the first page of the view its URL names (search, filters, sort), exactly as the page route answers it', async () => {
    const products = (await apiJson('/api/products')) as Product[];
    const type = products.find((p) => p.productType)!.productType;
    const query = `type=${encodeURIComponent(type)}&sort=price-desc`;
    const expected = (await apiJson(`/api/catalogue/products?${query}`)) as CataloguePage;
    expect(expected.products.length).toBeGreaterThan(0);
    expect(expected.products.every((p) => p.productType === type)).toBe(true);
    // The URL's order and anything else in it aside, and a stale value falls back to the default.
    for (const url of [`/?${query}`, `/?sort=price-desc&utm_source=mail&type=${encodeURIComponent(type)}`]) {
      const { res, body } = await page(url);
      expect(res.status, url).toBe(200);
      expect(inlined(body, INLINE_DATA_IDS.cataloguePage), url).toEqual(expected);
      expect(preloads(body)[0].src, url).toBe(responsiveImage(productImages(expected.products[0])[0].url, 'card').src);
    }
    expect(inlined((await page('/?sort=cheapest-first')).body, INLINE_DATA_IDS.cataloguePage)).toEqual(
      await apiJson('/api/catalogue/products'),
    );
    // A search that matches nothing: an empty first page, no photo to preload.
    const none = await page('/?q=zzzqqqxxx');
    expect(inlined(none.body, INLINE_DATA_IDS.cataloguePage)).toEqual({ products: [], total: 0, nextCursor: null });
    expect(preloads(none.body)).toEqual([]);
  });

  it('carries one page whatever the catalogue’s size: 200 more products leave its HTML the same size', async () => {
    const before = await page('/');
    const firstBefore = inlined(before.body, INLINE_DATA_IDS.cataloguePage) as CataloguePage;
    expect(firstBefore.products).toHaveLength(Math.min(CATALOGUE_PAGE_SIZE, firstBefore.total));
    growDemoStore(h.emulator, h.emulator.state.listProducts().length + 200);
    await h.catalogue.sync();
    // Priced as the demo's (seedDemoPrices prices a catalogue once): listed for sale.
    const db = h.database.db;
    await db('variants')
      .whereNull('pog_price')
      .whereNull('removed_at')
      .whereNotNull('shopify_price')
      .update({ pog_price: db.raw('shopify_price * 10'), is_active: true });
    await bumpCatalogueVersion(db);
    const after = await page('/');
    const firstAfter = inlined(after.body, INLINE_DATA_IDS.cataloguePage) as CataloguePage;
    expect(firstAfter.total).toBeGreaterThanOrEqual(firstBefore.total + 200);
    expect(firstAfter.products).toHaveLength(CATALOGUE_PAGE_SIZE);
    expect(firstAfter.nextCursor).not.toBeNull();
    expect(firstAfter).toEqual(await apiJson('/api/catalogue/products'));
    // The same first products (new ones come last in the featured order): the same bytes but for the total.
    const size = (body: string) => Buffer.byteLength(body);
    expect(Math.abs(size(after.body) - size(before.body))).toBeLessThan(256);
    expect(size(after.body)).toBeLessThan(size(before.body) + 256);
  });

  it('rendered by the browser (no server rendering here), it preloads its own chunk in the head; a product page has none listed', async () => {
    const { body } = await page('/');
    const head = body.slice(0, body.indexOf('</head>'));
    expect(head).toContain('<link rel="modulepreload" crossorigin href="/assets/shop-home-page-h.js">');
    expect(head).toContain('<script type="module" crossorigin src="/assets/index-abc.js"></script>');
    const product = ((await apiJson('/api/products')) as Product[])[0]!;
    expect((await page(`/product/${product.id}`)).body).not.toContain('modulepreload');
  });

  it('answers 304 to its own ETag, and a new ETag once the catalogue changes', async () => {
    const { res, body } = await page('/');
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^W\/".+"$/);
    // As a browser revalidates (fetch() would add Cache-Control: no-cache, which asks for the full page).
    const again = await revalidate('/', etag!);
    expect(again.statusCode).toBe(304);
    expect(again.headers['cache-control']).toBe('no-cache');

    const target = ((await apiJson('/api/catalogue/products')) as CataloguePage).products[1];
    await h.database.db('products').where({ shopify_id: target.id }).update({ custom_title: 'Renamed For The Page' });
    await bumpCatalogueVersion(h.database.db);
    expect((await revalidate('/', etag!)).statusCode).toBe(200);
    const changed = await page('/');
    expect(changed.res.headers.get('etag')).not.toBe(etag);
    expect(changed.body).not.toBe(body);
    expect((inlined(changed.body, INLINE_DATA_IDS.cataloguePage) as CataloguePage).products.find((p) => p.id === target.id)?.title).toBe(
      'Renamed For The Page',
    );
  });
});

describe('the product pages', () => {
  it('/product/:id carries its product (GET /api/products/:id exactly) and preloads its first photo', async () => {
    const products = (await apiJson('/api/products')) as Product[];
    const product = products.find((p) => p.images.length > 1) ?? products[0];
    const { res, body } = await page(`/product/${product.id}`);
    expect(res.status).toBe(200);
    expect(inlined(body, INLINE_DATA_IDS.product)).toEqual(await apiJson(`/api/products/${product.id}`));
    expect(inlined(body, INLINE_DATA_IDS.config)).toEqual(await apiJson('/api/config'));
    expect(inlined(body, INLINE_DATA_IDS.cataloguePage)).toBeUndefined();
    expect(preloads(body)).toEqual([responsiveImage(productImages(product)[0].url, 'productPage')]);
  });

  it('/products/:id (the simple page) preloads the photo it shows', async () => {
    const [product] = (await apiJson('/api/products')) as Product[];
    const { body } = await page(`/products/${product.id}`);
    expect(inlined(body, INLINE_DATA_IDS.product)).toEqual(product);
    expect(preloads(body)).toEqual([responsiveImage(simplePageImageUrl(product)!, 'simplePage')]);
  });

  it.each(['/product/99999999999', '/products/123', '/product/not-a-number', '/cart', '/orders'])(
    '%s: the plain index.html, no data',
    async (urlPath) => {
      const { res, body } = await page(urlPath);
      expect(res.status).toBe(200);
      expect(body).toBe(INDEX_HTML);
    },
  );
});

describe('what cannot get into the page', () => {
  it('a title with </script>, <!--, & and U+2028 stays inside its tag and reads back exactly', async () => {
    const evil = `Evil </script><script>alert(1)</script> <!-- & \u2028\u2029 </SCRIPT >`;
    const id = await renameFirstActiveProduct(h, evil);
    const listed = ((await apiJson('/api/products')) as Product[]).find((p) => p.id === id);
    expect(listed?.title).toBe(evil);

    for (const urlPath of ['/', `/product/${id}`]) {
      const { body } = await page(urlPath);
      // Only the template's own script and our tags close a <script>; nothing opens a comment.
      const closes = body.toLowerCase().split('</script').length - 1;
      const opens = body.toLowerCase().split('<script').length - 1;
      expect(closes, urlPath).toBe(opens);
      expect(body).not.toContain('<!--');
      expect(body).not.toMatch(/[\u2028\u2029]/);
      const data =
        urlPath === '/'
          ? (inlined(body, INLINE_DATA_IDS.cataloguePage) as CataloguePage).products.find((p) => p.id === id)
          : inlined(body, INLINE_DATA_IDS.product);
      expect((data as Product).title, urlPath).toBe(evil);
    }
  });

  it('no cart, session or sign-in: a shopper with a cart gets the same page, byte for byte, as a stranger', async () => {
    const shopper = new Shopper(h);
    const products = (await apiJson('/api/products')) as Product[];
    const variant = products.flatMap((p) => p.variants).find((v) => !v.isSoldOut)!;
    expect((await shopper.add({ variantId: variant.id, quantity: 1 })).status).toBe(200);
    expect(shopper.cookie).not.toBeNull();
    const cartJson = JSON.stringify(await shopper.cart());
    for (const urlPath of ['/', `/product/${products[0].id}`]) {
      const mine = await page(urlPath, { cookie: shopper.cookie! });
      const stranger = await page(urlPath);
      expect(mine.body, urlPath).toBe(stranger.body);
      expect(mine.res.headers.get('etag')).toBe(stranger.res.headers.get('etag'));
      expect(mine.res.headers.getSetCookie()).toEqual([]);
      expect(mine.body).not.toContain(shopper.cookie!.split('=')[1]);
      expect(mine.body).not.toContain(cartJson);
      expect(mine.body).not.toMatch(/"items"|"lineTotal"|"sessionId"|"address"/);
    }
  });
});
