import { expect, test, type Page } from './fixtures/test';
import { Contract, JsonRpcProvider, parseUnits, type Signer } from 'ethers';
import type { Checkout, Product, PublicConfig, Variant } from '../common/api';
import { formatUnits } from '../common/money';
import type { AttentionItem } from '../common/payments-desk';
import { formatPogAmount } from '../client/lib/format-pog-price';
import { fetchAttention, logInAsAdmin } from './fixtures/admin';
import { CHAIN_RPC, DEV_ACCOUNTS, TestWallet } from './fixtures/test-wallet';
import { closeToasts, pickTestWallet } from './fixtures/ui';
import { mined } from '../server/chain/mined';

// The admin's payments desk on the shop's fresh e2e server, in local mode: the shopper (dev account
// #6, which no other spec uses, in a browser of its own) signs in on /orders so that amounts which
// are not the exact one count for its checkout, and pays part of it (underpaid); the admin on a
// tablet sees the underpaid transfer in 'Needs attention' with the count in the admin header and
// refunds it with the injected test wallet acting as the store wallet (dev account #0); the queue
// clears and the shopper's /orders shows 'Refunded {amount} POG'. Then the shopper pays more than
// the whole amount (the order is made, overpaid), the admin refunds the excess only, and the
// shopper's order shows that refund.
// Requests a service worker handles cannot be watched, and the desk needs none.
test.use({ serviceWorkers: 'block' });

const SHOPPER = 6;
const STORE_WALLET = 0;
const ERC20 = ['function transfer(address to, uint256 amount) returns (bool)'];

const attentionItem = (page: Page, txHash: string) => page.locator(`[data-testid="attention-item"][data-tx-hash="${txHash}" i]`);

/** The single-variant product with the most stock (other specs buy it too; it must not run out). */
function pick(products: Product[]): Variant {
  const candidates = products
    .filter((p) => p.variants.length === 1 && !p.variants[0].isSoldOut && p.variants[0].availableStock > 0)
    .sort((a, b) => b.variants[0].availableStock - a.variants[0].availableStock);
  if (!candidates[0]) throw new Error('no single-variant product with stock');
  return candidates[0].variants[0];
}

/** The header's count reads as the server's unresolved count (no badge at 0). */
async function expectCount(page: Page, unresolved: number) {
  const badge = page.getByTestId('admin-nav').getByTestId('attention-count');
  if (unresolved === 0) await expect(badge).toHaveCount(0);
  else await expect(badge).toHaveText(new RegExp(`^${unresolved}\\b`));
}

function findItem(items: AttentionItem[], txHash: string): AttentionItem | undefined {
  return items.find((i) => i.txHash.toLowerCase() === txHash.toLowerCase());
}

