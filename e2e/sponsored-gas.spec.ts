import { expect, test, type Page } from './fixtures/test';
import { Contract, JsonRpcProvider, parseUnits, Wallet } from 'ethers';
import type { AuthSession, Checkout, Order, Product, PublicConfig, Variant } from '../common/api';
import { CHAIN_RPC, DEV_ACCOUNTS, TestWallet } from './fixtures/test-wallet';
import { localEntryPoint } from '../server/chain/local-paymaster';
import { startBundler, type Bundler } from './fixtures/bundler';
import { SmartAccountWallet } from './fixtures/smart-wallet';
import { closeToasts, expectToast, holdShippingRedirect, mostStocked, pickTestWallet } from './fixtures/ui';
import { mined } from '../server/chain/mined';

// Paying with POGS and no ETH, on a 390 × 844 phone, against the local shop, which pays smart
// wallets' gas with its own paymaster on the embedded chain. The smart wallet (fixtures/smart-
// wallet.ts) builds ERC-4337 user operations, asks the shop's paymaster service and sends them to
// a real bundler (alto, fixtures/bundler.ts), which puts them on chain through the EntryPoint; a
// plain key without ETH keeps the plain transfer and its error.

let products: Product[];
let config: PublicConfig;
let provider: JsonRpcProvider;
let bundler: Bundler;

test.use({ viewport: { width: 390, height: 844 }, serviceWorkers: 'block' });

test.beforeAll(async ({ request }) => {
  products = await (await request.get('/api/products')).json();
  config = (await (await request.get('/api/config')).json()) as PublicConfig;
  provider = new JsonRpcProvider(CHAIN_RPC, 8453, { staticNetwork: true });
  bundler = await startBundler({ rpcUrl: CHAIN_RPC, entryPoint: localEntryPoint() });
});
test.afterAll(async () => {
  await bundler?.stop();
  provider?.destroy();
});

/** Sends `to` some demo POGS from the Demo Wallet's account (#1). */
async function givePogs(to: string, amount = '10000') {
  const token = new Contract(
    config.tokenAddress!,
    ['function transfer(address to, uint256 amount) returns (bool)', 'function balanceOf(address) view returns (uint256)'],
    await provider.getSigner(DEV_ACCOUNTS[1]),
  );
  await mined(token.getFunction('transfer').send(to, parseUnits(amount, 18)));
}

const pick = (): Variant => mostStocked(products).variant;

/** Buys one of `variant` from the cart drawer; `connect`: the wallet is not connected to the shop yet. */
async function payFromDrawer(page: Page, wallet: TestWallet, variant: Variant, connect: boolean) {
  await page.goto('/');
  if (connect) {
    await page.getByTestId('wallet-button').click();
    await pickTestWallet(page, wallet);
    await closeToasts(page);
  } else {
    await expect(page.getByTestId('wallet-address')).toBeVisible();
  }
  expect((await page.request.post('/api/cart/add', { data: { variantId: variant.id, quantity: 1 } })).ok()).toBe(true);
  await page.getByTestId('cart-button').click();
  const drawer = page.getByTestId('cart-drawer');
  await expect(drawer.getByTestId('cart-item')).toHaveCount(1);
  await drawer.getByTestId('pay-button').click();
  return drawer;
}

const ticketRequests = (page: Page) => {
  const seen: string[] = [];
  page.on('request', (r) => {
    if (/^\/api\/checkout\/[^/]+\/paymaster$/.test(new URL(r.url()).pathname)) seen.push(r.url());
  });
  return seen;
};

