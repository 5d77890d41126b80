import fs from 'node:fs';
import path from 'node:path';
import { devices, expect, test, type Page } from './fixtures/test';
import { firstAddableCard, homeHydrated } from './fixtures/ui';

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
  const card = firstAddableCard(page);
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

test.describe('installing the shop', () => {
  /**
   * Chromium headless never fires `beforeinstallprompt`: the test fires one like it, a real Event
   * with prompt() and userChoice stubbed, and reads back what the shop did with it.
   */
  async function offerInstall(page: Page) {
    return page.evaluate(() => {
      const event = new Event('beforeinstallprompt', { cancelable: true });
      const state = window as unknown as { __prompted: number };
      state.__prompted = 0;
      Object.assign(event, {
        prompt: async () => {
          state.__prompted += 1;
        },
        userChoice: Promise.resolve({ outcome: 'accepted', platform: 'web' }),
      });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    });
  }
  const prompted = (page: Page) => page.evaluate(() => (window as unknown as { __prompted: number }).__prompted);

  test('the browser offers to install: an Install button that prompts, then goes', async ({ page }) => {
    test.setTimeout(60_000); // three page loads
    await page.goto('/');
    await homeHydrated(page);
    await expect(page.getByTestId('install-button')).toHaveCount(0);
    // The shop keeps the event (no browser mini-infobar) and shows its own button.
    expect(await offerInstall(page)).toBe(true);
    const install = page.getByTestId('install-button');
    await expect(install).toBeVisible();
    await expect(install).toHaveText('Install');
    await install.click();
    expect(await prompted(page)).toBe(1);
    await expect(install).toHaveCount(0);

    // Installed from the browser's own menu: the offer goes too.
    await offerInstall(page);
    await expect(install).toBeVisible();
    await page.evaluate(() => window.dispatchEvent(new Event('appinstalled')));
    await expect(install).toHaveCount(0);

    // Closed by the shopper: remembered.
    await page.reload();
    await homeHydrated(page);
    await offerInstall(page);
    await page.getByTestId('install-dismiss').click();
    await expect(page.getByTestId('install-offer')).toHaveCount(0);
    await page.reload();
    await homeHydrated(page);
    expect(await offerInstall(page)).toBe(true);
    await expect(page.getByTestId('product-card').first()).toBeVisible();
    await expect(install).toHaveCount(0);
  });

  test('an offer made before the page is hydrated is kept, and shown once it is', async ({ page }) => {
    // The home's page code arrives late, so hydration waits while the shop's entry has run.
    let release!: () => void;
    const late = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/shop-home-page-[^/]+\.js$/, async (route) => {
      await late;
      await route.continue();
    });
    await page.goto('/', { waitUntil: 'domcontentloaded' });
    // Offered again until the shop's scripts listen (an offer before them is nobody's).
    await expect.poll(() => offerInstall(page)).toBe(true);
    await expect(page.getByTestId('product-card')).toHaveCount(4);
    release();
    await homeHydrated(page);
    await expect(page.getByTestId('install-button')).toBeVisible();
  });

  const iPhone = devices['iPhone 13'];
  const iPhoneContext = {
    userAgent: iPhone.userAgent,
    viewport: iPhone.viewport,
    deviceScaleFactor: iPhone.deviceScaleFactor,
    isMobile: true,
    hasTouch: true,
  };

  test('Safari on an iPhone gets the Add to Home Screen hint, until closed', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ ...iPhoneContext, baseURL });
    try {
      const page = await context.newPage();
      await page.goto('/');
      const hint = page.getByTestId('ios-install-hint');
      await expect(hint).toBeVisible();
      await expect(hint).toContainText('Add to Home Screen');
      await expect(hint).toContainText('Share');
      await hint.getByRole('button', { name: 'Close' }).click();
      await expect(hint).toHaveCount(0);
      await page.reload();
      await expect(page.getByTestId('product-card').first()).toBeVisible();
      await expect(hint).toHaveCount(0);
    } finally {
      await context.close();
    }
  });

  test('opened from the Home Screen, the iPhone gets no hint', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ ...iPhoneContext, baseURL });
    try {
      await context.addInitScript(() => Object.defineProperty(Navigator.prototype, 'standalone', { get: () => true, configurable: true }));
      const page = await context.newPage();
      await page.goto('/');
      await expect(page.getByTestId('product-card').first()).toBeVisible();
      expect(await page.evaluate(() => (navigator as Navigator & { standalone?: boolean }).standalone)).toBe(true);
      await expect(page.getByTestId('ios-install-hint')).toHaveCount(0);
    } finally {
      await context.close();
    }
  });
});

/**
 * A new release: the server serves another sw.js (dist/sw.js rewritten with a unique build mark,
 * restored afterwards). The waiting worker brings the 'New version available' toast; its Reload
 * activates that worker and reloads the page under it.
 */
test('a new version waiting: the toast offers Reload, which activates it', async ({ page }) => {
  test.setTimeout(60_000); // a worker installed twice and a reload
  const swPath = path.resolve('dist/sw.js');
  const original = fs.readFileSync(swPath, 'utf8');
  const build = `e2e-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  try {
    await page.goto('/');
    await expect(page.getByTestId('product-card').first()).toBeVisible();
    // The first version in control and done activating (a version installed while it still
    // activates would wait for that to end before it could take over).
    await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated');
    await expect(page.getByTestId('toast').filter({ hasText: 'New version available' })).toHaveCount(0);

    // The new build answers which build it is, so the test can tell the workers apart.
    fs.writeFileSync(
      swPath,
      `${original}\n// ${build}\nself.addEventListener('message', (e) => { if (e.data === 'e2e-build' && e.ports[0]) e.ports[0].postMessage(${JSON.stringify(build)}); });\n`,
    );
    await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      await registration?.update();
    });

    const toast = page.getByTestId('toast').filter({ hasText: 'New version available' });
    await expect(toast).toBeVisible();
    await expect(toast).toContainText('Reload to use the latest version of the shop.');
    await page.evaluate(() =>
      navigator.serviceWorker.addEventListener('controllerchange', () => sessionStorage.setItem('e2e-controllerchange', '1')),
    );
    const reloaded = page.waitForEvent('framenavigated');
    await toast.getByRole('button', { name: 'Reload' }).click();
    await reloaded;
    await expect(page.getByTestId('product-card').first()).toBeVisible();
    expect(await page.evaluate(() => sessionStorage.getItem('e2e-controllerchange'))).toBe('1');
    const controllerBuild = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = (event) => resolve(String(event.data));
          navigator.serviceWorker.controller?.postMessage('e2e-build', [channel.port2]);
        }),
    );
    expect(controllerBuild).toBe(build);
    await expect(page.getByTestId('toast').filter({ hasText: 'New version available' })).toHaveCount(0);
  } finally {
    fs.writeFileSync(swPath, original);
  }
});
