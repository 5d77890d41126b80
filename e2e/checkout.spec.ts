import { expect, test, type Locator, type Page } from './fixtures/test';
import { Contract, JsonRpcProvider } from 'ethers';
import type { Checkout, Order, Product, Variant } from '../common/api';
import { formatPogAmount } from '../client/lib/format-pog-price';
import { formatUnits } from '../common/money';
import { insufficientBalanceMessage } from '../client/web3/payment-errors';
import { CHAIN_RPC, DEV_ACCOUNTS, TestWallet } from './fixtures/test-wallet';
import {
  closeToasts,
  completeShopifyShippingForm,
  expectToast,
  holdShippingRedirect,
  mostStocked,
  pickTestWallet,
  routeConfig,
} from './fixtures/ui';
import { mined } from '../server/chain/mined';

// Paying against the real server in local mode: the embedded anvil chain with its demo POGS, the
// server's chain watcher, and the Shopify emulator's draft orders and hosted invoice page. The
// EIP-6963 test wallet signs as an anvil dev account, the way MetaMask would.

let products: Product[];

test.beforeAll(async ({ request }) => {
  const res = await request.get('/api/products');
  expect(res.ok()).toBe(true);
  products = await res.json();
});

const pick = () => mostStocked(products);

async function connectTestWallet(page: Page, wallet: TestWallet) {
  await page.getByTestId('wallet-button').click();
  await pickTestWallet(page, wallet);
  await closeToasts(page);
}

/** Puts one of the product in this browser's cart (the session cookie is shared with the page). */
async function addToCartByApi(page: Page, variant: Variant) {
  const added = await page.request.post('/api/cart/add', { data: { variantId: variant.id, quantity: 1 } });
  expect(added.ok()).toBe(true);
}

/** The home with the test wallet (`options`) connected and one of the most stocked product in the cart, its drawer open. */
async function connectedWithCart(page: Page, options?: Parameters<typeof TestWallet.install>[1]) {
  const wallet = await TestWallet.install(page, options);
  await page.goto('/');
  await connectTestWallet(page, wallet);
  await addToCartByApi(page, pick().variant);
  return { wallet, drawer: await openDrawer(page) };
}

async function openDrawer(page: Page) {
  const drawer = page.getByTestId('cart-drawer');
  if (!(await drawer.isVisible())) await page.getByTestId('cart-button').click();
  await expect(drawer).toBeVisible();
  await expect(drawer.getByTestId('cart-item')).not.toHaveCount(0);
  return drawer;
}

/** The checkout the page is about to create (its exact amount is unique to it). */
function nextCheckout(page: Page): Promise<Checkout> {
  return page
    .waitForResponse((r) => new URL(r.url()).pathname === '/api/checkout' && r.request().method() === 'POST' && r.status() === 201)
    .then((r) => r.json());
}

async function orderStatus(page: Page, orderId: string): Promise<string> {
  const res = await page.request.get(`/api/orders/${orderId}`);
  return res.ok() ? ((await res.json()) as Order).status : `http ${res.status()}`;
}

