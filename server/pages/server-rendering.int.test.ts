/**
 * The home and the product pages rendered on the server (client/entry-server.tsx, built here by
 * Vite exactly as `npm run build` builds it, loaded by the server from `<dist>-ssr/`): the markup
 * the browser hydrates, from the data the page carries, the same for every visitor, with nothing a
 * product's text can inject; and a page served with its data only when there is no rendering.
 */
import path from 'node:path';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '../../common/api';
import type { CataloguePage } from '../../common/catalogue-view';
import { INLINE_DATA_IDS } from '../../common/inline-data';
import { SHOP_PAGE_MODULES } from '../../common/shop-render';
import { startHarness, type Harness } from '../test/harness';
import { makeClientDir, renameFirstActiveProduct } from '../test/shop-pages';
import { Shopper } from '../test/shopper';

const INDEX_HTML =
  '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>POGS Shop</title>' +
  '<script type="module" crossorigin src="/assets/index-abc.js"></script></head>' +
  '<body><div id="root"></div></body></html>';
const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
const ROOT = path.join(import.meta.dirname, '../..');

/** A build manifest as Vite writes it: each server-rendered page's chunk and what it imports. */
const MANIFEST = {
  'index.html': { file: 'assets/index-abc.js', isEntry: true, imports: ['_react.js'] },
  '_react.js': { file: 'assets/react-r.js' },
  '_shared.js': { file: 'assets/shared-s.js', imports: ['index.html'] },
  [SHOP_PAGE_MODULES.home]: { file: 'assets/shop-home-page-h.js', isDynamicEntry: true, imports: ['index.html', '_shared.js'] },
  [SHOP_PAGE_MODULES.product]: { file: 'assets/product-page-p.js', isDynamicEntry: true, imports: ['_shared.js'] },
  [SHOP_PAGE_MODULES.simple]: { file: 'assets/simple-product-page-q.js', isDynamicEntry: true, imports: ['_react.js'] },
};

let h: Harness;
const client = makeClientDir(INDEX_HTML, MANIFEST);

