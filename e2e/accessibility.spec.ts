import { AxeBuilder } from '@axe-core/playwright';
import { Contract, JsonRpcProvider, parseUnits } from 'ethers';
import type { Product, PublicConfig } from '../common/api';
import { fetchAttention, logInAsAdmin } from './fixtures/admin';
import { expect, test, type Page, type TestInfo } from './fixtures/test';
import { CHAIN_RPC, DEV_ACCOUNTS, TestWallet } from './fixtures/test-wallet';
import { closeToasts, homeHydrated, mostStocked, pickTestWallet } from './fixtures/ui';
import { mined } from '../server/chain/mined';

// Every screen a shopper or an admin works in, checked by axe-core (every rule it has, of any
// impact) and photographed, on a phone and on a tablet (the two projects of playwright.config.ts).
// The photos are kept under test-results/screens/<project>/ for a person to look at.

let products: Product[];

test.beforeAll(async ({ request }) => {
  const res = await request.get('/api/products');
  expect(res.ok()).toBe(true);
  products = await res.json();
});

/** One line per violation: the rule, its impact, and where (at most three elements). */
function describe(screen: string, violations: Awaited<ReturnType<AxeBuilder['analyze']>>['violations']): string[] {
  return violations.map(
    (v) =>
      `${screen}: ${v.id} (${v.impact ?? 'no impact'}) ${v.help} at ${v.nodes
        .slice(0, 3)
        .map((n) => n.target.join(' '))
        .join(', ')}`,
  );
}

/**
 * The text of every visible disabled control (which axe-core leaves out of its contrast rule),
 * with its contrast against what is behind it where that is under WCAG AA's 4.5:1 (3:1 for large
 * text): the control's colours over its ancestors' backgrounds, faded by its opacity.
 */
function disabledContrast(): string[] {
  type Rgba = [number, number, number, number];
  // Any CSS colour (rgb(), oklch() ...) as the browser paints it, read back from a 1×1 canvas.
  const pen = new OffscreenCanvas(1, 1).getContext('2d', { willReadFrequently: true })!;
  const parse = (color: string): Rgba => {
    pen.clearRect(0, 0, 1, 1);
    pen.fillStyle = color;
    pen.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = pen.getImageData(0, 0, 1, 1).data;
    return [r, g, b, a / 255];
  };
  const over = (top: Rgba, below: Rgba): Rgba => {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + below[i] * (1 - a)).concat(1) as Rgba;
  };
  const luminance = (c: Rgba) => {
    const [r, g, b] = c.slice(0, 3).map((v) => {
      const s = v / 255;
      return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const contrast = (a: Rgba, b: Rgba) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  /** What is behind `el`: its ancestors' backgrounds, composed from the page's white up. */
  const backdrop = (el: Element): Rgba => {
    const layers: Rgba[] = [];
    for (let node = el.parentElement; node; node = node.parentElement) {
      const bg = parse(getComputedStyle(node).backgroundColor);
      if (bg[3] > 0) layers.push(bg);
      if (bg[3] === 1) break;
    }
    return layers.reduceRight<Rgba>((below, layer) => over(layer, below), [255, 255, 255, 1]);
  };
  const problems: string[] = [];
  const controls = document.querySelectorAll('button:disabled, input:disabled, select:disabled, textarea:disabled, [aria-disabled="true"]');
  for (const el of controls) {
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    const text = (el instanceof HTMLInputElement ? el.value : (el as HTMLElement).innerText).trim();
    if (!text || box.width < 2 || box.height < 2 || style.visibility !== 'visible' || Number(style.opacity) === 0) continue;
    const name = `${el.tagName.toLowerCase()} '${text.slice(0, 40)}'`;
    const behind = backdrop(el);
    const own = parse(style.backgroundColor);
    const ink = parse(style.color);
    const opacity = Number(style.opacity);
    const field = over(own, behind);
    const bg = over([...field.slice(0, 3), opacity] as Rgba, behind);
    const fg = over([...over(ink, field).slice(0, 3), opacity] as Rgba, behind);
    const ratio = contrast(fg, bg);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5))
      problems.push(`${name}: contrast ${ratio.toFixed(2)}:1 (${style.color} on ${style.backgroundColor}, opacity ${opacity})`);
  }
  return problems;
}

/**
 * Checks the screen as it is now and photographs it. Animations are off (reduced motion), so
 * what is checked is what stays on screen, not a frame of a fade.
 */