test.describe('paying with the browser wallet', () => {
  // The redirect to shipping is held while the toast is read (holdShippingRedirect).
  test.use({ serviceWorkers: 'block' });

  test('product → cart → pay → Shopify shipping form → confirmed → shipped', async ({ page }) => {
    test.setTimeout(180_000);
    const wallet = await TestWallet.install(page);
    const { product, variant } = pick();

    const releaseRedirect = await holdShippingRedirect(page);
    await page.goto(`/product/${product.id}`);
    await connectTestWallet(page, wallet);
    await page.getByTestId('product-page').getByTestId('add-to-cart').click();
    await expectToast(page, 'Added to cart', 'Added 1 item(s) to your cart.');
    await closeToasts(page);
    const drawer = await openDrawer(page);
    await expect(drawer.getByTestId('cart-total')).toHaveText(`${formatPogAmount(variant.price)} POG`);

    const checkout = nextCheckout(page);
    const created = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/orders/create' && r.status() < 300);
    await drawer.getByTestId('pay-button').click();
    await expect(drawer.getByTestId('pay-button')).toBeDisabled();
    const { amountWei, storeWallet } = await checkout;
    expect(BigInt(amountWei) / 10n ** 16n).toBe(BigInt(Math.round(Number(variant.price) * 100)));

    const order = (await (await created).json()) as Order;
    await expectToast(page, 'Order Created', 'Payment confirmed! Redirecting to shipping...');
    // Until the redirect the drawer shows the success with what was paid for, not the emptied
    // cart ('Your cart is empty', '0.00 POG'), though the server's cart is empty by now.
    expect((await (await page.request.get('/api/cart')).json()).items).toHaveLength(0);
    await expect(drawer.getByTestId('pay-button')).toHaveText('Redirecting to shipping...');
    await expect(drawer.getByTestId('cart-paid')).toHaveText('Payment confirmed! Redirecting to shipping...');
    await expect(drawer.getByTestId('cart-item')).toHaveCount(1);
    await expect(drawer.getByTestId('cart-item-remove')).toHaveCount(0);
    await expect(drawer.getByTestId('cart-total')).toHaveText(`${formatPogAmount(variant.price)} POG`);
    await expect(drawer).not.toContainText('Your cart is empty');
    await releaseRedirect();
    expect(order.shippingUrl).toBe(`/orders/${order.id}/shipping`);
    expect(order.needsShipping).toBe(true);

    // The transfer went out exactly as the shop asks: the exact amount to the store wallet, gas 150000.
    const send = wallet.calls.find((c) => c.method === 'eth_sendTransaction')!;
    const tx = send.params[0] as { to: string; data: string; gas?: string; gasLimit?: string };
    expect(BigInt(tx.gas ?? tx.gasLimit ?? 0)).toBe(150_000n);
    expect(tx.data.toLowerCase()).toBe(
      '0xa9059cbb' + storeWallet.slice(2).toLowerCase().padStart(64, '0') + BigInt(amountWei).toString(16).padStart(64, '0'),
    );

    // After 1.5 s: a full navigation to our shipping link, which the server forwards to Shopify's
    // form (straight away, or once the "preparing" page sees the form exists).
    await page.waitForURL(/\/shopify-emulator\//, { timeout: 60_000 });
    // The cart was emptied with the order.
    expect((await (await page.request.get('/api/cart')).json()).items).toHaveLength(0);

    await completeShopifyShippingForm(page);

    // Shopify's webhook moves the order to 'confirmed'.
    await expect.poll(() => orderStatus(page, order.id), { timeout: 30_000 }).toBe('confirmed');
    await page.goto(`/order-confirmation?id=${order.id}`);
    const confirmation = page.getByTestId('order-confirmation');
    await expect(confirmation.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible();
    await expect(confirmation).toContainText('Your POGS payment has been confirmed and recorded on the blockchain.');
    await expect(confirmation.getByTestId('order-number')).toHaveText(order.id);
    await expect(confirmation.getByTestId('order-amount-paid')).toHaveText(`${formatPogAmount(variant.price)} POG`);
    await expect(confirmation.getByTestId('order-status')).toHaveAttribute('data-status', 'confirmed');
    await expect(confirmation.getByTestId('order-status')).toHaveText(/confirmed/i);
    await expect(confirmation.getByTestId('order-item')).toHaveCount(1);
    await expect(confirmation.getByTestId('order-item')).toContainText(`${formatPogAmount(variant.price)} POG × 1`);
    // Shipping details are in: nothing left to complete. The local chain has no public explorer:
    // the transaction's hash shows with a copy button instead.
    await expect(confirmation.getByTestId('complete-shipping')).toHaveCount(0);
    await expect(confirmation.getByTestId('explorer-link')).toHaveCount(0);
    const txHash = confirmation.getByTestId('transaction-hash');
    await expect(txHash).toBeVisible();
    await expect(txHash.locator('[title]')).toHaveAttribute('title', order.transactionHash);
    await expect(txHash.getByRole('button', { name: 'Copy transaction hash' })).toBeVisible();
    await expect(confirmation.getByRole('link', { name: 'View All Orders' })).toHaveAttribute('href', '/orders');

    // The receipt: what was bought and paid, where it went on chain; printable, and kept as a file.
    await confirmation.getByRole('link', { name: 'View Receipt' }).click();
    const receipt = page.getByTestId('receipt');
    await expect(receipt.getByRole('heading', { name: 'Receipt' })).toBeVisible();
    await expect(receipt.getByTestId('receipt-items')).toContainText(product.title);
    await expect(receipt.getByTestId('receipt-total')).toHaveText(`${formatPogAmount(variant.price)} POG`);
    const facts = receipt.getByTestId('receipt-facts');
    for (const fact of [order.id, order.transactionHash, storeWallet, 'Confirmed', `${order.blockchain.blockNumber} on Base (chain 8453)`])
      await expect(facts).toContainText(fact, { ignoreCase: true });
    await expect(receipt.getByRole('button', { name: 'Print' })).toBeVisible();
    const saved = page.waitForEvent('download');
    await receipt.getByRole('button', { name: 'Share or save' }).click();
    const file = await saved;
    expect(file.suggestedFilename()).toBe(`receipt-${order.id}.html`);
    const kept = (await (await file.createReadStream()).toArray()).join('');
    for (const fact of [order.id, order.transactionHash, storeWallet, `${formatPogAmount(variant.price)} POG`])
      expect(kept.toLowerCase()).toContain(fact.toLowerCase());
    expect(kept).not.toMatch(/<script/i);
    // Another browser, not signed in as the wallet that paid: the receipt's address shows nothing of it.
    const stranger = await page.context().browser()!.newContext();
    try {
      const other = await stranger.newPage();
      await other.goto(new URL(`/orders/${order.id}/receipt`, page.url()).href);
      await expect(other.getByTestId('order-not-found')).toBeVisible();
      await expect(other.getByTestId('receipt')).toHaveCount(0);
    } finally {
      await stranger.close();
    }
    await page.goBack();

    // The warehouse ships it (the emulator's control API), and the page follows.
    const drafts = (await (await page.request.get('/shopify-emulator/__emulator/draft-orders')).json()) as {
      draftOrders: Array<{ note: string | null; orderId: string | null }>;
    };
    const draft = drafts.draftOrders.find((d) => d.note?.includes(order.id));
    expect(draft?.orderId).toBeTruthy();
    const shopifyOrderId = draft!.orderId!.split('/').pop()!;
    const fulfilled = await page.request.post(`/shopify-emulator/__emulator/orders/${shopifyOrderId}/fulfill`, { data: {} });
    expect(fulfilled.ok()).toBe(true);
    await expect.poll(() => orderStatus(page, order.id), { timeout: 30_000 }).toBe('shipped');
    // Opening the page again reads the order again (coming back to the tab does not: only the cart is read on focus).
    await page.reload();
    await expect(confirmation.getByTestId('order-status')).toHaveAttribute('data-status', 'shipped', { timeout: 15_000 });
    await expect(confirmation.getByTestId('order-status')).toHaveText(/shipped/i);
  });

  test('a wallet without POG, in a shop that takes POGS only, is told how much more it needs, and nothing is sent', async ({ page }) => {
    // A shop that offers no other coin (where it does, pay-with-eth-or-usdc.spec.ts).
    await routeConfig(page, { payWith: [] });
    // Dev account #4 has ETH for gas but no demo POGS.
    const { wallet, drawer } = await connectedWithCart(page, { account: 4 });

    const checkout = nextCheckout(page);
    await drawer.getByTestId('pay-button').click();
    const { amountWei, displayTotal } = await checkout;
    // A zero balance needs exactly the cart's total (the sub-cent identifying suffix is not a cent more).
    const needed = `Insufficient POG balance. You need ${formatPogAmount(displayTotal)} more POG`;
    await expectToast(page, 'Payment Failed', needed, 'destructive');
    expect(insufficientBalanceMessage(BigInt(amountWei), 0n)).toBe(needed);
    await expect(page.getByTestId('toast')).toContainText(/Insufficient POG balance\. You need [\d,]+\.\d\d more POG/);
    await expect(drawer.getByTestId('pay-button')).toBeEnabled();
    await expect(drawer.getByTestId('pay-button')).toHaveText('Pay with POG');
    expect(wallet.methods()).not.toContain('eth_sendTransaction');
  });

  test('a wallet that locked quietly, or stopped answering, is told so at Pay, and nothing is made or sent', async ({ page }) => {
    const { wallet, drawer } = await connectedWithCart(page);
    const checkouts: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/checkout' && r.method() === 'POST') checkouts.push(r.url());
    });

    await wallet.lockQuietly();
    // The shop still shows the wallet as connected: it was not told.
    await expect(page.getByTestId('wallet-button')).toHaveAttribute('data-wallet-connected', '');
    await drawer.getByTestId('pay-button').click();
    await expectToast(page, 'Payment Failed', 'Please connect your wallet first', 'destructive');
    await expect(drawer.getByTestId('pay-button')).toHaveText('Pay with POG');
    await closeToasts(page);

    wallet.stopAnswering();
    await drawer.getByTestId('pay-button').click();
    await expectToast(page, 'Payment Failed', 'No Web3 provider found', 'destructive');
    await expect(drawer.getByTestId('pay-button')).toBeEnabled();
    expect(checkouts).toEqual([]);
    expect(wallet.methods()).not.toContain('eth_sendTransaction');
  });

  test('the drawer keeps the step when closed mid-payment; a rejected transfer returns to idle', async ({ page }) => {
    test.setTimeout(90_000);
    const { wallet, drawer } = await connectedWithCart(page);

    // Hold the checkout's answer a moment so the step can be looked at.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/checkout', async (route) => {
      await held;
      await route.continue();
    });
    wallet.rejectNextTransaction();
    await drawer.getByTestId('pay-button').click();
    await expect(drawer.getByTestId('pay-button')).toHaveText('Checking balance...');
    await expect(drawer.getByTestId('pay-button')).toBeDisabled();
    await expect(drawer.getByTestId('pay-elsewhere-button')).toBeDisabled();
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await page.getByTestId('cart-button').click();
    await expect(drawer.getByTestId('pay-button')).toHaveText('Checking balance...');
    await expect(drawer.getByTestId('pay-button')).toBeDisabled();
    release();

    await expectToast(page, 'Payment Failed', 'Transaction was rejected by user', 'destructive');
    await expect(drawer.getByTestId('pay-button')).toHaveText('Pay with POG');
    await expect(drawer.getByTestId('pay-button')).toBeEnabled();
    await expect(drawer.getByTestId('pay-transaction')).toHaveCount(0);
    expect(wallet.methods()).toContain('eth_sendTransaction');

    // Back to idle for real: the shopper tries again and pays.
    await closeToasts(page);
    const releaseRedirect = await holdShippingRedirect(page);
    await drawer.getByTestId('pay-button').click();
    await expectToast(page, 'Order Created', 'Payment confirmed! Redirecting to shipping...');
    await releaseRedirect();
  });
});