test.describe('paying with POGS and no ETH', () => {
  test('a smart wallet with POGS and no ETH signs in, pays with the shop paying the gas, and gets its order', async ({
    page,
    browser,
  }, testInfo) => {
    test.setTimeout(180_000);
    expect(config.gasPaidByShop).toBe(true);
    const smart = await SmartAccountWallet.create(CHAIN_RPC, bundler.url);
    try {
      await givePogs(smart.address);
      expect(await provider.getBalance(smart.address)).toBe(0n);
      expect(await smart.deployed()).toBe(false);
      const wallet = await TestWallet.install(page, { smart });

      // Sign-in before the account exists: the wallet signs in ERC-6492's wrapped form.
      await page.goto('/orders');
      await page.getByTestId('orders-connect-wallet').getByRole('button', { name: 'Connect Wallet' }).click();
      await pickTestWallet(page, wallet);
      await closeToasts(page);
      await page.getByTestId('orders-sign-in').getByTestId('orders-sign-in-button').click();
      await expect(page.getByTestId('orders-empty')).toBeVisible();
      const session = (await (await page.request.get('/api/auth/session')).json()) as AuthSession;
      expect(session.address).toBe(smart.address.toLowerCase());
      expect(smart.signatures).toHaveLength(1);
      expect(smart.signatures[0]!.endsWith('6492'.repeat(16))).toBe(true);

      const variant = pick();
      const releaseRedirect = await holdShippingRedirect(page);
      const created = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/orders/create' && r.status() < 300);
      const checkout = page
        .waitForResponse((r) => new URL(r.url()).pathname === '/api/checkout' && r.request().method() === 'POST' && r.status() === 201)
        .then((r) => r.json() as Promise<Checkout>);
      const release = smart.holdNextCalls();
      const drawer = await payFromDrawer(page, wallet, variant, false);
      // While the wallet asks the shopper to confirm: the shop says it pays the fee.
      await expectToast(page, 'Network fee paid by the shop', 'Confirm the payment in your wallet: you need no ETH for it.');
      await expect(drawer.getByTestId('pay-button')).toHaveText('Confirm in your wallet...');
      await page.screenshot({ path: testInfo.outputPath('sponsored-390x844.png') });
      release();
      const order = (await (await created).json()) as Order;
      await expectToast(page, 'Order Created', 'Payment confirmed! Redirecting to shipping...');
      await expect(drawer.getByTestId('cart-paid')).toHaveText('Payment confirmed! Redirecting to shipping...');
      await releaseRedirect();
      await page.waitForURL(/\/shopify-emulator\//, { timeout: 60_000 });

      // One user operation, sponsored: the wallet never sent a transaction itself and still has no ETH.
      const methods = wallet.methods();
      expect(methods).toEqual(expect.arrayContaining(['wallet_getCapabilities', 'wallet_sendCalls', 'wallet_getCallsStatus']));
      expect(methods).not.toContain('eth_sendTransaction');
      expect(smart.operations).toHaveLength(1);
      const [{ op, final }] = smart.operations;
      expect(op.factory).toBeTruthy(); // the payment deployed the account
      expect(final.paymaster).toMatch(/^0x[0-9a-fA-F]{40}$/);
      expect(await provider.getBalance(smart.address)).toBe(0n);
      expect(await smart.deployed()).toBe(true);

      // The order is the smart account's: it lists on its orders page (now checked by ERC-1271 on a new sign-in).
      await page.goto('/orders');
      await expect(page.getByTestId('order-card').filter({ hasText: order.id })).toBeVisible();
      const again = await browser.newContext({ viewport: { width: 390, height: 844 } });
      try {
        // Another browser cannot have the shop pay for this checkout: the ticket is the paying session's only.
        const stranger = await again.request.get(new URL(`/api/checkout/${(await checkout).id}/paymaster`, page.url()).toString());
        expect(stranger.status()).toBe(404);
      } finally {
        await again.close();
      }
    } finally {
      smart.dispose();
    }
  });

  test('a second payment while the first sponsored one can still go through: the shopper is told the wallet pays this fee, and why', async ({
    page,
  }, testInfo) => {
    test.setTimeout(120_000);
    const smart = await SmartAccountWallet.create(CHAIN_RPC, bundler.url);
    try {
      await givePogs(smart.address);
      const wallet = await TestWallet.install(page, { smart });
      // The first payment: the shop sponsors it, and the shopper closes the wallet without sending it.
      smart.rejectNextAfterSponsorship();
      await payFromDrawer(page, wallet, pick(), true);
      await expectToast(page, 'Payment Failed', 'Transaction was rejected by user', 'destructive');
      expect(smart.operations).toHaveLength(1);
      await closeToasts(page);

      // Another checkout (one more item) while that sponsorship can still land: the shop says so
      // before the wallet is asked, and the wallet is asked for a plain transfer, which needs ETH.
      const other = mostStocked(products.filter((p) => !p.variants.some((v) => v.id === pick().id))).variant;
      expect((await page.request.post('/api/cart/add', { data: { variantId: other.id, quantity: 1 } })).ok()).toBe(true);
      await page.goto('/');
      await expect(page.getByTestId('wallet-address')).toBeVisible();
      await page.getByTestId('cart-button').click();
      const drawer = page.getByTestId('cart-drawer');
      await expect(drawer.getByTestId('cart-item')).toHaveCount(2);
      // The wallet holds its confirmation, so the notice is seen (and photographed) while it asks.
      const release = smart.holdNextCalls();
      await drawer.getByTestId('pay-button').click();
      await expectToast(
        page,
        'Network fee paid from your wallet',
        /^.*This account’s last sponsored payment can still go through for up to (10|11) minutes: wait for it, or pay the fee from the wallet\.$/,
      );
      await page.screenshot({ path: testInfo.outputPath('unsponsored-390x844.png') });
      await page.setViewportSize({ width: 820, height: 1180 });
      await page.screenshot({ path: testInfo.outputPath('unsponsored-820x1180.png') });
      release();
      await expectToast(page, 'Payment Failed', 'Insufficient funds for gas or token balance', 'destructive');
      // Nothing more was sponsored: the wallet built no second operation.
      expect(smart.operations).toHaveLength(1);
      expect(wallet.methods()).toContain('eth_sendTransaction');
    } finally {
      smart.dispose();
    }
  });

  test('a plain key without ETH keeps the plain transfer and is told it needs ETH for gas', async ({ page }) => {
    test.setTimeout(120_000);
    // An account the node signs for (impersonated) with POGS and not a wei of ETH.
    const plain = Wallet.createRandom().address;
    await provider.send('anvil_impersonateAccount', [plain]);
    await givePogs(plain);
    expect(await provider.getBalance(plain)).toBe(0n);
    const wallet = await TestWallet.install(page, { address: plain });
    const tickets = ticketRequests(page);

    await payFromDrawer(page, wallet, pick(), true);
    await expectToast(page, 'Payment Failed', 'Insufficient POG tokens or ETH for gas fees', 'destructive');
    // The shop asked the wallet whether it can take a paymaster (it cannot) and sent the transfer as today.
    expect(wallet.methods()).toEqual(expect.arrayContaining(['wallet_getCapabilities', 'eth_sendTransaction']));
    expect(wallet.methods()).not.toContain('wallet_sendCalls');
    expect(tickets).toEqual([]);
    await expect(page.getByTestId('cart-drawer').getByTestId('pay-button')).toHaveText('Pay with POG');
  });
});