test('tablet: an underpaid transfer needs attention; the store wallet refunds it and an overpayment; the shopper sees both refunds', async ({
  page,
  browser,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'tablet', 'the tablet project drives the desk');
  test.setTimeout(240_000);
  const provider = new JsonRpcProvider(CHAIN_RPC, 8453, { staticNetwork: true });
  const shopperContext = await browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    serviceWorkers: 'block',
  });
  try {
    const config = (await (await page.request.get('/api/config')).json()) as PublicConfig;
    const products = (await (await page.request.get('/api/products')).json()) as Product[];
    const tokenAs = (signer: Signer) => new Contract(config.tokenAddress!, ERC20, signer);
    // #6 has ETH for gas but no POGS: the Demo Wallet's account (#1) sends it some.
    await mined(
      tokenAs(await provider.getSigner(DEV_ACCOUNTS[1]))
        .getFunction('transfer')
        .send(DEV_ACCOUNTS[SHOPPER], parseUnits('10000', 18)),
    );

    // The shopper proves the wallet on /orders (Sign-In with Ethereum): only then does an amount
    // that is not the exact one count for its checkout.
    const shopper = await shopperContext.newPage();
    const shopperWallet = await TestWallet.install(shopper, { account: SHOPPER });
    await shopper.goto('/orders');
    await shopper.getByTestId('orders-connect-button').click();
    await pickTestWallet(shopper, shopperWallet);
    await closeToasts(shopper);
    await shopper.getByTestId('orders-sign-in').getByTestId('orders-sign-in-button').click();
    await expect(shopper.getByTestId('orders-empty')).toBeVisible();

    // A checkout for one item, then less than its amount, straight on the chain.
    const variant = pick(products);
    expect((await shopper.request.post('/api/cart/add', { data: { variantId: variant.id, quantity: 1 } })).ok()).toBe(true);
    const created = await shopper.request.post('/api/checkout', { data: { customerWallet: shopperWallet.address } });
    expect(created.ok(), await created.text()).toBe(true);
    const checkout = (await created.json()) as Checkout;
    const readCheckout = async () => (await (await shopper.request.get(`/api/checkout/${checkout.id}`)).json()) as Checkout;
    const shopperToken = tokenAs(await provider.getSigner(DEV_ACCOUNTS[SHOPPER]));
    const send = async (amountWei: bigint): Promise<string> => {
      const tx = await shopperToken.getFunction('transfer').send(checkout.storeWallet, amountWei);
      await mined(tx);
      return tx.hash;
    };
    const part = (BigInt(checkout.amountWei) / 10n ** 18n) * 10n ** 18n - 10n ** 18n;
    const partHash = await send(part);
    await expect.poll(async () => (await readCheckout()).status, { timeout: 60_000 }).toBe('underpaid');

    // The admin, on the tablet, with the store wallet in the browser.
    const storeWallet = await TestWallet.install(page, { account: STORE_WALLET });
    await logInAsAdmin(page);
    await page.getByTestId('admin-tab-payments').click();
    await expect(page.getByRole('heading', { name: 'Needs attention' })).toBeVisible();
    const underpaid = attentionItem(page, partHash);
    await expect(underpaid).toBeVisible();
    const queued = await fetchAttention(page);
    const underpaidItem = findItem(queued.items, partHash)!;
    expect(underpaidItem.kind).toBe('underpaid');
    await expect(underpaid.getByTestId('attention-kind')).toHaveText('Underpaid');
    await expect(underpaid.getByTestId('attention-amount')).toHaveText(`${formatPogAmount(formatUnits(part))} POG`);
    await expect(underpaid.getByTestId('attention-due')).toContainText(`${formatPogAmount(underpaidItem.due)} POG`);
    await expect(underpaid.getByTestId('attention-sender')).toHaveAttribute('data-value', DEV_ACCOUNTS[SHOPPER].toLowerCase());
    // Local chain: no explorer, the hash with a copy button.
    await expect(underpaid.getByTestId('tx-hash')).toHaveAttribute('data-value', new RegExp(`^${partHash}$`, 'i'));
    await expectCount(page, queued.unresolved);
    // The kind chips narrow the queue.
    await page.getByTestId('attention-filter-overpaid').click();
    await expect(underpaid).toHaveCount(0);
    await page.getByTestId('attention-filter-underpaid').click();
    await expect(underpaid).toBeVisible();
    await page.getByTestId('attention-filter-all').click();
    await page.screenshot({ path: testInfo.outputPath('needs-attention-underpaid-tablet.png'), fullPage: true });

    // The admin refunds the underpaid transfer in full, from the store wallet, connected with the
    // shop's own wallet code; a double tap sends one transfer.
    const dialog = page.getByTestId('refund-dialog');
    const connectStoreWallet = async () => {
      const connect = dialog.getByTestId('refund-connect');
      const connected = dialog.locator('[data-testid="refund-wallet"][data-store]');
      await expect(connect.or(connected)).toBeVisible();
      if (await connect.isVisible()) {
        await connect.click();
        await pickTestWallet(page, storeWallet);
      }
      await expect(connected).toBeVisible();
    };
    await underpaid.getByTestId('attention-refund-button').click();
    await dialog.getByTestId('refund-preset-full').click();
    await expect(dialog.getByTestId('refund-to')).toHaveText(underpaidItem.refundTo!);
    await connectStoreWallet();
    const firstMark = storeWallet.mark();
    await dialog.getByTestId('refund-send').dblclick();
    await expect(dialog.getByTestId('refund-result')).toContainText(
      `Refund verified: ${underpaidItem.refundable} POG to ${underpaidItem.refundTo}`,
      { timeout: 90_000 },
    );
    expect(storeWallet.methods(firstMark).filter((m) => m === 'eth_sendTransaction')).toHaveLength(1);
    await dialog.getByTestId('refund-done').click();
    // The queue clears: nothing is left to refund, so the item is resolved, and the count follows.
    await expect(underpaid).toHaveCount(0);
    const afterFirst = await fetchAttention(page);
    expect(findItem(afterFirst.items, partHash)).toBeUndefined();
    expect(afterFirst.unresolved).toBe(queued.unresolved - 1);
    await expectCount(page, afterFirst.unresolved);
    // The shopper's /orders shows the refund of a payment that made no order.
    await shopper.reload();
    await expect(shopper.getByTestId('wallet-refunds').getByTestId('order-refund')).toContainText(
      `Refunded ${formatPogAmount(underpaidItem.refundable)} POG`,
    );
    await expect(shopper.getByTestId('orders-empty')).toHaveCount(0);

    // The shopper pays the whole amount and 5 POG more (the refunded part no longer counts): the
    // order is made, with an excess to give back.
    const overHash = await send(BigInt(checkout.amountWei) + 5n * 10n ** 18n);
    await expect.poll(async () => (await readCheckout()).orderId, { timeout: 60_000 }).not.toBeNull();
    const orderId = (await readCheckout()).orderId!;
    await page.reload();
    const overpaid = attentionItem(page, overHash);
    await expect(overpaid).toBeVisible();
    await expect(overpaid.getByTestId('attention-kind')).toHaveText('Overpaid');
    await expect(underpaid).toHaveCount(0);
    const beforeRefund = await fetchAttention(page);
    const overpaidItem = findItem(beforeRefund.items, overHash)!;
    expect(overpaidItem.orderId).toBe(orderId);
    const excess = overpaidItem.excess!;
    expect(excess).not.toBeNull();
    await expect(overpaid.getByTestId('attention-excess')).toContainText(`${formatPogAmount(excess)} POG`);
    await expectCount(page, beforeRefund.unresolved);

    // Refund the excess only, from the store wallet, connected with the shop's own wallet code.
    await overpaid.getByTestId('attention-refund-button').click();
    await dialog.getByTestId('refund-preset-excess').click();
    await expect(dialog.getByTestId('refund-amount-check')).toHaveText(`${excess} POG exactly`);
    await expect(dialog.getByTestId('refund-to')).toHaveText(overpaidItem.refundTo!);
    await connectStoreWallet();
    await page.screenshot({ path: testInfo.outputPath('refund-dialog-tablet.png') });
    const mark = storeWallet.mark();
    // A double tap sends one transfer.
    await dialog.getByTestId('refund-send').dblclick();
    await expect(dialog.getByTestId('refund-result')).toContainText(`Refund verified: ${excess} POG to ${overpaidItem.refundTo}`, {
      timeout: 90_000,
    });
    expect(storeWallet.methods(mark).filter((m) => m === 'eth_sendTransaction')).toHaveLength(1);
    const sent = storeWallet.calls.slice(mark).find((c) => c.method === 'eth_sendTransaction')!;
    const tx = sent.params[0] as { to: string; data: string };
    expect(tx.to.toLowerCase()).toBe(config.tokenAddress!.toLowerCase());
    expect(tx.data.toLowerCase()).toBe(
      '0xa9059cbb' +
        overpaidItem.refundTo!.slice(2).toLowerCase().padStart(64, '0') +
        parseUnits(excess, 18).toString(16).padStart(64, '0'),
    );
    await dialog.getByTestId('refund-done').click();

    // The queue clears: refunding all of the excess resolved the item, and the count follows.
    await expect(overpaid).toHaveCount(0);
    const afterRefund = await fetchAttention(page);
    expect(findItem(afterRefund.items, overHash)).toBeUndefined();
    expect(afterRefund.unresolved).toBe(beforeRefund.unresolved - 1);
    await expectCount(page, afterRefund.unresolved);
    await page.getByTestId('attention-history').click();
    await expect(page.getByRole('heading', { name: 'Resolved' })).toBeVisible();
    const resolved = attentionItem(page, overHash);
    await expect(resolved.getByTestId('attention-resolved')).toBeVisible();
    await expect(resolved.getByTestId('attention-refund')).toContainText(`Refunded ${formatPogAmount(excess)} POG`);

    // The order, in the admin's orders view, shows what went back.
    await page.getByTestId('admin-tab-orders').click();
    await expect(page.locator('[data-testid="admin-order"]').first()).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('admin-orders-tablet.png'), fullPage: true });
    await page.getByTestId('orders-search').fill(orderId);
    await page.getByTestId('orders-search').press('Enter');
    const row = page.locator(`[data-testid="admin-order"][data-order-id="${orderId}"]`);
    await expect(row.getByTestId('admin-order-refunded')).toHaveText(`${formatPogAmount(excess)} POG`);
    await row.click();
    await expect(page.getByTestId('order-detail').getByTestId('order-refunds')).toContainText(`Refunded ${formatPogAmount(excess)} POG`);
    // The underpaid part went back before the order was made: listed, not counted.
    await expect(page.getByTestId('order-detail').getByTestId('order-transfer-use')).toHaveText('Refunded, not counted');
    await page.screenshot({ path: testInfo.outputPath('admin-order-detail-tablet.png'), animations: 'disabled' });

    // The shopper's /orders shows the refund on the order.
    await shopper.goto('/orders');
    const card = shopper.locator(`[data-testid="order-card"][data-order-id="${orderId}"]`);
    await expect(card.getByTestId('order-refund')).toContainText(`Refunded ${formatPogAmount(excess)} POG`);
    await shopper.screenshot({ path: testInfo.outputPath('shopper-orders-refund-phone.png'), fullPage: true });

    // The rest goes back from the admin's orders view (the paying transfer's own Refund): the
    // order becomes refunded, for the admin and for the shopper.
    const detail = page.getByTestId('order-detail');
    await detail.getByTestId('order-transfer-refund').click();
    await dialog.getByTestId('refund-preset-full').click();
    await connectStoreWallet();
    await dialog.getByTestId('refund-send').click();
    await expect(dialog.getByTestId('refund-result')).toContainText('Refund verified: ', { timeout: 90_000 });
    await dialog.getByTestId('refund-done').click();
    await expect(detail.getByTestId('order-status').first()).toHaveText(/refunded/i);
    await shopper.reload();
    await expect(card.getByTestId('order-status')).toHaveText(/refunded/i);
    await expect(card.getByTestId('order-refund')).toHaveCount(2);
  } finally {
    provider.destroy();
    await shopperContext.close();
  }
});

