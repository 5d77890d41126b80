/**
 * What crawlers and link previews read: the product pages' and the home's head (title,
 * description, canonical, Open Graph, Twitter card, JSON-LD), the sitemap (one file, and the index
 * past its limit) and robots.txt; and that nothing hidden gets into any of them.
 */
import http, { createServer, type Server } from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { DOMParser, type Element as XmlElement } from '@xmldom/xmldom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '../../../common/api';
import { INLINE_DATA_IDS } from '../../../common/inline-data';
import { createApp } from '../../app';
import { bumpCatalogueVersion } from '../../modules/catalogue';
import { startHarness, type Harness } from '../../test/harness';
import { makeClientDir, renameFirstActiveProduct } from '../../test/shop-pages';

const PUBLIC_URL = 'https://shop.example.com';
const TEMPLATE_DESCRIPTION = 'POGS Shop: heritage merchandise priced and paid in $POGS on the Base network.';
const INDEX_HTML =
  '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>POGS Shop</title>' +
  `<meta name="description" content="${TEMPLATE_DESCRIPTION}" />` +
  '<script type="module" crossorigin src="/assets/index-abc.js"></script></head>' +
  '<body><div id="root"></div></body></html>';
const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

let h: Harness;
// The built client's own robots.txt and sitemap.xml, as a stale build might carry: never served.
const client = makeClientDir(INDEX_HTML);
fs.writeFileSync(path.join(client.dir, 'robots.txt'), 'User-agent: *\nDisallow: /stale\n');
fs.writeFileSync(path.join(client.dir, 'sitemap.xml'), '<stale/>');

beforeAll(async () => {
  h = await startHarness('pglite', { staticDir: client.dir, env: { PUBLIC_URL } });
  await h.catalogue.sync();
  await h.catalogue.seedDemoPrices();
});
afterAll(async () => {
  await h?.close();
  client.remove();
});

async function page(urlPath: string) {
  const res = await h.api(urlPath, { headers: html });
  expect(res.status, urlPath).toBe(200);
  return res.text();
}
const products = async () => (await (await h.api('/api/products')).json()) as Product[];

const decode = (value: string) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&amp;/g, '&');

const headOf = (body: string) => body.slice(0, body.indexOf('</head>'));

/** The content of every <meta> with this name or property, in the head. */
function metas(body: string, key: string): string[] {
  return [...headOf(body).matchAll(/<meta (name|property)="([^"]+)" content="([^"]*)">/g)]
    .filter((m) => m[2] === key)
    .map((m) => decode(m[3]));
}
const metaOf = (body: string, key: string) => {
  const all = metas(body, key);
  expect(all, key).toHaveLength(1);
  return all[0];
};
function canonicals(body: string): string[] {
  return [...headOf(body).matchAll(/<link rel="canonical" href="([^"]*)">/g)].map((m) => decode(m[1]));
}
function titles(body: string): string[] {
  return [...headOf(body).matchAll(/<title>([^<]*)<\/title>/g)].map((m) => decode(m[1]));
}
/** Every JSON-LD block, parsed from its text as a crawler reads it. */
function jsonLds(body: string): Array<Record<string, unknown>> {
  return [...body.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)].map((m) => JSON.parse(m[1]));
}

const isAbsolute = (url: string) => /^https?:\/\/[^/]+/.test(url) && new URL(url).href === url;

type Offer = { '@type': string; price: string; priceCurrency: string; availability: string; sku?: string; name?: string; url: string };

