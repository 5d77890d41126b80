import { expect, test, type Page } from './fixtures/test';
import type { Product } from '../common/api';
import { CATALOGUE_PAGE_SIZE } from '../common/catalogue-query';
import { TestWallet } from './fixtures/test-wallet';
import { closeToasts, expectToast, pickTestWallet } from './fixtures/ui';

// Issue 14: after one visit the shop browses offline (the service worker's catalogue and image
// caches), says so, and every action that needs the server says a connection is needed.

let products: Product[];

test.beforeAll(async ({ request }) => {
  const res = await request.get('/api/products');
  expect(res.ok()).toBe(true);
  products = await res.json();
});

const OFFLINE_NOTICE = "You're offline. Showing the catalogue from your last visit.";

/** The cards' images that finished loading (their URLs). */
function loadedCardImages(page: Page): Promise<string[]> {
  return page
    .locator('[data-testid="card-image"] img')
    .evaluateAll((imgs) => (imgs as HTMLImageElement[]).filter((img) => img.complete && img.naturalWidth > 0).map((img) => img.currentSrc));
}

/** The URLs (path + query) kept in one of the service worker's caches. */
function cached(page: Page, cacheName: string): Promise<string[]> {
  return page.evaluate(async (name) => {
    if (!(await caches.has(name))) return [];
    return (await (await caches.open(name)).keys()).map((request) => request.url);
  }, cacheName);
}

/**
 * One visit under the service worker's control: it takes control on its first install
 * (clientsClaim), and a reload then sends the first screen's images through it. Answers the image
 * URLs seen, once the worker has cached them and the catalogue is kept.
 */
async function visitUnderServiceWorker(page: Page): Promise<string[]> {
  await page.goto('/');
  await expect(page.getByTestId('product-card').first()).toBeVisible();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await page.reload();
  await expect(page.getByTestId('product-card')).toHaveCount(Math.min(products.length, CATALOGUE_PAGE_SIZE));
  await expect.poll(async () => (await loadedCardImages(page)).length).toBeGreaterThan(0);
  const seen = await loadedCardImages(page);
  // The catalogue is kept by the service worker (its last answer) or the persisted query cache
  // (written at most once a second), whichever the visit filled: offline either one shows it.
  await expect
    .poll(async () => {
      const inWorker = (await cached(page, 'pogs-api-catalogue')).some((url) => new URL(url).pathname === '/api/products');
      const persisted = await page.evaluate(() => Object.values(localStorage).some((value) => value.includes('"catalogue","page"')));
      return inWorker || persisted;
    })
    .toBe(true);
  await expect
    .poll(async () => {
      const urls = await cached(page, 'pogs-images');
      return seen.filter((src) => urls.includes(src)).length;
    })
    .toBe(seen.length);
  return seen;
}

