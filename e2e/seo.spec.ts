import { expect, test } from './fixtures/test';
import type { Product } from '../common/api';

// What a crawler or a link preview reads in a product page's head (server/pages/seo/page-meta.ts)
// survives the browser's hydration as it was: one JSON-LD Product, one set of share tags, under
// the page's Content-Security-Policy (the fixture fails the test on any violation). And with the
// service worker in control, robots.txt and the sitemap are still the server's, not index.html.
test.use({ viewport: { width: 390, height: 844 } });

test('a product page keeps one JSON-LD Product and its share tags after hydration, with no policy violation', async ({ page, request }) => {
  const products = (await (await request.get('/api/products')).json()) as Product[];
  const product = products.find((p) => p.variants.length > 1) ?? products[0];
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`/product/${product.id}`);
  await expect(page.getByRole('heading', { level: 1, name: product.title })).toBeVisible();
  // Hydrated: the cart button answers.
  await page.getByTestId('cart-button').click();
  await expect(page.getByTestId('cart-drawer')).toBeVisible();
  await page.keyboard.press('Escape');

  const ld = page.locator('head script[type="application/ld+json"]');
  await expect(ld).toHaveCount(1);
  const data = JSON.parse((await ld.textContent()) ?? '') as { '@type': string; name: string; offers: { priceCurrency: string } };
  expect(data['@type']).toBe('Product');
  expect(data.name).toBe(product.title);
  expect(data.offers.priceCurrency).toBe('POGS');
  await expect(page).toHaveTitle(`${product.title} · POGS Shop`);
  for (const selector of ['link[rel="canonical"]', 'meta[property="og:title"]', 'meta[property="og:image"]', 'meta[name="twitter:card"]']) {
    await expect(page.locator(`head ${selector}`), selector).toHaveCount(1);
  }
  await expect(page.locator('head meta[name="description"]')).toHaveCount(1);
  await expect(page.locator('head link[rel="canonical"]')).toHaveAttribute('href', new URL(`/product/${product.id}`, page.url()).href);
  expect(errors).toEqual([]);
});

test('with the service worker in control, /robots.txt and /sitemap.xml are the server’s', async ({ page, baseURL }) => {
  await page.goto('/');
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  const robots = await page.goto('/robots.txt');
  expect(robots?.fromServiceWorker()).toBe(false);
  expect(robots?.headers()['content-type']).toBe('text/plain; charset=utf-8');
  expect(await page.locator('body').textContent()).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
  const sitemap = await page.goto('/sitemap.xml');
  expect(sitemap?.headers()['content-type']).toBe('application/xml; charset=utf-8');
  expect(await sitemap?.text()).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
});