test.describe('paying on a 390 px phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the drawer's footer fits the drawer at every step: the total and the step text are never cut", async ({ page }) => {
    test.setTimeout(90_000);
    const wallet = await TestWallet.install(page);
    const { variant } = pick();
    await page.goto('/');
    await connectTestWallet(page, wallet);
    const added = await page.request.post('/api/cart/add', { data: { variantId: variant.id, quantity: 3 } });
    expect(added.ok()).toBe(true);
    const drawer = await openDrawer(page);
    const footer = drawer.getByTestId('cart-drawer-footer');
    await expectFits(drawer, footer);

    const release = wallet.holdNextTransaction();
    wallet.rejectNextTransaction();
    await drawer.getByTestId('pay-button').click();
    await expect(drawer.getByTestId('pay-button')).toHaveText('Confirm in your wallet...');
    await expectFits(drawer, footer);
    await expect(drawer.getByTestId('cart-total')).toHaveText(/^[\d,]+\.\d\d POG$/);
    release();
    await expectToast(page, 'Payment Failed', 'Transaction was rejected by user', 'destructive');
    await expect(drawer.getByTestId('pay-button')).toHaveText('Pay with POG');
    // The failure's toast keeps off the total and the pay button (toasts sit at the top on phones).
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
  });
});