test('after one visit the shop browses offline, says so, and asks for a connection where it needs one', async ({ page, context }) => {
  test.setTimeout(60_000); // two visits, a reload offline and every page: more steps than most tests
  const seen = await visitUnderServiceWorker(page);
  await expect(page.getByTestId('offline-notice')).toHaveCount(0);

  await context.setOffline(true);
  await page.reload();

  // The catalogue, with the images already seen.
  await expect(page.getByTestId('product-card')).toHaveCount(Math.min(products.length, CATALOGUE_PAGE_SIZE));
  const notice = page.getByTestId('offline-notice');
  await expect(notice).toHaveText(OFFLINE_NOTICE);
  await expect(page.getByRole('status').filter({ has: notice })).toBeVisible();
  await expect
    .poll(() =>
      page
        .locator('[data-testid="card-image"] img')
        .evaluateAll(
          (imgs, srcs) =>
            srcs.filter((src) => (imgs as HTMLImageElement[]).some((img) => img.currentSrc === src && img.naturalWidth > 0)).length,
          seen,
        ),
    )
    .toBe(seen.length);

  // The detail panel and the FAQ need nothing from the server.
  const firstCard = page.getByTestId('product-card').first();
  await firstCard.getByTestId('details-button').click();
  const panel = page.getByTestId('detail-panel');
  await expect(panel).toContainText('Product Details and Specifications');
  await expect(panel).toContainText(products[0].title);
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  // The FAQ's code loads as the shopper scrolls towards it: offline, from the service worker's precache.
  await page.getByTestId('community-link').scrollIntoViewIfNeeded();
  const faq = page.getByTestId('faq');
  await faq.scrollIntoViewIfNeeded();
  const question = faq.getByRole('button', { name: /Why can I only pay with/ });
  await question.click();
  await expect(question).toHaveAttribute('aria-expanded', 'true');
  await expect(faq).toContainText('Accepting only the coin keeps the pieces exclusive');

  // Adding to the cart says a connection is needed, and the button does not stay busy.
  const card = page
    .getByTestId('product-card')
    .filter({ has: page.locator('[data-testid="add-to-cart"]:enabled') })
    .first();
  await card.scrollIntoViewIfNeeded();
  await card.getByTestId('add-to-cart').click();
  await expectToast(page, 'No connection', "You're offline. Connect to the internet to add to your cart.", 'destructive');
  await expect(card.getByTestId('add-to-cart')).toBeEnabled();
  await closeToasts(page);

  // The cart drawer: no cart without the server, and no paying.
  await page.getByTestId('cart-button').click();
  const drawer = page.getByTestId('cart-drawer');
  await expect(drawer.getByTestId('cart-offline')).toContainText("You're offline. Connect to the internet to see your cart.");
  await expect(drawer.getByTestId('cart-error')).toHaveCount(0);
  await expect(drawer.getByTestId('pay-offline')).toHaveText("You're offline. Connect to the internet to pay.");
  await expect(drawer.getByTestId('pay-button')).toBeDisabled();
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();

  // What belongs to a shopper or the admin is never answered from a cache: offline it fails.
  const privateReads = await page.evaluate(async () => {
    const paths = ['/api/cart', '/api/auth/session', '/api/admin/session', '/api/orders?wallet=0x0000000000000000000000000000000000000001'];
    return Promise.all(
      paths.map((path) =>
        fetch(path, { credentials: 'include' }).then(
          (response) => `${path} answered ${response.status}`,
          () => `${path} failed`,
        ),
      ),
    );
  });
  expect(privateReads).toEqual([
    '/api/cart failed',
    '/api/auth/session failed',
    '/api/admin/session failed',
    '/api/orders?wallet=0x0000000000000000000000000000000000000001 failed',
  ]);

  // The orders and admin pages say what they need instead of spinning or failing.
  await page.getByTestId('orders-link').click();
  await expect(page.getByTestId('orders-offline')).toContainText("You're offline. Connect to the internet to see your orders.");
  await expect(page.getByTestId('orders-loading')).toHaveCount(0);
  await page.getByTestId('admin-link').click();
  await expect(page.getByTestId('admin-offline')).toContainText("You're offline. Connect to the internet to manage the shop.");
  await expect(notice).toBeVisible();

  // Back online: the notice goes and everything resumes where it is.
  await context.setOffline(false);
  await expect(notice).toHaveCount(0);
  await expect(page.getByTestId('admin-access')).toBeVisible();
  await page.getByTestId('orders-link').click();
  await expect(page.getByTestId('orders-connect-wallet')).toBeVisible();
  await page.getByTestId('home-link').click();
  await card.scrollIntoViewIfNeeded();
  await card.getByTestId('add-to-cart').click();
  await expectToast(page, 'Added to cart', 'Added 1 item(s) to your cart.');
  await expect(page.getByTestId('cart-count')).toHaveText('1');
});

test('a cart on the page when the connection drops: paying and the orders wait for it', async ({ page, context }) => {
  test.setTimeout(60_000); // a wallet connection, an add and the orders page, offline and back
  const wallet = await TestWallet.install(page);
  await page.goto('/');
  await page.getByTestId('wallet-button').click();
  await pickTestWallet(page, wallet);
  await closeToasts(page);
  const card = page
    .getByTestId('product-card')
    .filter({ has: page.locator('[data-testid="add-to-cart"]:enabled') })
    .first();
  await card.getByTestId('add-to-cart').click();
  const drawer = page.getByTestId('cart-drawer');
  await expect(drawer.getByTestId('cart-items')).toBeVisible();
  await closeToasts(page);
  const pay = drawer.getByTestId('pay-button');
  await expect(pay).toBeEnabled();
  // The visit is over once the service worker has installed (it precaches every page's code).
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

  await context.setOffline(true);
  await expect(page.getByTestId('offline-notice')).toHaveText(OFFLINE_NOTICE);
  // The lines already read stay; paying waits for the connection.
  await expect(drawer.getByTestId('cart-items')).toBeVisible();
  await expect(pay).toBeDisabled();
  await expect(drawer.getByTestId('pay-offline')).toHaveText("You're offline. Connect to the internet to pay.");
  await expect(drawer.getByTestId('pay-elsewhere-button')).toBeDisabled();
  await page.keyboard.press('Escape');
  await page.getByTestId('orders-link').click();
  await expect(page.getByTestId('orders-offline')).toBeVisible();

  await context.setOffline(false);
  await expect(page.getByTestId('offline-notice')).toHaveCount(0);
  // Connected but not signed in: the orders page goes on to its sign-in step.
  await expect(page.getByTestId('orders-sign-in')).toBeVisible();
  await page.getByTestId('cart-button').click();
  await expect(drawer.getByTestId('pay-offline')).toHaveCount(0);
  await expect(pay).toBeEnabled();
});