async function look(page: Page, testInfo: TestInfo, screen: string, found: string[], { fullPage = true } = {}) {
  await page.evaluate(() => document.fonts.ready);
  const { violations } = await new AxeBuilder({ page }).analyze();
  found.push(...describe(screen, violations));
  found.push(...(await page.evaluate(disabledContrast)).map((problem) => `${screen}: disabled ${problem}`));
  await page.screenshot({ path: `test-results/screens/${testInfo.project.name}/${screen}.png`, fullPage });
}

test.use({ reducedMotion: 'reduce', serviceWorkers: 'block' });

test('the shop: home, a product, the drawer, paying, the confirmation, the receipt and the orders pass axe-core', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const found: string[] = [];
  const wallet = await TestWallet.install(page);
  const { product, variant } = mostStocked(products);

  await page.goto('/');
  await homeHydrated(page);
  await look(page, testInfo, 'home', found);

  await page.goto(`/product/${product.id}`);
  await expect(page.getByTestId('product-page')).toBeVisible();
  await look(page, testInfo, 'product', found);

  await page.getByTestId('wallet-button').click();
  await pickTestWallet(page, wallet);
  await closeToasts(page);
  const added = await page.request.post('/api/cart/add', { data: { variantId: variant.id, quantity: 1 } });
  expect(added.ok()).toBe(true);
  await page.getByTestId('cart-button').click();
  const drawer = page.getByTestId('cart-drawer');
  await expect(drawer.getByTestId('cart-item')).toHaveCount(1);
  // The drawer is as tall as the screen: photographed as the screen shows it.
  await look(page, testInfo, 'cart-drawer', found, { fullPage: false });

  // Paying: the drawer while the wallet asks for the confirmation.
  const release = wallet.holdNextTransaction();
  const created = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/orders/create' && r.status() < 300);
  await drawer.getByTestId('pay-button').click();
  await expect(drawer.getByTestId('pay-button')).toHaveText('Confirm in your wallet...');
  await look(page, testInfo, 'checkout', found, { fullPage: false });
  // The shop goes on to Shopify's shipping form: held here, the order's own page is what is checked.
  await page.route(/\/orders\/[^/]+\/shipping$/, (route) => route.abort());
  release();
  const order = (await (await created).json()) as { id: string };

  await page.goto(`/order-confirmation?id=${order.id}`);
  await expect(page.getByTestId('order-confirmation').getByTestId('order-number')).toHaveText(order.id);
  await look(page, testInfo, 'order-confirmation', found);

  await page.getByTestId('order-confirmation').getByTestId('receipt-link').click();
  await expect(page.getByTestId('receipt').getByTestId('receipt-total')).toBeVisible();
  await look(page, testInfo, 'receipt', found);

  await page.goto('/orders');
  await page.getByTestId('orders-sign-in').getByTestId('orders-sign-in-button').click();
  await expect(page.getByTestId('order-card').first()).toBeVisible({ timeout: 15_000 });
  await closeToasts(page);
  await look(page, testInfo, 'orders', found);

  expect(found).toEqual([]);
});

test('the admin: sign-in, products, orders and the payments desk pass axe-core', async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const found: string[] = [];
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Admin Access' })).toBeVisible();
  await look(page, testInfo, 'admin-sign-in', found);

  await logInAsAdmin(page);
  await expect(page.getByTestId('admin-grid')).toHaveAttribute('aria-busy', 'false');
  await look(page, testInfo, 'admin-products', found);

  await page.goto('/admin/orders');
  await expect(page.getByRole('heading', { name: 'Orders', exact: true })).toBeVisible();
  await look(page, testInfo, 'admin-orders', found);

  // A transfer no checkout asked for (an amount none has): the desk shows it as needing attention.
  const config = (await (await page.request.get('/api/config')).json()) as PublicConfig;
  const provider = new JsonRpcProvider(CHAIN_RPC, 8453, { staticNetwork: true });
  let txHash: string;
  try {
    const token = new Contract(
      config.tokenAddress!,
      ['function transfer(address to, uint256 amount) returns (bool)'],
      await provider.getSigner(DEV_ACCOUNTS[1]),
    );
    const tx = await token.getFunction('transfer').send(config.storeWallet!, parseUnits('1.000123', 18));
    await mined(tx);
    txHash = tx.hash;
  } finally {
    provider.destroy();
  }
  await expect
    .poll(async () => (await fetchAttention(page)).items.some((i) => i.txHash.toLowerCase() === txHash.toLowerCase()), { timeout: 60_000 })
    .toBe(true);
  await page.goto('/admin/payments');
  await expect(page.getByRole('heading', { name: 'Payments', exact: true })).toBeVisible();
  await expect(page.locator(`[data-testid="attention-item"][data-tx-hash="${txHash}" i]`)).toBeVisible();
  await look(page, testInfo, 'payments-desk', found);

  expect(found).toEqual([]);
});