/**
 * No element of the footer reaches past the drawer's edges or hides part of its own content. The
 * drawer and the footer are measured in one go, once the drawer's slide-in has finished (measured
 * apart, the drawer could move between the two readings).
 */
async function expectFits(drawer: Locator, footer: Locator) {
  await drawer.evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)));
  const overflowing = await footer.evaluate(
    (root, drawerEl) => {
      const drawerBox = (drawerEl as HTMLElement).getBoundingClientRect();
      const bad: string[] = [];
      for (const el of [root, ...root.querySelectorAll<HTMLElement>('*')]) {
        const box = el.getBoundingClientRect();
        // Text for screen readers only (a 1 px box, clipped on purpose) is not the footer's to fit.
        if (box.width === 0 || el.classList.contains('sr-only')) continue;
        const name = `${el.tagName.toLowerCase()}[${el.getAttribute('data-testid') ?? el.className.toString().slice(0, 40)}]`;
        if (box.left < drawerBox.left - 0.5 || box.right > drawerBox.right + 0.5) bad.push(`${name} ${box.left}..${box.right}`);
        if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible')
          bad.push(`${name} scrolls ${el.scrollWidth}>${el.clientWidth}`);
        if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0 && el.children.length === 0)
          bad.push(`${name} text ${el.scrollWidth}>${el.clientWidth}`);
      }
      return bad;
    },
    await drawer.elementHandle(),
  );
  expect(overflowing).toEqual([]);
}

