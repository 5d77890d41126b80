import { expect, test } from '@playwright/test';

// The shop is installable: Chromium itself judges the manifest, icons and service worker, the
// way its install prompt does (DevTools protocol, Page.getInstallabilityErrors).
test('Chromium reports no installability errors for the shop', async ({ page, context }) => {
  await page.goto('/');
  await expect(page.getByTestId('product-card').first()).toBeVisible();
  // The service worker controls the page once it is ready (a fetch handler is part of the judgement).
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  const cdp = await context.newCDPSession(page);
  const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
    installabilityErrors: Array<{ errorId: string; errorArguments: Array<{ name: string; value: string }> }>;
  };
  // Playwright's browser contexts are off the record, which Chromium always reports ('in-incognito');
  // anything else (manifest, icons, start URL, service worker) would be the shop's.
  expect(installabilityErrors.filter((e) => e.errorId !== 'in-incognito')).toEqual([]);
  expect(installabilityErrors.map((e) => e.errorId)).toEqual(['in-incognito']);
  const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: Array<{ message: string }> };
  expect(manifest.url).toMatch(/\/manifest\.webmanifest$/);
  expect(manifest.errors).toEqual([]);
});

// What belongs to one shopper or to the admin is never kept by the service worker or the
// persisted query cache: only the catalogue, the public config and images are.
test('the cart, orders and admin answers are never kept in a cache', async ({ page }) => {
  await page.goto('/');
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  // Reload so the service worker controls the page and sees every request.
  await page.reload();
  const card = page
    .getByTestId('product-card')
    .filter({ has: page.locator('[data-testid="add-to-cart"]:enabled') })
    .first();
  await card.getByTestId('add-to-cart').click();
  await expect(page.getByTestId('cart-drawer')).toBeVisible();
  await page.goto('/orders');
  await expect(page.getByTestId('orders-connect-wallet')).toBeVisible();
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Admin Access' })).toBeVisible();
  await page.waitForTimeout(1500); // the persister writes at most once a second

  const kept = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) urls.push(`${name} ${new URL(request.url).pathname}`);
    }
    const stored = Object.keys(localStorage).map((key) => `${key}=${localStorage.getItem(key)}`);
    return { urls, stored };
  });
  // The app shell is there (so the test looks at the service worker's real caches)…
  expect(kept.urls.some((u) => u.endsWith(' /index.html'))).toBe(true);
  // …and nothing of a cart, checkout, order, sign-in or the admin area.
  const privateApi = /\/api\/(cart|checkout|orders|refunds|auth|admin|inventory|session)/;
  expect(kept.urls.filter((u) => privateApi.test(u))).toEqual([]);
  expect(kept.stored.filter((s) => /"cart"|cartItems|"orders"|"admin"/.test(s))).toEqual([]);
});
