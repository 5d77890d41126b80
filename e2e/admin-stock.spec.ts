import { expect, test, type Page } from './fixtures/test';
import type { InventoryItem } from '../common/admin';
import type { Checkout, Order, Product } from '../common/api';
import { formatPogAmount } from '../client/lib/format-pog-price';
import { fetchInventory, logInAsAdmin, patchInventoryItem, searchProducts } from './fixtures/admin';
import { TestWallet } from './fixtures/test-wallet';
import { closeToasts, expectToast, holdShippingRedirect, pickTestWallet } from './fixtures/ui';

// The admin's say over Shopify's stock and products as groups, on a phone (390×844), against the
// built shop in local mode: the Dad Cap has no stock in Shopify (sold out), the admin gives it a
// stock of 5 with "Sold out" off, and a shopper buys one with the injected test wallet.
test.use({ viewport: { width: 390, height: 844 }, serviceWorkers: 'block' });

const variantCard = (page: Page, id: string) => page.locator(`[data-testid="variant-card"][data-variant-id="${id}"]`);

function dadCapOf(items: InventoryItem[]): InventoryItem {
  const item = items.find((i) => i.originalTitle === 'Dad Cap');
  if (!item) throw new Error('no Dad Cap in the demo catalogue');
  return item;
}

test('admin edit → shop → cart → paid order: a stock of 5 sells the Dad Cap Shopify has none of', async ({ page }, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'a phone-sized walk');
  test.setTimeout(180_000);
  await logInAsAdmin(page);
  const dadCap = dadCapOf(await fetchInventory(page));
  expect(dadCap).toMatchObject({ quantity: 0, availableStock: null, isSoldOut: false });
  expect(dadCap.inShop).toMatchObject({ isSoldOut: true, soldOutBy: 'shopify' });

  try {
    // The admin: Individual View, the Dad Cap's card says why the shop does not sell it.
    await page.getByTestId('view-individual').click();
    await searchProducts(page, 'Dad Cap');
    const card = variantCard(page, dadCap.id);
    await expect(card.getByTestId('variant-in-shop')).toHaveText(
      'Sold out in the shop: Shopify has none. Set a stock above 0 to sell anyway.',
    );
    await card.getByTestId('variant-stock-input').fill('5');
    await expect(card.getByTestId('variant-sold-out-switch')).toHaveAttribute('aria-checked', 'false');
    await card.getByTestId('variant-save').click();
    await expectToast(page, 'Success', 'Product updated successfully');
    await expect(card.getByTestId('variant-in-shop')).toHaveText('In the shop: 5 left (your stock).');
    await closeToasts(page);
    await page.screenshot({ path: testInfo.outputPath('admin-stock-phone.png') });

    // The shop sells it: 5 in stock, Add to Cart enabled.
    const product = (await (await page.request.get(`/api/products/${dadCap.productId}`)).json()) as Product;
    expect(product.variants[0]).toMatchObject({ id: dadCap.id, isSoldOut: false, availableStock: 5 });
    const wallet = await TestWallet.install(page);
    const releaseRedirect = await holdShippingRedirect(page);
    await page.goto(`/product/${dadCap.productId}`);
    const productPage = page.getByTestId('product-page');
    await expect(productPage.getByTestId('availability-note')).toHaveText('5 in stock');
    await page.getByTestId('wallet-button').click();
    await pickTestWallet(page, wallet);
    await closeToasts(page);
    await productPage.getByTestId('add-to-cart').click();
    await expectToast(page, 'Added to cart', 'Added 1 item(s) to your cart.');
    await closeToasts(page);

    // The cart, then paying: a checkout opens and the transfer makes a paid order.
    const drawer = page.getByTestId('cart-drawer');
    if (!(await drawer.isVisible())) await page.getByTestId('cart-button').click();
    await expect(drawer.getByTestId('cart-item')).toHaveCount(1);
    await expect(drawer.getByTestId('cart-total')).toHaveText(`${formatPogAmount(product.variants[0]!.price)} POG`);
    await page.screenshot({ path: testInfo.outputPath('admin-stock-cart-phone.png') });
    const opened = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/checkout' && r.request().method() === 'POST');
    const created = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/orders/create' && r.status() < 300);
    await drawer.getByTestId('pay-button').click();
    expect((await opened).status()).toBe(201);
    const checkout = (await (await opened).json()) as Checkout;
    expect(checkout.items).toEqual([expect.objectContaining({ variantId: dadCap.id, quantity: 1 })]);
    const order = (await (await created).json()) as Order;
    await expectToast(page, 'Order Created', 'Payment confirmed! Redirecting to shipping...');
    expect(order).toMatchObject({ status: 'paid', hold: null });
    await releaseRedirect();

    // The sale came off the admin's number; the shop shows 4 left.
    expect(dadCapOf(await fetchInventory(page))).toMatchObject({ availableStock: 4, isSoldOut: false, inShop: { availableStock: 4 } });
    const after = (await (await page.request.get(`/api/products/${dadCap.productId}`)).json()) as Product;
    expect(after.variants[0]).toMatchObject({ isSoldOut: false, availableStock: 4 });
  } finally {
    // Back to the demo's state for the specs that follow: Shopify's verdict (sold out).
    await patchInventoryItem(page, dadCap.id, { availableStock: null, isSoldOut: false });
  }
});

test('the headline counts Shopify products, and a product of colour variants is one group', async ({ page, request }, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'a phone-sized look');
  const shopify = (await (await request.get('/shopify-emulator/__emulator/products')).json()) as { products: unknown[] };
  await logInAsAdmin(page);
  const items = await fetchInventory(page);
  const products = new Set(items.map((i) => i.productId)).size;
  expect(products).toBe(shopify.products.length);
  await expect(page.getByTestId('group-count')).toHaveText(String(products));
  await expect(page.getByTestId('admin-counts')).toContainText(`${products} product groups`);

  // Pog Tube: Clear, Smoke and Neon Green in one card, named by the product.
  await searchProducts(page, 'Pog Tube');
  const tube = page.locator('[data-testid="group-card"][data-group-title="Pog Tube"]');
  await expect(tube).toHaveCount(1);
  await expect(tube.getByTestId('variant-count')).toHaveText('3 variants');
  await tube.getByTestId('group-expand').click();
  await expect(tube.getByTestId('group-variant')).toHaveCount(3);
  await expect(tube.getByTestId('group-variant')).toContainText(['Clear', 'Smoke', 'Neon Green']);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await page.screenshot({ path: testInfo.outputPath('admin-group-phone.png'), fullPage: true });
});