test.describe('paying from another wallet', () => {
  test('shows the exact amount and a wallet link, and turns to "Payment received" when the transfer lands', async ({ page }) => {
    test.setTimeout(120_000);
    const { variant } = pick();
    await page.goto('/');
    await addToCartByApi(page, variant);
    const drawer = await openDrawer(page);
    // Offered with no wallet connected.
    await expect(page.getByTestId('wallet-button')).toHaveAttribute('data-status', 'disconnected');

    const checkoutPromise = nextCheckout(page);
    await drawer.getByTestId('pay-elsewhere-button').click();
    const checkout = await checkoutPromise;
    expect(checkout.customerWallet).toBeNull();
    const dialog = page.getByTestId('pay-elsewhere');
    await expect(dialog.getByRole('heading', { name: 'Pay from another wallet' })).toBeVisible();
    await expect(dialog.getByTestId('pay-elsewhere-amount')).toHaveText(`${checkout.amount} POG`);
    await expect(dialog.getByTestId('pay-elsewhere-total')).toHaveText(`${formatPogAmount(variant.price)} $POGS`);
    await expect(dialog.getByTestId('pay-elsewhere-store-wallet')).toHaveText(
      `${checkout.storeWallet.slice(0, 6)}...${checkout.storeWallet.slice(-4)}`,
    );
    await expect(dialog.getByTestId('pay-elsewhere-countdown')).toHaveText(/^\d+:\d\d$/);
    await expect(dialog.getByTestId('payment-status')).toHaveText('Waiting for payment…');
    // A phone: a link into the wallet app (EIP-681), no QR code.
    await expect(dialog.getByTestId('pay-elsewhere-open-wallet')).toHaveAttribute('href', checkout.paymentUri);
    expect(checkout.paymentUri).toBe(
      `ethereum:${checkout.tokenAddress}@8453/transfer?address=${checkout.storeWallet}&uint256=${checkout.amountWei}`,
    );
    await expect(dialog.getByTestId('pay-elsewhere-qr')).toBeHidden();

    // Another wallet (dev account #3) sends exactly the amount, straight on the chain.
    const provider = new JsonRpcProvider(CHAIN_RPC, 8453, { staticNetwork: true });
    try {
      const signer = await provider.getSigner(DEV_ACCOUNTS[3]);
      const token = new Contract(checkout.tokenAddress, ['function transfer(address to, uint256 amount) returns (bool)'], signer);
      const tx = await token.getFunction('transfer').send(checkout.storeWallet, BigInt(checkout.amountWei));
      await mined(tx);
    } finally {
      provider.destroy();
    }

    await expect(dialog.getByTestId('payment-status')).toContainText('Payment received', { timeout: 60_000 });
    await page.waitForURL(/\/order-confirmation\?id=/, { timeout: 30_000 });
    await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible();
    await expect(page.getByTestId('order-status')).toHaveAttribute('data-status', 'paid');
    await expect(page.getByTestId('complete-shipping')).toHaveAttribute('href', /^\/orders\/[^/]+\/shipping$/);
    await expect(page.getByTestId('cart-count')).toHaveText('0');
  });

  test('a payment in two parts: the dialog shows what arrived and the exact rest, then the order', async ({ page }) => {
    test.setTimeout(120_000);
    const payer = DEV_ACCOUNTS[3];
    const provider = new JsonRpcProvider(CHAIN_RPC, 8453, { staticNetwork: true });
    try {
      const { variant } = pick();
      await page.goto('/');
      await addToCartByApi(page, variant);
      // This browser proves the paying wallet (Sign-In with Ethereum): only then does an amount
      // that is not the exact one count for its checkout.
      const nonce = await page.request.get(`/api/auth/nonce?address=${payer}`);
      const { message } = await nonce.json();
      const signature = await (await provider.getSigner(payer)).signMessage(message);
      expect((await page.request.post('/api/auth/verify', { data: { message, signature } })).ok()).toBe(true);

      const drawer = await openDrawer(page);
      const checkoutPromise = nextCheckout(page);
      await drawer.getByTestId('pay-elsewhere-button').click();
      const checkout = await checkoutPromise;
      const dialog = page.getByTestId('pay-elsewhere');
      const token = new Contract(
        checkout.tokenAddress,
        ['function transfer(address to, uint256 amount) returns (bool)'],
        await provider.getSigner(payer),
      );
      const transfer = async (amount: bigint) => mined(token.getFunction('transfer').send(checkout.storeWallet, amount));

      // A rounded-down amount: less than the total.
      const part = (BigInt(checkout.amountWei) / 10n ** 18n) * 10n ** 18n - 10n ** 18n;
      await transfer(part);
      const status = dialog.getByTestId('payment-status');
      await expect(status).toContainText('Part of your payment arrived', { timeout: 60_000 });
      const partly: Checkout = await (await page.request.get(`/api/checkout/${checkout.id}`)).json();
      expect(partly.status).toBe('underpaid');
      expect(partly.amountReceived).toBe(formatUnits(part, 18, 2));
      await expect(dialog.getByTestId('payment-due')).toHaveText(`${formatPogAmount(partly.amountDue)} $POGS`);
      await expect(dialog.getByTestId('payment-received')).toHaveText(`${formatPogAmount(partly.amountReceived)} $POGS`);
      await expect(dialog.getByTestId('pay-elsewhere-amount')).toHaveText(`${partly.amount} POG`);
      await expect(dialog.getByTestId('pay-elsewhere-open-wallet')).toHaveAttribute('href', partly.paymentUri);
      await page.screenshot({ path: test.info().outputPath('underpaid-dialog.png') });

      await transfer(BigInt(partly.amountWei));
      await expect(status).toContainText('Payment received', { timeout: 60_000 });
      await page.waitForURL(/\/order-confirmation\?id=/, { timeout: 30_000 });
      await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible();
      await expect(page.getByTestId('order-hold')).toHaveCount(0);
    } finally {
      provider.destroy();
    }
  });

  test('on a wider screen the dialog shows the QR code of the payment request', async ({ browser, baseURL }) => {
    const tablet = await browser.newContext({ viewport: { width: 820, height: 1180 }, hasTouch: true, baseURL });
    try {
      const page = await tablet.newPage();
      const { variant } = pick();
      await page.goto('/');
      await addToCartByApi(page, variant);
      const drawer = await openDrawer(page);
      await drawer.getByTestId('pay-elsewhere-button').click();
      const dialog = page.getByTestId('pay-elsewhere');
      await expect(dialog.getByTestId('pay-elsewhere-qr')).toBeVisible();
      await expect(dialog.getByTestId('pay-elsewhere-open-wallet')).toBeHidden();
      await expect(dialog.getByRole('button', { name: 'Copy payment link' })).toBeVisible();
    } finally {
      await tablet.close();
    }
  });
});

