import { devices, expect, test, type Locator, type Page } from './fixtures/test';
import type { Cart, Product, Variant } from '../common/api';
import { formatPogAmount, formatPogPrice } from '../client/lib/format-pog-price';
import { closeToasts, expectToast, firstAddableCard, homeHydrated } from './fixtures/ui';

// The cart as a shopper with motion on sees it: the drawer slides in, toasts and dialogs animate, and
// every step here waits them out (the other specs run with reduced motion: playwright.config.ts).
test.use({ reducedMotion: 'no-preference' });

// The cart against the real server (fresh embedded database, the emulator's demo catalogue).
// Products are picked from the live API; every test has its own browser context, so its own
// session cookie and its own empty cart.
let products: Product[];

test.beforeAll(async ({ request }) => {
  const res = await request.get('/api/products');
  expect(res.ok()).toBe(true);
  products = await res.json();
  expect(products.length).toBeGreaterThan(5);
});

interface Pick {
  product: Product;
  variant: Variant;
}

/** A product whose first variant (the one a card selects by itself) is on sale with stock. */
function pickSimple(minStock: number, exclude: string[] = []): Pick {
  const product = products.find(
    (p) => !exclude.includes(p.id) && p.variants.length === 1 && !p.variants[0].isSoldOut && p.variants[0].availableStock >= minStock,
  );
  if (!product) throw new Error(`no single-variant product with stock >= ${minStock}`);
  return { product, variant: product.variants[0] };
}

/** A variant on sale whose known stock is within [min, max], preferring single-variant products. */
function pickStock(min: number, max: number, exclude: string[] = []): Pick {
  const candidates = products
    .filter((p) => !exclude.includes(p.id))
    .flatMap((product) => product.variants.map((variant) => ({ product, variant })))
    .filter(({ variant }) => !variant.isSoldOut && variant.availableStock >= min && variant.availableStock <= max)
    .sort((a, b) => a.product.variants.length - b.product.variants.length);
  if (!candidates[0]) throw new Error(`no variant with stock in ${min}..${max}`);
  return candidates[0];
}

const card = (page: Page, product: Product) =>
  page.getByTestId('product-card').filter({ has: page.locator(`#product-${product.id}-title`) });

const lineTitle = (product: Product, variant: Variant) =>
  variant.title && variant.title !== 'Default Title' ? new RegExp(`^${escapeRegExp(product.title)}`) : product.title;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Chooses the variant (when the card has a select) and the quantity, in a card or the panel. */
async function choose(scope: Locator, { product, variant }: Pick, quantity: number) {
  if (product.variants.length > 1) await scope.getByTestId('variant-select').selectOption(variant.id);
  const plus = scope.getByTestId('qty-plus');
  for (let i = 1; i < quantity; i++) await plus.click();
  await expect(scope.getByTestId('qty-input')).toHaveValue(String(quantity));
}

async function expectCount(page: Page, n: number) {
  await expect(page.getByTestId('cart-count')).toHaveText(String(n));
  if (n > 0) await expect(page.getByTestId('cart-badge')).toHaveText(String(n));
  else await expect(page.getByTestId('cart-badge')).toHaveCount(0);
}

/** Adds through the card's button, waits for the drawer and the toast, then closes the drawer. */
/**
 * The home, hydrated. These tests are about the cart, not about taps made while the page's code is
 * still arriving (server-rendering.spec.ts covers those), so they start once the page listens.
 */
async function openShop(page: Page) {
  await page.goto('/');
  await homeHydrated(page);
}

async function addFromCard(page: Page, pick: Pick, quantity = 1) {
  const c = card(page, pick.product);
  await c.scrollIntoViewIfNeeded();
  await choose(c, pick, quantity);
  await c.getByTestId('add-to-cart').click();
  // The toast shows first (for 5 s), then the drawer opens above it.
  await expectToast(page, 'Added to cart', `Added ${quantity} item(s) to your cart.`);
  await expect(page.getByTestId('cart-drawer')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('cart-drawer')).toBeHidden();
}

/** Waits for the sheet's slide-in (and any other animation inside it) to finish before measuring. */
async function settled(locator: Locator) {
  await expect
    .poll(() => locator.evaluate((el) => el.getAnimations({ subtree: true }).filter((a) => a.playState === 'running').length))
    .toBe(0);
}

async function serverCart(page: Page): Promise<Cart> {
  const res = await page.request.get('/api/cart');
  expect(res.ok()).toBe(true);
  return res.json();
}

