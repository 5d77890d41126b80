import { expect, test } from './fixtures/test';
import type { PriceReferenceAnswer, Product } from '../common/api';
import { parseUnits } from '../common/money';
import { formatUsdReference } from '../common/usd-reference';
import { homeHydrated } from './fixtures/ui';

// The dollar reference beside prices, on a phone: local mode deploys a POGS/WETH pool with a
// 30-minute history and a price feed on its chain, so the shop reads a reference and shows it,
// secondary, beside each price; what is paid stays the POGS price.

test('the home’s cards and the cart show "≈ $…" beside the POGS price, worked out from the shop’s reference', async ({ page }) => {
  const answer = (await (await page.request.get('/api/price-reference')).json()) as PriceReferenceAnswer;
  expect(answer.reference, 'local mode reads a reference from its pool and feed').not.toBeNull();
  const usd = (pogs: string) => formatUsdReference(parseUnits(pogs), answer.reference!.usdPerPogs);
  const products = (await (await page.request.get('/api/products')).json()) as Product[];

  await page.goto('/');
  await homeHydrated(page);
  const card = page.getByTestId('product-card').first();
  const cardId = await card.getAttribute('data-product-id');
  const product = products.find((p) => p.id === cardId)!;
  await expect(card.getByTestId('usd-reference')).toHaveText(`${usd(product.price)} (a dollar reference; you pay in POGS)`);
  await expect(card.getByTestId('usd-reference')).toHaveAttribute('title', 'A dollar reference from the market. You pay in POGS.');
  await card.screenshot({ path: 'test-results/screens/phone/home-card-usd-reference.png' });

  const variant = product.variants.find((v) => !v.isSoldOut && v.availableStock >= 2) ?? product.variants[0]!;
  expect((await page.request.post('/api/cart/add', { data: { variantId: variant.id, quantity: 2 } })).ok()).toBe(true);
  await page.getByTestId('cart-button').click();
  const drawer = page.getByTestId('cart-drawer');
  const total = (parseUnits(variant.price) * 2n).toString();
  await expect(drawer.getByTestId('usd-reference')).toHaveText(
    `${formatUsdReference(total, answer.reference!.usdPerPogs)} (a dollar reference; you pay in POGS)`,
  );
  await page.screenshot({ path: 'test-results/screens/phone/cart-usd-reference.png' });
});
