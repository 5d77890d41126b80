import { expect, test } from './fixtures/test';
import type { Product } from '../common/api';
import { CATALOGUE_PAGE_SIZE } from '../common/catalogue-view';
import { expectToast } from './fixtures/ui';

// The home and the product pages arrive rendered by the server (client/entry-server.tsx): they
// read without JavaScript, the browser hydrates exactly that markup (no mismatch, no re-render),
// and a tap that comes before the page's scripts have run is not lost.
let products: Product[];

test.beforeAll(async ({ request }) => {
  products = await (await request.get('/api/products')).json();
  expect(products.length).toBeGreaterThan(4);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the home shows the header, the hero, the item count and its first cards', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'POGS Shop' })).toBeVisible();
    await expect(page.getByTestId('cart-button')).toContainText('Cart (0)');
    await expect(page.getByTestId('product-count')).toHaveText(`${products.length} items`);
    await expect(page.getByTestId('product-card')).toHaveCount(4);
    const first = page.getByTestId('product-card').first();
    await expect(first).toContainText(products[0].title);
    // The cards fade in by their own CSS, with no script to reveal them.
    await expect.poll(() => first.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
  });

  test('a product page shows its product', async ({ page }) => {
    const product = products[1];
    await page.goto(`/product/${product.id}`);
    await expect(page.getByRole('heading', { level: 1, name: product.title })).toBeVisible();
    await expect(page.getByTestId('product-page')).toBeVisible();
  });
});

test('the browser hydrates the server’s markup: no mismatch, the same elements, then the first page’s every card', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  // Marks the server's first card as the page is parsed, before any of the shop's scripts run.
  await page.addInitScript(() =>
    document.addEventListener('DOMContentLoaded', () => {
      document.querySelector('[data-testid="product-card"]')?.setAttribute('data-from-server', '');
    }),
  );
  for (const path of ['/', `/product/${products[2].id}`]) {
    errors.length = 0;
    await page.goto(path);
    if (path === '/') {
      await expect(page.getByTestId('product-card')).toHaveCount(Math.min(products.length, CATALOGUE_PAGE_SIZE));
      // Hydrated, not replaced: the very element the server sent is still the first card.
      await expect(page.locator('[data-testid="product-card"][data-from-server]')).toHaveCount(1);
    } else {
      await expect(page.getByRole('heading', { level: 1, name: products[2].title })).toBeVisible();
    }
    // Hydrated: the cart button answers.
    await page.getByTestId('cart-button').click();
    await expect(page.getByTestId('cart-drawer')).toBeVisible();
    await page.keyboard.press('Escape');
    expect(errors, path).toEqual([]);
  }
});

test.describe('a tap before the page is interactive', () => {
  test.use({ serviceWorkers: 'block' });

  test('adds to the cart once the page has hydrated', async ({ page }) => {
    // The shop's entry script arrives late, as on a slow phone.
    let release!: () => void;
    const late = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
      await late;
      await route.continue();
    });
    await page.goto('/', { waitUntil: 'domcontentloaded' });
    const add = page.getByTestId('product-card').first().getByTestId('add-to-cart');
    await expect(add).toBeEnabled();
    await add.click();
    await expect(page.getByTestId('cart-count')).toHaveText('0');
    release();
    await expectToast(page, 'Added to cart', 'Added 1 item(s) to your cart.');
    await expect(page.getByTestId('cart-count')).toHaveText('1');
  });
});

test('each page preloads its own code with the entry: the home its page, a product page its page and not the home’s', async ({
  request,
}) => {
  const html = async (path: string) => (await request.get(path, { headers: { accept: 'text/html' } })).text();
  const home = await html('/');
  expect(home).toMatch(/"\/assets\/shop-home-page-[\w-]+\.js"/);
  expect(home).not.toMatch(/\/assets\/product-page-/);
  const product = await html(`/product/${products[0].id}`);
  expect(product).toMatch(/"\/assets\/product-page-[\w-]+\.js"/);
  expect(product).not.toMatch(/\/assets\/shop-home-page-/);
});

test.describe('photos wherever the shop is opened', () => {
  test('opened at 127.0.0.1 rather than the localhost it prints, the demo photos load', async ({ page, baseURL }) => {
    const other = new URL(baseURL!);
    expect(other.hostname).toBe('localhost');
    other.hostname = '127.0.0.1';
    await page.goto(other.toString());
    const photo = page.getByTestId('product-card').first().locator('img').first();
    await expect(photo).toBeVisible();
    // Its URL names localhost: another origin than the page's, and still loaded.
    expect(new URL(await photo.evaluate((img: HTMLImageElement) => img.currentSrc)).hostname).toBe('localhost');
    await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  });

  test('a photo that failed before the page was interactive gives way to the placeholder', async ({ page }) => {
    // The photos fail, and the page's scripts arrive only after the first one did: React was not
    // there to hear it.
    let failed!: () => void;
    const firstFailed = new Promise<void>((resolve) => (failed = resolve));
    await page.route('**/shopify-emulator/cdn/images/**', async (route) => {
      await route.fulfill({ status: 404, body: '' });
      failed();
    });
    await page.route('**/assets/*.js', async (route) => {
      await firstFailed;
      await route.continue();
    });
    await page.goto('/');
    const first = page.getByTestId('product-card').first();
    await expect(first.getByTestId('image-placeholder')).toBeVisible();
    await expect(first.locator('img')).toHaveCount(0);
  });
});