test('adding from a card opens the drawer, toasts and counts the line', async ({ page }) => {
  const pick = pickSimple(3);
  await openShop(page);
  await expectCount(page, 0);
  const c = card(page, pick.product);
  await c.scrollIntoViewIfNeeded();
  await c.getByTestId('add-to-cart').click();

  await expectToast(page, 'Added to cart', 'Added 1 item(s) to your cart.');
  const drawer = page.getByTestId('cart-drawer');
  await expect(drawer).toBeVisible();
  await expect(drawer.getByRole('heading', { name: 'Your Shopping Cart' })).toBeVisible();
  await expect(drawer).toContainText('View your items and proceed to checkout');
  await expectCount(page, 1);

  const line = drawer.getByTestId('cart-item');
  await expect(line).toHaveCount(1);
  await expect(line.getByTestId('cart-item-title')).toHaveText(lineTitle(pick.product, pick.variant));
  await expect(line.getByTestId('cart-item-price')).toHaveText(`${formatPogAmount(pick.variant.price)} POG × 1`);
  await expect(drawer.getByTestId('cart-total')).toHaveText(`${formatPogAmount(pick.variant.price)} POG`);
  await expect(drawer.getByTestId('base-network-note')).toContainText('Base Network');

  // Non-modal: no scroll lock, the page is not hidden from assistive technology, no overlay.
  await expect(page.locator('body')).not.toHaveAttribute('data-scroll-locked', /.*/);
  await expect(page.locator('#root')).not.toHaveAttribute('aria-hidden', /.*/);
  // 3/4 of the phone's width, with a small maximum.
  await settled(drawer);
  const box = (await drawer.boundingBox())!;
  const width = page.viewportSize()!.width;
  expect(box.width).toBeGreaterThan(width * 0.7);
  expect(box.width).toBeLessThanOrEqual(Math.min(width * 0.75, 384) + 1);
  expect(Math.round(box.x + box.width)).toBe(width);

  // The remove button is always visible on a touch screen, and a 44 px target.
  const remove = line.getByTestId('cart-item-remove');
  await expect(remove).toHaveCSS('opacity', '1');
  const removeBox = (await remove.boundingBox())!;
  expect(removeBox.width).toBeGreaterThanOrEqual(44);
  expect(removeBox.height).toBeGreaterThanOrEqual(44);
});

test('the cart button opens and closes the drawer, and focus comes back to it', async ({ page }) => {
  await openShop(page);
  const button = page.getByTestId('cart-button');
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  await button.click();
  const drawer = page.getByTestId('cart-drawer');
  await expect(drawer).toBeVisible();
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  await expect(drawer.getByTestId('cart-empty')).toHaveText('Your cart is empty');
  await expect(drawer.getByTestId('cart-total')).toHaveText('0.00 POG');
  await expect(drawer.getByTestId('pay-button')).toBeDisabled();
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(button).toBeFocused();

  await button.click();
  await expect(drawer).toBeVisible();
  await drawer.getByRole('button', { name: 'Close' }).click();
  await expect(drawer).toBeHidden();
});

test('adding from the detail panel with quantity 2', async ({ page }) => {
  const pick = pickSimple(3);
  await openShop(page);
  const c = card(page, pick.product);
  await c.scrollIntoViewIfNeeded();
  await c.getByTestId('details-button').click();
  const panel = page.getByTestId('detail-panel');
  await expect(panel).toBeVisible();
  await choose(panel, pick, 2);
  await panel.getByRole('button', { name: 'Add 2 to Cart' }).click();

  await expectToast(page, 'Added to cart', 'Added 2 item(s) to your cart.');
  const drawer = page.getByTestId('cart-drawer');
  await expect(drawer).toBeVisible();
  // The modal panel steps aside for the drawer.
  await expect(panel).toBeHidden();
  await expectCount(page, 1);
  await expect(drawer.getByTestId('cart-item-price')).toHaveText(`${formatPogAmount(pick.variant.price)} POG × 2`);
  const cart = await serverCart(page);
  expect(cart.items).toHaveLength(1);
  expect(cart.items[0]).toMatchObject({ variantId: pick.variant.id, quantity: 2 });
  await expect(drawer.getByTestId('cart-total')).toHaveText(`${formatPogAmount(cart.total)} POG`);
});