describe('a product page', () => {
  it('carries title, description, canonical, Open Graph, Twitter and a Product in JSON-LD matching the product', async () => {
    const list = await products();
    const multi = list.find((p) => p.variants.length > 1 && p.variants.some((v) => v.isSoldOut) && p.variants.some((v) => !v.isSoldOut))!;
    const single = list.find((p) => p.variants.length === 1 && p.variants[0].sku)!;
    expect(multi, 'the demo catalogue has a product with sold-out and available variants').toBeDefined();
    expect(single, 'and one with a single variant').toBeDefined();
    for (const product of [multi, single]) {
      const body = await page(`/product/${product.id}`);
      const canonical = `${PUBLIC_URL}/product/${product.id}`;
      expect(titles(body)).toEqual([`${product.title} · POGS Shop`]);
      const description = metaOf(body, 'description');
      expect(description.length).toBeGreaterThan(10);
      expect(description.length).toBeLessThanOrEqual(160);
      expect(description).not.toMatch(/[<>]/);
      expect(description).not.toBe(TEMPLATE_DESCRIPTION);
      expect(canonicals(body)).toEqual([canonical]);
      expect(metaOf(body, 'og:type')).toBe('product');
      expect(metaOf(body, 'og:title')).toBe(product.title);
      expect(metaOf(body, 'og:description')).toBe(description);
      expect(metaOf(body, 'og:url')).toBe(canonical);
      expect(metaOf(body, 'og:site_name')).toBe('POGS Shop');
      expect(isAbsolute(metaOf(body, 'og:image'))).toBe(true);
      expect(metaOf(body, 'product:price:amount')).toBe(product.price);
      expect(metaOf(body, 'product:price:currency')).toBe('POGS');
      expect(metaOf(body, 'twitter:card')).toBe('summary_large_image');
      expect(metaOf(body, 'twitter:image')).toBe(metaOf(body, 'og:image'));
      expect(metaOf(body, 'twitter:title')).toBe(product.title);

      const lds = jsonLds(body);
      expect(lds).toHaveLength(1);
      const ld = lds[0] as Record<string, unknown> & { offers: Offer & { offers?: Offer[]; lowPrice?: string; highPrice?: string } };
      expect(ld['@context']).toBe('https://schema.org');
      expect(ld['@type']).toBe('Product');
      expect(ld.name).toBe(product.title);
      expect(ld.description).toBe(description);
      expect(ld.url).toBe(canonical);
      expect((ld.image as string[]).length).toBeGreaterThan(0);
      expect((ld.image as string[]).every(isAbsolute)).toBe(true);
      if (product.vendor) expect(ld.brand).toEqual({ '@type': 'Brand', name: product.vendor });
      const stock = (soldOut: boolean) => (soldOut ? 'https://schema.org/OutOfStock' : 'https://schema.org/InStock');
      if (product === single) {
        const [variant] = product.variants;
        expect(ld.sku).toBe(variant.sku);
        expect(ld.offers).toEqual({
          '@type': 'Offer',
          sku: variant.sku,
          price: variant.price,
          priceCurrency: 'POGS',
          availability: stock(variant.isSoldOut),
          url: canonical,
        });
        expect(ld.offers.price).toMatch(/^\d+\.\d{2,}$/);
      } else {
        expect(ld.sku).toBeUndefined();
        expect(ld.offers['@type']).toBe('AggregateOffer');
        expect(ld.offers.priceCurrency).toBe('POGS');
        expect(ld.offers.lowPrice).toBe(product.price);
        expect(ld.offers.availability).toBe('https://schema.org/InStock');
        expect(ld.offers.offers).toEqual(
          product.variants.map((v) => ({
            '@type': 'Offer',
            name: v.title,
            ...(v.sku ? { sku: v.sku } : {}),
            price: v.price,
            priceCurrency: 'POGS',
            availability: stock(v.isSoldOut),
            url: canonical,
          })),
        );
        expect(new Set(ld.offers.offers!.map((o) => o.availability))).toEqual(
          new Set(['https://schema.org/InStock', 'https://schema.org/OutOfStock']),
        );
      }
    }
  });

  it('its JSON-LD is a data block: the policy allows no inline script for it', async () => {
    const [product] = await products();
    const res = await h.api(`/product/${product.id}`, { headers: html });
    expect(jsonLds(await res.text())).toHaveLength(1);
    const scriptSrc = /(?:^|;)\s*script-src ([^;]*)/.exec(res.headers.get('content-security-policy') ?? '')?.[1];
    // This page is not rendered on the server here (no loader script): nothing inline is allowed.
    expect(scriptSrc).toBe("'self'");
  });

  it('the simple page (/products/:id) names /product/:id as canonical and carries the same Product', async () => {
    const [product] = await products();
    const simple = await page(`/products/${product.id}`);
    const full = await page(`/product/${product.id}`);
    expect(canonicals(simple)).toEqual([`${PUBLIC_URL}/product/${product.id}`]);
    expect(metaOf(simple, 'og:url')).toBe(`${PUBLIC_URL}/product/${product.id}`);
    expect(jsonLds(simple)).toEqual(jsonLds(full));
  });

  it('a fully sold-out product is OutOfStock in every offer', async () => {
    const product = (await products()).find((p) => p.variants.every((v) => v.isSoldOut));
    expect(product, 'the demo catalogue has a fully sold-out product').toBeDefined();
    const ld = jsonLds(await page(`/product/${product!.id}`))[0] as { offers: Offer & { offers?: Offer[] } };
    expect(ld.offers.availability).toBe('https://schema.org/OutOfStock');
    for (const offer of ld.offers.offers ?? []) expect(offer.availability).toBe('https://schema.org/OutOfStock');
  });

  it('a title with </script>, quotes and & stays inside its tags and reads back exactly', async () => {
    const evil = `Evil "quoted" 'single' </script><script>alert(1)</script> <!-- & \u2028 </SCRIPT >`;
    const id = await renameFirstActiveProduct(h, evil);
    const body = await page(`/product/${id}`);
    const closes = body.toLowerCase().split('</script').length - 1;
    const opens = body.toLowerCase().split('<script').length - 1;
    expect(closes).toBe(opens);
    expect(body).not.toContain('<!--');
    expect(body).not.toMatch(/[\u2028\u2029]/);
    expect(jsonLds(body)[0].name).toBe(evil);
    expect(metaOf(body, 'og:title')).toBe(evil);
    expect(titles(body)).toEqual([`${evil} · POGS Shop`]);
    // The page's own data still reads back (the JSON-LD did not disturb it).
    const data = /<script type="application\/json" id="([^"]+)">([^<]*)<\/script>/g;
    const product = [...body.matchAll(data)].find((m) => m[1] === INLINE_DATA_IDS.product)!;
    expect((JSON.parse(product[2]) as Product).title).toBe(evil);
  });
});

