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