test('the badge counts lines, and removing from the drawer updates it', async ({ page }) => {
  const first = pickSimple(3);
  const second = pickSimple(3, [first.product.id]);
  await openShop(page);
  await addFromCard(page, first);
  await expectCount(page, 1);
  await addFromCard(page, second, 2);
  await expectCount(page, 2);
  // Adding the same variant again grows its line, not the count.
  await addFromCard(page, first);
  await expectCount(page, 2);

  await page.getByTestId('cart-button').click();
  const drawer = page.getByTestId('cart-drawer');
  await expect(drawer.getByTestId('cart-item')).toHaveCount(2);
  const cart = await serverCart(page);
  const firstLine = cart.items.find((i) => i.variantId === first.variant.id)!;
  expect(firstLine.quantity).toBe(2);
  await expect(drawer.getByTestId('cart-total')).toHaveText(`${formatPogAmount(cart.total)} POG`);

  await drawer.getByRole('button', { name: `Remove ${firstLine.title} from cart` }).click();
  await expectToast(page, 'Item Removed', `${firstLine.title} was removed from your cart.`);
  await expectCount(page, 1);
  await expect(drawer.getByTestId('cart-item')).toHaveCount(1);
  await expect(drawer.getByTestId('cart-item')).not.toContainText(firstLine.title);

  await drawer.getByTestId('cart-item-remove').click();
  await expectToast(page, 'Item Removed', 'was removed from your cart.');
  await expectCount(page, 0);
  await expect(drawer.getByTestId('cart-empty')).toHaveText('Your cart is empty');
  await expect(drawer.getByTestId('pay-button')).toBeDisabled();
  expect((await serverCart(page)).items).toHaveLength(0);
});

test('pay asks for a wallet first', async ({ page }) => {
  const pick = pickSimple(1);
  await openShop(page);
  await addFromCard(page, pick);
  await page.getByTestId('cart-button').click();
  const pay = page.getByTestId('cart-drawer').getByTestId('pay-button');
  await expect(pay).toBeEnabled();
  // The 'Added to cart' toast may still show (or may have gone by itself, on a slow machine):
  // close whatever is left, so the next toast is the pay button's.
  await closeToasts(page);
  await expect(page.getByTestId('cart-drawer')).toBeVisible();
  await pay.click();
  await expectToast(
    page,
    'Connect Wallet',
    "Please connect your wallet and ensure you're on Base Network to proceed with payment",
    'destructive',
  );
});

test('the cart survives a reload', async ({ page }) => {
  const pick = pickSimple(1);
  await openShop(page);
  await addFromCard(page, pick);
  await expectCount(page, 1);
  await page.reload();
  await expectCount(page, 1);
  await page.getByTestId('cart-button').click();
  await expect(page.getByTestId('cart-drawer').getByTestId('cart-item-title')).toHaveText(lineTitle(pick.product, pick.variant));
});

test('another shopper (a second browser context) has their own empty cart', async ({ page, browser, baseURL }) => {
  const pick = pickSimple(1);
  await openShop(page);
  await addFromCard(page, pick);
  await expectCount(page, 1);

  const other = await browser.newContext({ ...devices['Pixel 7'], baseURL });
  try {
    const otherPage = await other.newPage();
    await otherPage.goto('/');
    await expect(otherPage.getByTestId('product-card').first()).toBeVisible();
    await expectCount(otherPage, 0);
    await otherPage.getByTestId('cart-button').click();
    await expect(otherPage.getByTestId('cart-drawer').getByTestId('cart-empty')).toBeVisible();
    expect((await serverCart(otherPage)).items).toHaveLength(0);
  } finally {
    await other.close();
  }
  // And the first shopper's cart is untouched.
  expect((await serverCart(page)).items).toHaveLength(1);
});

test('the client refuses more than the known stock before asking the server', async ({ page }) => {
  const pick = pickStock(1, 9);
  const n = pick.variant.availableStock;
  await openShop(page);
  const c = card(page, pick.product);
  await c.scrollIntoViewIfNeeded();
  let adds = 0;
  page.on('request', (req) => {
    if (req.url().endsWith('/api/cart/add')) adds += 1;
  });
  await choose(c, pick, n + 1);
  await c.getByTestId('add-to-cart').click();
  await expectToast(page, 'Error', `Only ${n} items available`, 'destructive');
  await expect(page.getByTestId('cart-drawer')).toBeHidden();
  await expectCount(page, 0);
  expect(adds).toBe(0);
});

test('the server limits stock counting what is already in the cart', async ({ page }) => {
  const pick = pickStock(2, 9);
  const n = pick.variant.availableStock;
  await openShop(page);
  await addFromCard(page, pick, n - 1);
  await expectCount(page, 1);

  // 2 more passes the client's check (2 <= n) but not the server's (n - 1 + 2 > n).
  const c = card(page, pick.product);
  await c.getByTestId('qty-input').fill('2');
  await c.getByTestId('qty-input').blur();
  await c.getByTestId('add-to-cart').click();
  await expectToast(page, 'Error', `Only ${n} items available`, 'destructive');
  await expect(page.getByTestId('cart-drawer')).toBeHidden();
  await expectCount(page, 1);
  const cart = await serverCart(page);
  expect(cart.items[0]).toMatchObject({ variantId: pick.variant.id, quantity: n - 1 });
});

