import { expect, test } from './fixtures/test';
import type { Product } from '../common/api';

// The shopper's page is older than the catalogue: Shopify sold the item out after the page
// loaded. The client still offers it; the server refuses, and the shopper is told why.
test("an item that sold out after the page loaded is refused with the server's message", async ({ page, request }) => {
  const products: Product[] = await (await request.get('/api/products')).json();
  const product = products.find((p) => p.variants.length === 1 && !p.variants[0].isSoldOut && p.variants[0].availableStock > 0)!;

  await page.goto('/');
  const card = page.getByTestId('product-card').filter({ has: page.locator(`#product-${product.id}-title`) });
  await card.scrollIntoViewIfNeeded();
  await expect(card.getByTestId('add-to-cart')).toBeEnabled();

  // Shopify (the emulator) sells it out; the shop's periodic sync picks that up.
  const shop = await (await request.get('/shopify-emulator/__emulator/products')).json();
  const source = shop.products.find((p: { legacyId: string }) => p.legacyId === product.id);
  type SourceVariant = {
    legacyId: string;
    title: string;
    price: string;
    selectedOptions: unknown;
    inventoryQuantity: number;
    availableForSale: boolean;
  };
  const setStock = async (soldOut: boolean) => {
    const res = await request.post('/shopify-emulator/__emulator/products', {
      data: {
        legacyId: source.legacyId,
        variants: source.variants.map((v: SourceVariant) => ({
          legacyId: v.legacyId,
          title: v.title,
          price: v.price,
          selectedOptions: v.selectedOptions,
          inventoryQuantity: soldOut ? 0 : v.inventoryQuantity,
          availableForSale: soldOut ? false : v.availableForSale,
        })),
      },
    });
    expect(res.ok()).toBe(true);
    await expect
      .poll(async () => ((await (await request.get(`/api/products/${product.id}`)).json()) as Product).variants[0].isSoldOut, {
        timeout: 20_000,
      })
      .toBe(soldOut);
  };

  await setStock(true);
  try {
    await card.getByTestId('add-to-cart').click();
    const toast = page.getByTestId('toast');
    await expect(toast).toContainText('Error');
    await expect(toast).toContainText('This item is sold out');
    await expect(toast).toHaveAttribute('data-variant', 'destructive');
    await expect(page.getByTestId('cart-count')).toHaveText('0');
  } finally {
    // Shopify restocks it, so the other specs see the catalogue as it was.
    await setStock(false);
  }
});