test('tablet: an unmatched transfer is attached to the checkout it belongs to, which makes its order', async ({ page }, testInfo) => {
  test.skip(testInfo.project.name !== 'tablet', 'the tablet project drives the desk');
  test.setTimeout(180_000);
  const provider = new JsonRpcProvider(CHAIN_RPC, 8453, { staticNetwork: true });
  try {
    const config = (await (await page.request.get('/api/config')).json()) as PublicConfig;
    const products = (await (await page.request.get('/api/products')).json()) as Product[];
    const tokenAs = (signer: Signer) => new Contract(config.tokenAddress!, ERC20, signer);
    // Dev account #7, which no other spec uses and which never signs in: nothing proves it is the
    // payer of a checkout, so only the exact amount could have named one.
    const payer = DEV_ACCOUNTS[7];
    await mined(
      tokenAs(await provider.getSigner(DEV_ACCOUNTS[1]))
        .getFunction('transfer')
        .send(payer, parseUnits('1000', 18)),
    );

    // A checkout in this browser's session, then half a POG more than its exact amount.
    const variant = pick(products);
    expect((await page.request.post('/api/cart/add', { data: { variantId: variant.id, quantity: 1 } })).ok()).toBe(true);
    const created = await page.request.post('/api/checkout', { data: { customerWallet: payer } });
    expect(created.ok(), await created.text()).toBe(true);
    const checkout = (await created.json()) as Checkout;
    const tx = await tokenAs(await provider.getSigner(payer))
      .getFunction('transfer')
      .send(checkout.storeWallet, BigInt(checkout.amountWei) + 5n * 10n ** 17n);
    await mined(tx);

    await logInAsAdmin(page);
    await expect.poll(async () => findItem((await fetchAttention(page)).items, tx.hash)?.kind, { timeout: 60_000 }).toBe('unmatched');
    await page.getByTestId('admin-tab-payments').click();
    const item = attentionItem(page, tx.hash);
    await expect(item.getByTestId('attention-kind')).toHaveText('Unmatched');
    await item.getByTestId('attention-attach-button').click();
    const sheet = page.getByTestId('attach-sheet');
    const candidate = sheet.locator(`[data-testid="attach-candidate"][data-checkout-id="${checkout.id}"]`);
    await expect(candidate).toContainText('Close amount');
    // Its evidence, spelled out: how the amount fits (the shopper sent half a POG over its amount).
    await expect(candidate.getByTestId('candidate-evidence')).toContainText(/POG more than it still needs/);
    // Searched by the start of its id, as a shopper reads it out: the list is that checkout.
    await sheet.getByRole('searchbox').fill(checkout.id.slice(0, 8));
    await sheet.getByRole('searchbox').press('Enter');
    await expect(sheet.getByTestId('attach-count')).toHaveText('1 matching checkout');
    await expect(sheet.getByTestId('attach-candidate')).toHaveCount(1);
    await candidate.click();
    await page.screenshot({ path: testInfo.outputPath('attach-sheet-tablet.png'), animations: 'disabled' });
    const tablet = page.viewportSize()!;
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(candidate.getByTestId('candidate-evidence')).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('attach-sheet-phone.png'), animations: 'disabled' });
    await page.setViewportSize(tablet);
    await sheet.getByTestId('attach-confirm').click();
    await expect(sheet.getByTestId('attach-result')).toContainText('Order made');
    const orderId = (await (await page.request.get(`/api/checkout/${checkout.id}`)).json()).orderId as string;
    expect(orderId).toMatch(/^PG/);
    await expect(sheet.getByTestId('attach-result')).toContainText(orderId);
    // It paid more than the checkout's amount: the transfer stays on the desk, now as overpaid.
    await page.keyboard.press('Escape');
    await expect(item.getByTestId('attention-kind')).toHaveText('Overpaid');
  } finally {
    provider.destroy();
  }
});

test('phone: the payments desk and the orders view fit a 390 px screen', async ({ page }, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'the tablet project drives the desk; the phone looks at it');
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  await logInAsAdmin(page);
  await page.getByTestId('admin-tab-payments').click();
  await expect(page.getByTestId('attention')).toBeVisible();
  await expect(page.getByTestId('attention-loading')).toHaveCount(0);
  expect(await overflow()).toBeLessThanOrEqual(0);
  await page.getByTestId('attention-history').click();
  await expect(page.getByRole('heading', { name: 'Resolved' })).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(0);
  await page.screenshot({ path: testInfo.outputPath('payments-desk-phone.png'), fullPage: true });
  await page.getByTestId('export-button').click();
  await expect(page.getByTestId('export-download')).toHaveAttribute('href', /^\/api\/admin\/payments\/export\.csv\?from=\d{4}-\d\d-01&to=/);
  await page.keyboard.press('Escape');
  await page.getByTestId('admin-tab-orders').click();
  await expect(page.getByRole('heading', { name: 'Orders', level: 1 })).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(0);
  await page.screenshot({ path: testInfo.outputPath('admin-orders-phone.png'), fullPage: true });
});