test('/cart lists the lines with an order summary; Proceed to Checkout opens the drawer', async ({ page }) => {
  const first = pickSimple(3);
  const second = pickSimple(3, [first.product.id]);
  await page.goto('/cart');
  const cartPage = page.getByTestId('cart-page');
  await expect(cartPage.getByTestId('cart-empty')).toHaveText('Your cart is empty');
  await expect(cartPage.getByRole('link', { name: 'Continue shopping' })).toHaveAttribute('href', '/');

  for (const [pick, quantity] of [
    [first, 2],
    [second, 1],
  ] as const) {
    const res = await page.request.post('/api/cart/add', { data: { variantId: pick.variant.id, quantity } });
    expect(res.ok()).toBe(true);
  }
  const cart = await serverCart(page);
  await page.reload();
  await expect(cartPage.getByTestId('cart-item')).toHaveCount(2);
  await expectCount(page, 2);
  for (const item of cart.items) {
    const line = cartPage.getByTestId('cart-item').filter({ hasText: item.title });
    await expect(line.getByTestId('cart-item-price')).toHaveText(`${formatPogPrice(item.price)} × ${item.quantity}`);
  }
  await expect(cartPage.getByTestId('cart-summary-total')).toHaveText(formatPogPrice(cart.total));
  await expect(cartPage.getByTestId('cart-summary-units')).toHaveText('3');

  await cartPage.getByTestId('proceed-to-checkout').click();
  const drawer = page.getByTestId('cart-drawer');
  await expect(drawer).toBeVisible();
  await expect(drawer.getByTestId('cart-item')).toHaveCount(2);
  await page.keyboard.press('Escape');

  // Removing on the page updates the page, the header and the summary.
  const removed = cart.items[0];
  await cartPage.getByRole('button', { name: `Remove ${removed.title} from cart` }).click();
  await expectToast(page, 'Item Removed', `${removed.title} was removed from your cart.`);
  await expect(cartPage.getByTestId('cart-item')).toHaveCount(1);
  await expectCount(page, 1);
  await expect(cartPage.getByTestId('cart-summary-total')).toHaveText(formatPogPrice(cart.items[1].lineTotal));
});

/** Whether two boxes share any area. */
function intersects(
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) {
  return a.y < b.y + b.height && b.y < a.y + a.height && a.x < b.x + b.width && b.x < a.x + a.width;
}

test("on a 390 px phone the toast after an add keeps off the header and the open drawer's title, close button, line, total and pay button", async ({
  browser,
  baseURL,
}) => {
  const pick = pickSimple(1);
  const phone = await browser.newContext({ ...devices['Pixel 7'], viewport: { width: 390, height: 844 }, baseURL });
  try {
    const page = await phone.newPage();
    await openShop(page);
    const c = card(page, pick.product);
    await c.scrollIntoViewIfNeeded();
    await c.getByTestId('add-to-cart').click();
    const drawer = page.getByTestId('cart-drawer');
    await expect(drawer.getByTestId('cart-item')).toHaveCount(1);
    await expectToast(page, 'Added to cart', 'Added 1 item(s) to your cart.');
    await settled(drawer);
    await settled(page.getByTestId('toast'));
    const toastBox = (await page.getByTestId('toast').boundingBox())!;
    // The drawer makes room for it above its lines: the line and its remove button stay in the open.
    for (const id of ['cart-item', 'cart-item-remove', 'cart-total', 'pay-button']) {
      const b = (await drawer.getByTestId(id).boundingBox())!;
      expect(intersects(toastBox, b), `the toast covers ${id}`).toBe(false);
    }
    // Nor the drawer's title and close button, nor the header (the store name, the cart button).
    const above: Array<[string, Locator]> = [
      ['the drawer title', drawer.getByRole('heading', { name: 'Your Shopping Cart' })],
      ['the drawer close button', drawer.getByRole('button', { name: 'Close' })],
      ['the store name', page.getByTestId('home-link')],
      ['the cart button', page.getByTestId('cart-button')],
    ];
    for (const [what, locator] of above) {
      const b = (await locator.boundingBox())!;
      expect(intersects(toastBox, b), `the toast covers ${what}`).toBe(false);
    }
    await drawer.getByRole('button', { name: 'Close' }).click({ timeout: 2000, trial: true });
    // The pay button and the line's remove button are reachable while the toast shows: a tap
    // lands on them, not on the toast.
    await drawer.getByTestId('pay-button').click({ timeout: 2000, trial: true });
    await drawer.getByTestId('cart-item-remove').click({ timeout: 2000, trial: true });
    // Once the toast has gone, so has its room.
    await closeToasts(page);
    await expect.poll(() => drawer.getByTestId('toast-space').evaluate((el) => el.getBoundingClientRect().height)).toBe(0);
  } finally {
    await phone.close();
  }
});