test.describe('order pages', () => {
  test('an order that is not yours, or not there, is "Order Not Found"', async ({ page }) => {
    for (const url of [
      '/order-confirmation?id=00000000-0000-4000-8000-000000000000',
      '/order-confirmation',
      '/orders/00000000-0000-4000-8000-000000000000/shipping',
      '/orders/00000000-0000-4000-8000-000000000000/receipt',
    ]) {
      await page.goto(url);
      const card = page.getByTestId('order-not-found');
      await expect(card.getByRole('heading', { name: 'Order Not Found' })).toBeVisible();
      await expect(card).toContainText("We couldn't find your order. Please check your order history.");
      await expect(card.getByRole('link', { name: 'View Orders' })).toHaveAttribute('href', '/orders');
    }
  });
});

test.describe('the confirmation page when the server fails', () => {
  // Requests a service worker handles cannot be routed.
  test.use({ serviceWorkers: 'block' });

  test('a failed read is shown at once (no retries), is not read again on focus, and Try Again reads it once', async ({ page }) => {
    const id = '00000000-0000-4000-8000-000000000001';
    const reads: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === `/api/orders/${id}`) reads.push(request.url());
    });
    await page.route(`**/api/orders/${id}`, (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: '{"code":"service-unavailable","message":"Try again shortly."}',
      }),
    );
    await page.goto(`/order-confirmation?id=${id}`);
    const failed = page.getByTestId('order-error');
    await expect(failed).toBeVisible();
    expect(reads, 'the failed read was repeated by itself').toHaveLength(1);

    // Coming back to the tab reads nothing; Try Again reads it once.
    await page.evaluate(() => window.dispatchEvent(new Event('visibilitychange')));
    const retried = page.waitForResponse((r) => new URL(r.url()).pathname === `/api/orders/${id}`);
    await failed.getByRole('button', { name: 'Try Again' }).click();
    await retried;
    await expect(failed.getByRole('button', { name: 'Try Again' })).toBeEnabled();
    expect(reads).toHaveLength(2);
  });
});
