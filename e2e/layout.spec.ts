import { expect, test } from '@playwright/test';

// Runs at phone (Pixel 7) and tablet (820 px) sizes: the page must fit, and the grid must use the
// spec's column count for the width.
test('the shop fits the screen and the grid has the right number of columns', async ({ page }, testInfo) => {
  await page.goto('/');
  await expect(page.getByTestId('product-card').first()).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  const lefts = await page
    .getByTestId('product-card')
    .evaluateAll((cards) => cards.slice(0, 8).map((c) => Math.round(c.getBoundingClientRect().left)));
  const columns = new Set(lefts).size;
  expect(columns).toBe(testInfo.project.name === 'tablet' ? 2 : 1);

  // The header's controls all stay on screen.
  for (const id of ['home-link', 'wallet-button', 'orders-link', 'admin-link', 'cart-button']) {
    const box = await page.getByTestId(id).boundingBox();
    expect(box, id).not.toBeNull();
    expect(box!.x + box!.width, id).toBeLessThanOrEqual(page.viewportSize()!.width);
  }
  await page.screenshot({ path: testInfo.outputPath('home.png'), fullPage: false });
});