beforeAll(async () => {
  await build({
    configFile: path.join(ROOT, 'vite.config.ts'),
    logLevel: 'silent',
    build: { ssr: 'entry-server.tsx', outDir: `${client.dir}-ssr`, emptyOutDir: true },
  });
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

/** What the server rendered inside <div id="root">. */
function rootMarkup(body: string): string {
  if (body.includes('<div id="root"></div>')) return '';
  const start = body.indexOf('<div id="root">') + '<div id="root">'.length;
  const end = body.indexOf('<script type="application/json"');
  return body.slice(start, end);
}

const cards = (markup: string) => markup.split('data-testid="product-card"').length - 1;
const apiJson = async (urlPath: string) => (await h.api(urlPath)).json();

describe('the home', () => {
  it('arrives rendered: the header, the hero, the item count and the first cards, from the first page it carries', async () => {
    const { products, total } = (await apiJson('/api/catalogue/products')) as CataloguePage;
    const { res, body } = await page('/');
    expect(res.status).toBe(200);
    const markup = rootMarkup(body);
    expect(markup).toContain('data-testid="cart-button"');
    expect(markup).toContain('The Collection');
    expect(markup).toContain(`data-testid="product-count" aria-live="polite">${total}<!-- --> <!-- -->items`);
    expect(markup).toContain('type="search"');
    // The first cards (a phone's screen and a desktop's first row); the browser adds the rest.
    expect(cards(markup)).toBe(4);
    for (const product of products.slice(0, 4)) expect(markup).toContain(`data-product-id="${product.id}"`);
    expect(markup).not.toContain(`data-product-id="${products[4]!.id}"`);
    // Rendered from exactly what the page carries for the browser to hydrate with.
    const inline = /<script type="application\/json" id="pogs-catalogue-page">([^<]*)<\/script>/.exec(body)![1];
    expect(JSON.parse(inline)).toEqual(await apiJson('/api/catalogue/products'));
  });

  it('a shared view’s link arrives rendered with that view: its search in the box, its filter and sort chosen, its products', async () => {
    const products = (await apiJson('/api/products')) as Product[];
    const type = products.find((p) => p.productType)!.productType;
    const query = `type=${encodeURIComponent(type)}&sort=price-asc`;
    const expected = (await apiJson(`/api/catalogue/products?${query}`)) as CataloguePage;
    const markup = rootMarkup((await page(`/?${query}`)).body);
    expect(markup).toContain(`data-testid="product-count" aria-live="polite">${expected.total}<!-- --> <!-- -->`);
    for (const product of expected.products.slice(0, 4)) expect(markup).toContain(`data-product-id="${product.id}"`);
    const others = products.filter((p) => p.productType !== type);
    for (const product of others) expect(markup).not.toContain(`data-product-id="${product.id}"`);
    expect(markup).toMatch(/<option value="price-asc" selected="">/);

    const none = rootMarkup((await page('/?q=zzzqqqxxx')).body);
    expect(none).toContain('No products match &quot;zzzqqqxxx&quot;');
    expect(none).not.toContain('No products yet');
    expect(none).toContain('value="zzzqqqxxx"');
  });

  it('starts its scripts after its first paint: no entry script in the head, a loader at the end of the body', async () => {
    const { body } = await page('/');
    const head = body.slice(0, body.indexOf('</head>'));
    expect(head).not.toContain('/assets/index-abc.js');
    const loader = body.slice(body.lastIndexOf('<script type="module">'), body.indexOf('</body>'));
    expect(loader).toContain('script.src = "/assets/index-abc.js"');
    expect(loader).toContain('requestAnimationFrame');
    // A page without markup (an unknown product) keeps the template's script where it was.
    const plain = (await page('/product/999999999')).body;
    expect(plain.slice(0, plain.indexOf('</head>'))).toContain('<script type="module" crossorigin src="/assets/index-abc.js"></script>');
  });

  it('preloads its own chunks with the entry’s, and no other page’s; the build manifest is not served', async () => {
    const { body } = await page('/');
    const loader = body.slice(body.lastIndexOf('<script type="module">'), body.indexOf('</body>'));
    const preloads = JSON.parse(/for \(const href of (\[[^\]]*\])\)/.exec(loader)![1]!) as string[];
    expect(preloads).toEqual(['/assets/shop-home-page-h.js', '/assets/react-r.js', '/assets/shared-s.js']);
    const product = ((await apiJson('/api/products')) as Product[])[0]!;
    const productPage = (await page(`/product/${product.id}`)).body;
    expect(productPage).toContain('/assets/product-page-p.js');
    expect(productPage).not.toContain('/assets/shop-home-page-h.js');
    expect(productPage).not.toContain('/assets/simple-product-page-q.js');
    const manifest = await h.api('/.vite/manifest.json');
    expect(manifest.status).toBe(404);
    expect(await manifest.text()).not.toContain('shop-home-page');
  });

  it('is the same for every visitor: a shopper with a cart gets the stranger’s page, byte for byte', async () => {
    const shopper = new Shopper(h);
    const products = (await apiJson('/api/products')) as Product[];
    const variant = products.flatMap((p) => p.variants).find((v) => !v.isSoldOut)!;
    expect((await shopper.add({ variantId: variant.id, quantity: 2 })).status).toBe(200);
    for (const urlPath of ['/', `/product/${products[0]!.id}`]) {
      const mine = await page(urlPath, { cookie: shopper.cookie! });
      const stranger = await page(urlPath);
      expect(mine.body, urlPath).toBe(stranger.body);
      expect(rootMarkup(mine.body)).toContain('Cart (<span data-testid="cart-count">0</span>)');
    }
  });
});

describe('the product pages', () => {
  it('/product/:id arrives with its product rendered; /products/:id too', async () => {
    const product = ((await apiJson('/api/products')) as Product[])[1]!;
    for (const urlPath of [`/product/${product.id}`, `/products/${product.id}`]) {
      const markup = rootMarkup((await page(urlPath)).body);
      expect(markup, urlPath).toContain(`>${product.title}</h1>`);
      expect(markup, urlPath).not.toContain('Loading...');
    }
  });

  it('an unknown product id gets the page without markup or data (the browser shows its not-found screen)', async () => {
    const { res, body } = await page('/product/999999999');
    expect(res.status).toBe(200);
    expect(rootMarkup(body)).toBe('');
    expect(body).toContain('<div id="root"></div>');
    expect(body).not.toContain(INLINE_DATA_IDS.product);
  });
});

describe('what a stranger’s link cannot do', () => {
  it('a search with markup is text in the rendered page (the box and the empty result), never an element', async () => {
    const evil = '"><img src=x onerror=alert(1)><script>alert(2)</script>';
    const body = (await page(`/?q=${encodeURIComponent(evil)}`)).body;
    const markup = rootMarkup(body);
    expect(markup).toContain('value="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(2)&lt;/script&gt;"');
    expect(markup).toContain('No products match &quot;&quot;&gt;&lt;img');
    expect(body).not.toContain('<img src=x');
    expect(body).not.toContain('<script>alert');
  });
});

describe('a flood of made-up views', () => {
  it('renders new views only within its budget: past it a view carries its data for the browser to render, and the default view, the views kept and the product pages still arrive rendered', async () => {
    // A budget of 2 renders, refilled once in 1,000 s: the third new view is past it.
    const small = await startHarness('pglite', { staticDir: client.dir, viewRenders: { perSecond: 0.001, burst: 2 } });
    try {
      await small.catalogue.sync();
      await small.catalogue.seedDemoPrices();
      const get = async (urlPath: string) => (await small.api(urlPath, { headers: html })).text();
      const dataOf = (body: string) =>
        JSON.parse(new RegExp(`<script type="application/json" id="${INLINE_DATA_IDS.cataloguePage}">([^<]*)</script>`).exec(body)![1]!);

      expect(cards(rootMarkup(await get('/?q=cap')))).toBeGreaterThan(0);
      expect(rootMarkup(await get('/?sort=newest'))).toContain('data-testid="product-grid"');
      const past = await get('/?sort=price-asc');
      expect(rootMarkup(past)).toBe('');
      // The browser renders it from the data it carries: the view's first page, as the API answers it.
      expect(dataOf(past)).toEqual(await (await small.api('/api/catalogue/products?sort=price-asc')).json());
      // Not kept: asked again, still past the budget.
      expect(rootMarkup(await get('/?sort=price-asc'))).toBe('');

      // What the budget does not count still arrives rendered.
      expect(cards(rootMarkup(await get('/?q=cap')))).toBeGreaterThan(0);
      expect(cards(rootMarkup(await get('/')))).toBeGreaterThan(0);
      const product = ((await (await small.api('/api/products')).json()) as Product[])[0]!;
      expect(rootMarkup(await get(`/product/${product.id}`))).toContain(`>${product.title}</h1>`);
    } finally {
      await small.close();
    }
  });
});

describe('what a product’s text cannot do', () => {
  it('a title with markup is text in the rendered page, never an element', async () => {
    const evil = `Evil </h1><img src=x onerror=alert(1)><script>alert(2)</script> & "quoted"`;
    const id = await renameFirstActiveProduct(h, evil);
    const markup = rootMarkup((await page(`/product/${id}`)).body);
    expect(markup).toContain(
      'Evil &lt;/h1&gt;&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(2)&lt;/script&gt; &amp; &quot;quoted&quot;',
    );
    expect(markup).not.toContain('<img src=x');
    expect(markup).not.toContain('<script');
  });
});
