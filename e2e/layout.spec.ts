import { expect, test } from './fixtures/test';
import { TestWallet } from './fixtures/test-wallet';
import { closeToasts, homeHydrated, pickTestWallet } from './fixtures/ui';

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

test.describe('the header on a 390 px phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("reads 'Cart (n)' and 'Connect', the badge clear of the cart icon, everything on screen", async ({ page }) => {
    const products = (await (await page.request.get('/api/products')).json()) as Array<{
      variants: Array<{ id: string; isSoldOut: boolean }>;
    }>;
    const variant = products.flatMap((p) => p.variants).find((v) => !v.isSoldOut)!;
    expect((await page.request.post('/api/cart/add', { data: { variantId: variant.id, quantity: 1 } })).ok()).toBe(true);
    await page.goto('/');

    const cart = page.getByTestId('cart-button');
    // The server's page says 'Cart (0)' (it is the same for everyone); the cart arrives after it.
    await expect(cart.getByTestId('cart-count')).toHaveText('1');
    expect(await cart.getByTestId('cart-label').evaluate((el) => (el as HTMLElement).innerText)).toBe('Cart (1)');
    await expect(cart).toHaveAccessibleName(/Cart \(1\)/);
    const badge = (await cart.getByTestId('cart-badge').boundingBox())!;
    for (const id of ['cart-icon', 'cart-label']) {
      const b = (await cart.getByTestId(id).boundingBox())!;
      const overlaps = badge.y < b.y + b.height && b.y < badge.y + badge.height && badge.x < b.x + b.width && b.x < badge.x + badge.width;
      expect(overlaps, `the badge covers ${id}`).toBe(false);
    }

    const connect = page.getByTestId('wallet-button');
    expect(await connect.evaluate((el) => (el as HTMLElement).innerText.trim())).toBe('Connect');
    await expect(connect).toHaveAccessibleName('Connect Wallet');
    // Orders and Admin may be icons, named for screen readers.
    await expect(page.getByTestId('orders-link')).toHaveAccessibleName('Orders');
    await expect(page.getByTestId('admin-link')).toHaveAccessibleName('Admin');

    for (const id of ['home-link', 'wallet-button', 'orders-link', 'admin-link', 'cart-button', 'cart-badge']) {
      const box = (await page.getByTestId(id).boundingBox())!;
      expect(box.x, id).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, id).toBeLessThanOrEqual(390);
      expect(box.y, id).toBeGreaterThanOrEqual(0);
    }
    // The badge is whole, its 2 px ring included: nothing of it is above the screen's top.
    const ring = 2;
    expect((await page.getByTestId('cart-badge').boundingBox())!.y - ring, 'the badge with its ring').toBeGreaterThanOrEqual(0);
    // The store name is not cut to nothing.
    expect(await page.getByTestId('home-link').evaluate((el) => (el as HTMLElement).innerText.trim().length)).toBeGreaterThan(3);
  });
});

// The store name is never cut ('POG…'): from 360 px up it fits whole, on two lines at most, with
// the wallet disconnected and connected (its address takes more room than 'Connect').
test('the store name reads whole at every phone and tablet width, wallet connected or not', async ({ page }, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'the widths are set here, one pass is enough');
  const wallet = await TestWallet.install(page);
  const { shopName } = (await (await page.request.get('/api/config')).json()) as { shopName: string };
  const widths = [360, 390, 412, 430, 480, 600, 640, 700, 768, 820];
  const expectWhole = async (state: string) => {
    for (const width of widths) {
      await page.setViewportSize({ width, height: 844 });
      const name = page.getByTestId('store-name');
      const shown = await name.evaluate((el) => ({
        text: (el as HTMLElement).innerText.replace(/\s+/g, ' ').trim(),
        // Beyond the rounding of a fractional height: a clamped line or an ellipsis is many pixels.
        clipped: el.scrollWidth - el.clientWidth > 1 || el.scrollHeight - el.clientHeight > 1,
        lines: Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)),
      }));
      expect({ text: shown.text, clipped: shown.clipped }, `${state} at ${width} px`).toEqual({ text: shopName, clipped: false });
      expect(shown.lines, `${state} at ${width} px`).toBeLessThanOrEqual(2);
      const nav = (await page.getByRole('navigation', { name: 'Main' }).boundingBox())!;
      const box = (await name.boundingBox())!;
      expect(box.x + box.width, `${state} at ${width} px: the name runs under the header's controls`).toBeLessThanOrEqual(nav.x);
    }
  };
  await page.goto('/');
  await homeHydrated(page);
  await expectWhole('disconnected');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId('wallet-button').click();
  await pickTestWallet(page, wallet);
  await closeToasts(page);
  await expectWhole('connected');
});
