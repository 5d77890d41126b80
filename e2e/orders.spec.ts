import { expect, test, type Page } from './fixtures/test';
import { Contract, JsonRpcProvider, parseUnits } from 'ethers';
import type { AuthSession, Order, Product, PublicConfig, Variant } from '../common/api';
import { formatPogPrice } from '../client/lib/format-pog-price';
import { CHAIN_RPC, DEV_ACCOUNTS, TestWallet } from './fixtures/test-wallet';
import { closeToasts, expectToast, mostStocked, pickTestWallet } from './fixtures/ui';
import { mined } from '../server/chain/mined';

// The orders page against the real server in local mode: Sign-In with Ethereum with the EIP-6963
// test wallet (personal_sign through anvil as the dev account), a real purchase, and the wallet
// leaving. The buyer is dev account #5, which no other spec buys with, so its history starts empty.

const BUYER = 5;

let products: Product[];

test.beforeAll(async ({ request }) => {
  const res = await request.get('/api/products');
  expect(res.ok()).toBe(true);
  products = await res.json();
  // #5 has ETH for gas but no POGS: the Demo Wallet's account (#1) sends it some.
  const config = (await (await request.get('/api/config')).json()) as PublicConfig;
  const provider = new JsonRpcProvider(CHAIN_RPC, 8453, { staticNetwork: true });
  try {
    const token = new Contract(
      config.tokenAddress!,
      ['function transfer(address to, uint256 amount) returns (bool)'],
      await provider.getSigner(DEV_ACCOUNTS[1]),
    );
    await mined(token.getFunction('transfer').send(DEV_ACCOUNTS[BUYER], parseUnits('10000', 18)));
  } finally {
    provider.destroy();
  }
});

const pick = (): Variant => mostStocked(products).variant;

async function chooseTestWallet(page: Page, wallet: TestWallet) {
  await pickTestWallet(page, wallet);
  await closeToasts(page);
}

async function expectConnectCard(page: Page) {
  const card = page.getByTestId('orders-connect-wallet');
  await expect(card.getByRole('heading', { name: 'Connect Wallet' })).toBeVisible();
  await expect(card).toContainText('Please connect your wallet to view your order history.');
  return card;
}

const signInStep = (page: Page) => page.getByTestId('orders-sign-in');

async function signedInAs(page: Page): Promise<string | null> {
  return ((await (await page.request.get('/api/auth/session')).json()) as AuthSession).address;
}

/** GET /api/orders?wallet=… (not /api/orders/:id). */
const ordersList = (url: URL) => url.pathname === '/api/orders';

const signatures = (wallet: TestWallet, since = 0) => wallet.methods(since).filter((m) => m === 'personal_sign').length;