test('on a tablet the drawer is a narrow right-hand sheet and the toast stays clear of its footer', async ({ browser, baseURL }) => {
  const pick = pickSimple(1);
  const tablet = await browser.newContext({ viewport: { width: 820, height: 1180 }, hasTouch: true, isMobile: true, baseURL });
  try {
    const page = await tablet.newPage();
    await openShop(page);
    const c = card(page, pick.product);
    await c.scrollIntoViewIfNeeded();
    await c.getByTestId('add-to-cart').click();
    const drawer = page.getByTestId('cart-drawer');
    await expect(drawer.getByTestId('cart-item')).toHaveCount(1);
    await expectToast(page, 'Added to cart', 'Added 1 item(s) to your cart.');

    await settled(drawer);
    const box = (await drawer.boundingBox())!;
    expect(box.width).toBeLessThanOrEqual(384 + 1); // max-w-sm
    expect(Math.round(box.x + box.width)).toBe(820);
    const toastBox = (await page.getByTestId('toast').boundingBox())!;
    for (const id of ['cart-total', 'pay-button']) {
      const b = (await drawer.getByTestId(id).boundingBox())!;
      const overlaps =
        toastBox.y < b.y + b.height &&
        b.y < toastBox.y + toastBox.height &&
        toastBox.x < b.x + b.width &&
        b.x < toastBox.x + toastBox.width;
      expect(overlaps, `the toast covers ${id}`).toBe(false);
    }
    await drawer.getByTestId('pay-button').click({ timeout: 2000 });
    await expectToast(page, 'Connect Wallet', 'Please connect your wallet', 'destructive');

    // Narrower (the drawer keeps its 24rem from 640 px up): the toast is narrower too, never under the drawer.
    await closeToasts(page);
    await page.setViewportSize({ width: 680, height: 1000 });
    await drawer.getByTestId('pay-button').click({ timeout: 2000 });
    await expectToast(page, 'Connect Wallet', 'Please connect your wallet', 'destructive');
    await settled(page.getByTestId('toast'));
    const narrowToast = (await page.getByTestId('toast').boundingBox())!;
    const drawerBox = (await drawer.boundingBox())!;
    expect(narrowToast.x + narrowToast.width, 'the toast reaches under the drawer').toBeLessThanOrEqual(drawerBox.x);
  } finally {
    await tablet.close();
  }
});

test.describe('payments paused', () => {
  // The status is stood in for by page.route, which never sees a request the service worker makes
  // itself: once it controls the page (it claims it a moment after the first load), the shop's
  // real answer would come through instead.
  test.use({ serviceWorkers: 'block' });

  test('while the shop cannot reach the Base network the drawer says payments are paused, and paying waits', async ({ page }) => {
    // The e2e shop's chain serves every test at once, so the server's answer is stood in for here;
    // the server's own answer with its chain RPC hung is tested in server/outages.int.test.ts.
    let paused = true;
    await page.route('**/api/payments/status', (route) => route.fulfill({ json: { paused } }));
    await page.goto('/');
    const card = firstAddableCard(page);
    await card.getByTestId('add-to-cart').click();
    const drawer = page.getByTestId('cart-drawer');
    await expect(drawer.getByTestId('cart-items')).toBeVisible();
    await expect(drawer.getByTestId('pay-paused')).toHaveText(
      'Payments are paused: the shop cannot reach the Base network right now. Your cart is kept; try again in a few minutes.',
    );
    await expect(drawer.getByTestId('pay-button')).toBeDisabled();
    await expect(drawer.getByTestId('pay-elsewhere-button')).toBeDisabled();

    // Once the shop sees the chain again, the drawer lets the shopper pay.
    paused = false;
    await page.keyboard.press('Escape');
    await expect(drawer).toHaveCount(0);
    await page.getByTestId('cart-button').click();
    await expect(drawer.getByTestId('cart-items')).toBeVisible();
    await expect(drawer.getByTestId('pay-paused')).toHaveCount(0);
    await expect(drawer.getByTestId('pay-button')).toBeEnabled();
  });
});