describe('the home', () => {
  it('carries the store’s tags and WebSite/OnlineStore JSON-LD, its title and description once', async () => {
    const body = await page('/');
    expect(titles(body)).toEqual(['POGS Shop']);
    expect(metas(body, 'description')).toEqual([TEMPLATE_DESCRIPTION]);
    expect(canonicals(body)).toEqual([`${PUBLIC_URL}/`]);
    expect(metaOf(body, 'og:type')).toBe('website');
    expect(metaOf(body, 'og:url')).toBe(`${PUBLIC_URL}/`);
    expect(metaOf(body, 'og:site_name')).toBe('POGS Shop');
    expect(metaOf(body, 'og:image')).toBe(`${PUBLIC_URL}/icons/icon-512.png`);
    expect(metaOf(body, 'og:image:width')).toBe('512');
    expect(metaOf(body, 'twitter:card')).toBe('summary');
    expect(metas(body, 'product:price:amount')).toEqual([]);
    const [ld] = jsonLds(body) as Array<{ '@graph': Array<Record<string, unknown>> }>;
    expect(jsonLds(body)).toHaveLength(1);
    expect(ld['@graph'].map((n) => n['@type'])).toEqual(['WebSite', 'OnlineStore']);
    for (const node of ld['@graph']) {
      expect(node.name).toBe('POGS Shop');
      expect(node.url).toBe(`${PUBLIC_URL}/`);
    }
  });
});

describe('what gets no tags', () => {
  it.each(['/product/99999999999', '/products/123', '/cart', '/orders', '/admin'])('%s: the plain index.html', async (urlPath) => {
    expect(await page(urlPath)).toBe(INDEX_HTML);
  });

  it('a hidden product (draft in Shopify, or no variant an admin activated) has no page tags and is in no sitemap', async () => {
    const draft = h.emulator.state.listProducts().find((p) => p.status === 'DRAFT')!;
    expect(draft).toBeDefined();
    // Its variants are priced and active: only its status hides it.
    const active = await h.database
      .db('variants')
      .join('products', 'products.id', 'variants.product_id')
      .where('products.shopify_id', draft.legacyId)
      .where('variants.is_active', true);
    expect(active.length).toBeGreaterThan(0);

    const [, victim] = await products();
    await h.database
      .db('variants')
      .whereIn('product_id', h.database.db('products').select('id').where({ shopify_id: victim.id }))
      .update({ is_active: false });
    await bumpCatalogueVersion(h.database.db);
    try {
      for (const id of [draft.legacyId, victim.id]) {
        for (const urlPath of [`/product/${id}`, `/products/${id}`]) {
          const body = await page(urlPath);
          expect(body, urlPath).toBe(INDEX_HTML);
          expect(jsonLds(body)).toEqual([]);
        }
        const home = await page('/');
        expect(home).not.toContain(`/product/${id}"`);
      }
      const locs = sitemapLocs(await (await h.api('/sitemap.xml')).text(), 'urlset');
      expect(locs).not.toContain(`${PUBLIC_URL}/product/${draft.legacyId}`);
      expect(locs).not.toContain(`${PUBLIC_URL}/product/${victim.id}`);
      expect(locs).toHaveLength((await products()).length + 1);
    } finally {
      await h.database
        .db('variants')
        .whereIn('product_id', h.database.db('products').select('id').where({ shopify_id: victim.id }))
        .update({ is_active: true });
      await bumpCatalogueVersion(h.database.db);
    }
  });
});