test.describe('the orders page', () => {
  test('without a wallet: the Connect Wallet card opens the wallet chooser', async ({ page }) => {
    await page.goto('/orders');
    const card = await expectConnectCard(page);
    await expect(page).toHaveTitle(/^Your Orders · /);
    await expect(page.getByTestId('order-card')).toHaveCount(0);
    await card.getByRole('button', { name: 'Connect Wallet' }).click();
    await expect(page.getByTestId('wallet-chooser')).toBeVisible();
  });

  test('sign in once, see the purchase in its section, and lose it all with the wallet', async ({ page }) => {
    test.setTimeout(150_000);
    const wallet = await TestWallet.install(page, { account: BUYER });
    await page.goto('/orders');
    await (await expectConnectCard(page)).getByRole('button', { name: 'Connect Wallet' }).click();
    await chooseTestWallet(page, wallet);

    // Connected, not signed in: the one-tap step, which explains itself.
    await expect(signInStep(page).getByRole('heading', { name: 'Sign in to view your orders' })).toBeVisible();
    await expect(signInStep(page)).toContainText('Free: no transaction, no gas.');
    expect(signatures(wallet)).toBe(0);

    // A rejected signature says why it is needed and offers the step again.
    wallet.rejectNextSignature();
    await signInStep(page).getByTestId('orders-sign-in-button').click();
    await expectToast(page, 'Signature Rejected', 'You need to sign the message to view your orders.', 'destructive');
    await expect(signInStep(page).getByTestId('orders-sign-in-button')).toBeEnabled();
    expect(await signedInAs(page)).toBeNull();
    await closeToasts(page);

    // Signed: the server wrote the message (EIP-4361, hex-encoded for personal_sign) and the session is bound to the wallet.
    await signInStep(page).getByTestId('orders-sign-in-button').click();
    const empty = page.getByTestId('orders-empty');
    await expect(empty.getByRole('heading', { name: 'No Orders Found' })).toBeVisible();
    await expect(empty).toContainText('Your order history will appear here after you make a purchase.');
    expect(signatures(wallet)).toBe(2);
    const signed = wallet.calls.filter((c) => c.method === 'personal_sign').at(-1)!;
    const message = Buffer.from(String(signed.params[0]).slice(2), 'hex').toString('utf8');
    expect(message).toContain(`wants you to sign in with your Ethereum account:\n${wallet.address}`);
    expect(message).toContain('Sign in to POGS Shop to see your orders.');
    expect(message).toContain('Chain ID: 8453');
    expect(await signedInAs(page)).toBe(wallet.address.toLowerCase());

    // A reload keeps the sign-in: no second signature.
    let mark = wallet.mark();
    await page.reload();
    await expect(page.getByTestId('orders-empty')).toBeVisible();
    expect(signatures(wallet, mark)).toBe(0);

    // A purchase with the wallet (ends on Shopify's shipping form), then back to the orders.
    const variant = pick();
    expect((await page.request.post('/api/cart/add', { data: { variantId: variant.id, quantity: 1 } })).ok()).toBe(true);
    await page.getByTestId('cart-button').click();
    const drawer = page.getByTestId('cart-drawer');
    await expect(drawer.getByTestId('cart-item')).not.toHaveCount(0);
    const created = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/orders/create' && r.status() < 300);
    await drawer.getByTestId('pay-button').click();
    const order = (await (await created).json()) as Order;
    await page.waitForURL(/\/shopify-emulator\//, { timeout: 60_000 });

    mark = wallet.mark();
    await page.goto('/orders');
    await expect(page.getByRole('heading', { name: 'Your Orders', level: 1 })).toBeVisible();
    await expect(page.getByTestId('orders-page')).toContainText(`Connected Wallet: ${wallet.address}`);
    // Only the section that has orders.
    const sections = page.getByTestId('order-section');
    await expect(sections).toHaveCount(1);
    const needsShipping = sections.filter({ has: page.getByRole('heading', { name: 'Orders Needing Shipping Information' }) });
    await expect(needsShipping).toHaveAttribute('data-section', 'needs-shipping');
    const card = needsShipping.getByTestId('order-card');
    await expect(card).toHaveCount(1);
    await expect(card.getByTestId('order-id')).toHaveText(order.id);
    await expect(card.getByTestId('order-status')).toHaveAttribute('data-status', 'paid');
    await expect(card.getByTestId('order-placed')).toHaveText(/^Placed (just now|\d+ minutes? ago)$/);
    await expect(card.getByTestId('order-total')).toHaveText(formatPogPrice(order.total));
    await expect(card.getByTestId('order-item')).toContainText(`${formatPogPrice(variant.price)} × 1`);
    await expect(card).toContainText('Please complete your shipping information to fulfill this order');
    const shipping = card.getByRole('link', { name: /Complete Shipping Information/ });
    await expect(shipping).toHaveAttribute('href', `/orders/${order.id}/shipping`);
    await expect(shipping).toHaveAttribute('target', '_blank');
    await expect(shipping).toHaveAttribute('rel', /\bnoopener\b/);
    // Local mode: no public explorer knows the embedded chain; the hash shows, with a copy button.
    await expect(card.getByTestId('explorer-link')).toHaveCount(0);
    await expect(card.getByTestId('transaction-hash').locator('[title]')).toHaveAttribute('title', /^0x[0-9a-f]{64}$/i);
    await expect(card.getByTestId('transaction-hash').getByRole('button', { name: 'Copy transaction hash' })).toBeVisible();
    expect(signatures(wallet, mark)).toBe(0);

    // Another account in the wallet: signed out at once, the old wallet's orders leave the page.
    await wallet.switchAccount(2);
    await expect(signInStep(page)).toBeVisible();
    await expect(page.getByTestId('order-card')).toHaveCount(0);
    await expect.poll(() => signedInAs(page)).toBeNull();
    expect(signatures(wallet, mark)).toBe(0);

    // Back to the buyer: a new signature, and the order again.
    await wallet.switchAccount(BUYER);
    await closeToasts(page);
    await signInStep(page).getByTestId('orders-sign-in-button').click();
    await expect(page.getByTestId('order-card')).toHaveCount(1);
    expect(signatures(wallet, mark)).toBe(1);

    // Disconnecting: no order data stays on the page, and the session forgets the wallet.
    await page.getByTestId('wallet-button').click();
    await page.getByTestId('wallet-disconnect').click();
    await expectConnectCard(page);
    await expect(page.getByTestId('order-card')).toHaveCount(0);
    await expect(page.getByTestId('orders-page')).not.toContainText(order.id);
    await expect.poll(() => signedInAs(page)).toBeNull();
  });
});

test.describe('the orders page, with scripted API answers', () => {
  // The shop's service worker would fetch past page.route once it controls the page.
  test.use({ serviceWorkers: 'block' });

  test('groups orders into the three sections, with BaseScan links on the live chain', async ({ page }) => {
    const wallet = await TestWallet.install(page, { account: BUYER });
    const hash = (n: number) => '0x' + String(n).repeat(64);
    const make = (id: string, status: Order['status'], needsShipping: boolean, n: number, refunds: Order['refunds'] = []): Order => ({
      id,
      status,
      total: '1234.5',
      amountPaid: '1234.500000000000000001',
      items: [{ id: `${id}-1`, variantId: '1', title: `Cap ${id}`, price: '617.25', quantity: 2 }],
      needsShipping,
      shippingUrl: `/orders/${id}/shipping`,
      shippingReady: true,
      hold: null,
      customerWallet: wallet.address.toLowerCase(),
      transactionHash: hash(n),
      refunds,
      trackingUrl: null,
      reference: null,
      blockchain: { chainId: 8453, transactionHash: hash(n), blockNumber: n },
      createdAt: new Date(Date.now() - 3 * 86_400_000).toISOString(),
      processed_at: new Date(Date.now() - 2 * 3_600_000).toISOString(),
    });
    const orders = [
      make('o-shipped', 'shipped', false, 1),
      make('o-paid', 'paid', true, 2),
      make('o-pending', 'pending', false, 3),
      make('o-confirmed', 'confirmed', false, 4),
      make('o-failed', 'failed', false, 5),
      make('o-refunded', 'refunded', false, 6, [
        {
          amount: '1234.500000000000000001',
          txHash: hash(7),
          explorerUrl: `https://basescan.org/tx/${hash(7)}`,
          at: new Date().toISOString(),
        },
      ]),
    ];
    // Signed in already; the orders and the live chain's config come from the routes.
    await page.route('**/api/auth/session', (route) => route.fulfill({ json: { address: wallet.address.toLowerCase(), expiresAt: null } }));
    await page.route(ordersList, (route) => route.fulfill({ json: orders }));
    await page.route('**/api/config', async (route) => {
      const response = await route.fetch();
      const config = (await response.json()) as PublicConfig;
      await route.fulfill({ response, json: { ...config, mode: 'live', demoWallet: false, explorerUrl: 'https://basescan.org' } });
    });

    await page.goto('/orders');
    await page.getByTestId('orders-connect-button').click();
    await chooseTestWallet(page, wallet);
    const sections = page.getByTestId('order-section');
    await expect(sections).toHaveCount(3);
    await expect(sections.getByRole('heading', { level: 2 })).toHaveText([
      /^Orders Needing Shipping Information/,
      /^Pending Shipment/,
      /^Order History/,
    ]);
    await expect(sections.nth(0).getByTestId('order-id')).toHaveText(['o-paid']);
    await expect(sections.nth(1).getByTestId('order-id')).toHaveText(['o-confirmed']);
    await expect(sections.nth(2).getByTestId('order-id')).toHaveText(['o-shipped', 'o-refunded']);
    // Pending and failed orders are not listed.
    await expect(page.getByTestId('order-card')).toHaveCount(4);

    const paid = sections.nth(0).getByTestId('order-card');
    await expect(paid.getByTestId('order-placed')).toHaveText('Placed 2 hours ago');
    await expect(paid.getByTestId('order-total')).toHaveText('1,234.50 $POGS');
    await expect(paid.getByTestId('order-item')).toHaveText(/Cap o-paid\s*617\.25 \$POGS × 2/);
    await expect(paid.getByTestId('explorer-link')).toHaveAttribute('href', `https://basescan.org/tx/${hash(2)}`);
    await expect(paid.getByTestId('explorer-link')).toHaveAttribute('target', '_blank');
    // Only the needs-shipping card asks for shipping details.
    await expect(page.getByTestId('complete-shipping')).toHaveCount(1);
    await expect(paid.getByTestId('complete-shipping')).toHaveAttribute('href', '/orders/o-paid/shipping');
    const [shipped, refunded] = [0, 1].map((i) => sections.nth(2).getByTestId('order-card').nth(i));
    await expect(shipped.getByTestId('order-status')).toHaveAttribute('data-status', 'shipped');
    await expect(shipped.getByTestId('explorer-link')).toHaveAttribute('href', `https://basescan.org/tx/${hash(1)}`);
    await expect(shipped.getByTestId('order-refunds')).toHaveCount(0);
    // A refunded order says what went back, with the refund's own transaction.
    await expect(refunded.getByTestId('order-status')).toHaveAttribute('data-status', 'refunded');
    await expect(refunded.getByTestId('order-refund')).toHaveText([/Refunded 1,234\.50 POG/]);
    await expect(refunded.getByTestId('order-refund').getByTestId('explorer-link')).toHaveAttribute(
      'href',
      `https://basescan.org/tx/${hash(7)}`,
    );
  });

  test('a session the server no longer knows returns to the sign-in step', async ({ page }) => {
    const wallet = await TestWallet.install(page, { account: BUYER });
    await page.route('**/api/auth/session', (route) => route.fulfill({ json: { address: wallet.address.toLowerCase(), expiresAt: null } }));
    await page.route(ordersList, (route) =>
      route.fulfill({ status: 401, json: { code: 'sign-in-required', message: 'Sign in with your wallet to see its orders.' } }),
    );
    await page.goto('/orders');
    await page.getByTestId('orders-connect-button').click();
    await chooseTestWallet(page, wallet);
    await expect(signInStep(page)).toBeVisible();
    await expect(page.getByTestId('orders-error')).toHaveCount(0);
  });

  test('a failed read says so and can be tried again', async ({ page }) => {
    const wallet = await TestWallet.install(page, { account: BUYER });
    let fail = true;
    await page.route('**/api/auth/session', (route) => route.fulfill({ json: { address: wallet.address.toLowerCase(), expiresAt: null } }));
    await page.route(ordersList, (route) =>
      fail ? route.fulfill({ status: 503, body: 'Service Unavailable' }) : route.fulfill({ json: [] }),
    );
    await page.goto('/orders');
    await page.getByTestId('orders-connect-button').click();
    await chooseTestWallet(page, wallet);
    const error = page.getByTestId('orders-error');
    await expect(error.getByRole('heading', { name: 'Failed to fetch orders' })).toBeVisible();
    fail = false;
    await error.getByRole('button', { name: 'Try Again' }).click();
    await expect(page.getByTestId('orders-empty')).toBeVisible();
  });
});