/** The document, parsed strictly (any warning or error throws), and its root's name in the sitemaps namespace. */
function parseXml(xml: string, root: 'urlset' | 'sitemapindex') {
  const doc = new DOMParser({
    onError: (level, message) => {
      throw new Error(`${level}: ${message}`);
    },
  }).parseFromString(xml, 'text/xml');
  expect(doc.documentElement?.namespaceURI).toBe(SITEMAP_NS);
  expect(doc.documentElement?.localName).toBe(root);
  return doc;
}

function sitemapEntries(xml: string, root: 'urlset' | 'sitemapindex') {
  const doc = parseXml(xml, root);
  const entries = [...doc.documentElement!.childNodes].filter((n) => n.nodeType === 1) as XmlElement[];
  return entries.map((e) => {
    expect(e.localName).toBe(root === 'urlset' ? 'url' : 'sitemap');
    const child = (name: string) => e.getElementsByTagNameNS(SITEMAP_NS, name)[0]?.textContent ?? undefined;
    return { loc: child('loc')!, lastmod: child('lastmod') };
  });
}
const sitemapLocs = (xml: string, root: 'urlset' | 'sitemapindex') => sitemapEntries(xml, root).map((e) => e.loc);

describe('GET /sitemap.xml', () => {
  it('lists the home and exactly the listed products’ canonical pages, with their last change', async () => {
    const res = await h.api('/sitemap.xml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    const xml = await res.text();
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    const list = await products();
    const entries = sitemapEntries(xml, 'urlset');
    const newest = list
      .map((p) => p.updatedAt)
      .sort()
      .at(-1);
    expect(entries).toEqual([
      { loc: `${PUBLIC_URL}/`, lastmod: newest },
      ...list.map((p) => ({ loc: `${PUBLIC_URL}/product/${p.id}`, lastmod: p.updatedAt })),
    ]);
    for (const e of entries) expect(Number.isNaN(Date.parse(e.lastmod!))).toBe(false);
    // Not the built client's stale copy.
    expect(xml).not.toContain('stale');
  });

  it('is built once per catalogue snapshot: the same bytes and ETag, 304 on revalidation, gzip from the cache; new once the catalogue moves', async () => {
    const first = await h.api('/sitemap.xml');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    expect(first.headers.get('cache-control')).toBe('no-cache');
    // As a crawler revalidates (fetch() would add Cache-Control: no-cache, which asks for the full file).
    const again = await rawGet(h.baseUrl, '/sitemap.xml', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    const body = await first.text();

    // node's fetch would decompress: ask over node:http for the raw bytes.
    const raw = await rawGet(h.baseUrl, '/sitemap.xml', { 'accept-encoding': 'gzip' });
    expect(raw.headers['content-encoding']).toBe('gzip');
    expect(raw.headers.etag).toBe(etag);
    expect(gunzipSync(raw.body).toString('utf8')).toBe(body);

    const [product] = await products();
    const changedAt = new Date(Date.parse(product.updatedAt) + 86_400_000);
    await h.database.db('products').where({ shopify_id: product.id }).update({ shopify_updated_at: changedAt });
    await bumpCatalogueVersion(h.database.db);
    const moved = await rawGet(h.baseUrl, '/sitemap.xml', { 'if-none-match': etag });
    expect(moved.status).toBe(200);
    expect(moved.headers.etag).not.toBe(etag);
    const entry = sitemapEntries(moved.body.toString('utf8'), 'urlset').find((e) => e.loc === `${PUBLIC_URL}/product/${product.id}`);
    expect(entry?.lastmod).toBe(changedAt.toISOString());
  });

  it('one file needs no pages: /sitemap-1.xml and other names are 404s; a write is refused', async () => {
    for (const urlPath of [
      '/sitemap-1.xml',
      '/sitemap-0.xml',
      '/sitemap-01.xml',
      '/sitemap-9999999.xml',
      '/sitemap-x.xml',
      '/sitemap.xml.gz',
    ]) {
      const res = await h.api(urlPath);
      expect(res.status, urlPath).toBe(404);
      expect(res.headers.get('content-type'), urlPath).not.toMatch(/xml/);
    }
    expect((await h.api('/sitemap.xml', { method: 'POST' })).status).toBe(405);
  });

  it('past its limit it becomes an index of pages within the limit, together listing every address once', async () => {
    const server = await new Promise<Server>((resolve) => {
      const s = createServer(createApp({ ...h.services.app, sitemapLimits: { maxUrls: 3 } }).callback());
      s.listen(0, '127.0.0.1', () => resolve(s));
    });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const list = await products();
      const expected = [`${PUBLIC_URL}/`, ...list.map((p) => `${PUBLIC_URL}/product/${p.id}`)];
      const pages = Math.ceil(expected.length / 3);
      expect(pages).toBeGreaterThan(2);
      const index = sitemapEntries(await (await fetch(`${base}/sitemap.xml`)).text(), 'sitemapindex');
      expect(index.map((e) => e.loc)).toEqual(Array.from({ length: pages }, (_, i) => `${PUBLIC_URL}/sitemap-${i + 1}.xml`));
      const listed: string[] = [];
      for (const [i, entry] of index.entries()) {
        const res = await fetch(`${base}/sitemap-${i + 1}.xml`);
        expect(res.status).toBe(200);
        const entries = sitemapEntries(await res.text(), 'urlset');
        expect(entries.length).toBeLessThanOrEqual(3);
        // The index's lastmod is its page's newest.
        expect(entry.lastmod).toBe(
          entries
            .map((e) => e.lastmod!)
            .sort()
            .at(-1),
        );
        listed.push(...entries.map((e) => e.loc));
      }
      expect(listed).toEqual(expected);
      expect((await fetch(`${base}/sitemap-${pages + 1}.xml`)).status).toBe(404);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('splits on size too (the protocol’s 50 MB, here a few hundred bytes)', async () => {
    const server = await new Promise<Server>((resolve) => {
      const s = createServer(createApp({ ...h.services.app, sitemapLimits: { maxBytes: 400 } }).callback());
      s.listen(0, '127.0.0.1', () => resolve(s));
    });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const index = sitemapEntries(await (await fetch(`${base}/sitemap.xml`)).text(), 'sitemapindex');
      expect(index.length).toBeGreaterThan(1);
      let total = 0;
      for (let i = 1; i <= index.length; i++) {
        const xml = await (await fetch(`${base}/sitemap-${i}.xml`)).text();
        expect(Buffer.byteLength(xml)).toBeLessThanOrEqual(400);
        total += sitemapEntries(xml, 'urlset').length;
      }
      expect(total).toBe((await products()).length + 1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('GET /robots.txt', () => {
  it('allows the shop, keeps crawlers out of the private pages and names the sitemap at PUBLIC_URL', async () => {
    const res = await h.api('/robots.txt');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    // No session is made for a crawler.
    expect(res.headers.getSetCookie()).toEqual([]);
    expect((await h.api('/sitemap.xml')).headers.getSetCookie()).toEqual([]);
    const text = await res.text();
    const lines = text.split('\n');
    expect(lines[0]).toBe('User-agent: *');
    expect(lines).toContain('Allow: /');
    for (const path of ['/admin', '/api/', '/cart', '/orders', '/order-confirmation']) expect(lines).toContain(`Disallow: ${path}`);
    expect(lines).toContain(`Sitemap: ${PUBLIC_URL}/sitemap.xml`);
    expect(text).not.toContain('stale');
    // No rule keeps crawlers from the pages the sitemap lists.
    const disallowed = lines.filter((l) => l.startsWith('Disallow: ')).map((l) => l.slice('Disallow: '.length));
    for (const urlPath of ['/', '/product/1', '/products/1', '/sitemap.xml'])
      expect(disallowed.some((d) => urlPath.startsWith(d))).toBe(false);
  });
});

function rawGet(baseUrl: string, urlPath: string, headers: Record<string, string>) {
  const url = new URL(baseUrl);
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const req = http.get({ host: url.hostname, port: url.port, path: urlPath, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
  });
}
