import { expect, test, type Page, type Request } from './fixtures/test';
import type { Product } from '../common/api';
import { DEV_ACCOUNTS, TEST_WALLET_NAME, TEST_WALLET_RDNS, TestWallet } from './fixtures/test-wallet';
import { closeToasts, expectToast, holdShippingRedirect, homeHydrated, pickTestWallet, routeConfig } from './fixtures/ui';

// The wallet against the real server in local mode (embedded anvil chain, Demo Wallet on).
// Most tests inject the EIP-6963 test wallet (e2e/fixtures/test-wallet.ts) before the shop loads,
// the way a browser extension is there before the page: the shop must find it, connect, follow
// its events and reconnect silently, exactly as with MetaMask.

const short = (address: string) => `${address.slice(0, 6)}...${address.slice(-4)}`;
const DEMO_WALLET_RDNS = 'shop.pogs.demo-wallet';

const walletButton = (page: Page) => page.getByTestId('wallet-button');

async function openChooser(page: Page) {
  await expect(walletButton(page)).toHaveAttribute('data-status', 'disconnected');
  await walletButton(page).click();
  const chooser = page.getByTestId('wallet-chooser');
  await expect(chooser).toBeVisible();
  await expect(chooser).not.toHaveAttribute('data-searching');
  return chooser;
}

async function connectTestWallet(page: Page, wallet: TestWallet) {
  await openChooser(page);
  await pickTestWallet(page, wallet);
}

async function expectDisconnected(page: Page) {
  await expect(walletButton(page)).toHaveAttribute('data-status', 'disconnected');
  await expect(walletButton(page)).toContainText('Connect Wallet');
  await expect(page.getByTestId('wallet-address')).toHaveCount(0);
}

test.describe('with a browser wallet (EIP-6963)', () => {
  let wallet: TestWallet;

  test.beforeEach(async ({ page }) => {
    wallet = await TestWallet.install(page);
  });

  test('lists the announced wallet and connects with a prompt', async ({ page }) => {
    await page.goto('/');
    await expectDisconnected(page);
    // Nothing was asked of the wallet before the shopper chose it.
    expect(wallet.methods()).toEqual([]);

    const chooser = await openChooser(page);
    await expect(chooser.getByRole('heading', { name: 'Connect Wallet' })).toBeVisible();
    const option = chooser.locator(`[data-testid="wallet-option"][data-rdns="${TEST_WALLET_RDNS}"]`);
    await expect(option).toHaveAttribute('data-wallet-name', TEST_WALLET_NAME);
    await expect(option).toContainText(TEST_WALLET_NAME);
    await expect(option.locator('img')).toHaveAttribute('src', /^data:image\/svg\+xml,/);
    // Local mode: the Demo Wallet is announced beside it. No WalletConnect without a project id.
    await expect(chooser.locator(`[data-testid="wallet-option"][data-rdns="${DEMO_WALLET_RDNS}"]`)).toHaveAttribute(
      'data-wallet-name',
      'Demo Wallet',
    );
    await expect(chooser.getByTestId('wallet-connect-option')).toHaveCount(0);
    // A phone with a wallet in the browser is not told to open a wallet app.
    await expect(chooser.getByTestId('deep-link-metamask')).toHaveCount(0);

    const box = (await option.boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(44);

    await option.click();
    await expect(chooser).toBeHidden();
    await expectToast(page, 'Wallet Connected', `Connected to ${short(DEV_ACCOUNTS[2])}`);
    await expect(page.getByTestId('wallet-address')).toHaveText('0x3C44...93BC');
    await expect(walletButton(page)).toHaveAttribute('data-status', 'connected');
    expect(wallet.methods()).toEqual(['eth_requestAccounts']);

    // The header still fits a 390 px-class phone.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    for (const id of ['home-link', 'wallet-button', 'orders-link', 'admin-link', 'cart-button']) {
      const b = (await page.getByTestId(id).boundingBox())!;
      expect(b.x + b.width, id).toBeLessThanOrEqual(page.viewportSize()!.width);
      expect(b.height, id).toBeGreaterThanOrEqual(44);
    }
  });

  test('a returning shopper is reconnected silently after a reload (eth_accounts, no prompt)', async ({ page }) => {
    await page.goto('/');
    await connectTestWallet(page, wallet);
    const mark = wallet.mark();

    await page.reload();
    await expect(page.getByTestId('wallet-address')).toHaveText(short(wallet.address));
    expect(wallet.methods(mark)).toContain('eth_accounts');
    expect(wallet.methods(mark)).not.toContain('eth_requestAccounts');
    // Silent: no 'Wallet Connected' again.
    await expect(page.getByTestId('toast')).toHaveCount(0);

    // Also on another page, straight from the address bar.
    await page.goto('/cart');
    await expect(page.getByTestId('wallet-address')).toHaveText(short(wallet.address));
    expect(wallet.methods(mark)).not.toContain('eth_requestAccounts');
  });

  test('a wallet that no longer grants the site is not reconnected, and not prompted', async ({ page }) => {
    await page.goto('/');
    await connectTestWallet(page, wallet);
    // The shopper disconnected the site inside the extension while the shop was closed.
    await page.evaluate(() => sessionStorage.removeItem('__e2eWalletAuthorised'));
    const mark = wallet.mark();
    await page.reload();
    await expectDisconnected(page);
    // The shop asks once the page is hydrated (it may come after the page reads disconnected).
    await expect.poll(() => wallet.methods(mark)).toEqual(['eth_accounts']);
    await page.waitForTimeout(500);
    expect(wallet.methods(mark)).toEqual(['eth_accounts']);
    await page.reload();
    await expectDisconnected(page);
    // Forgotten: the next load does not even ask.
    await homeHydrated(page);
    await page.waitForTimeout(500);
    expect(wallet.methods(mark)).toEqual(['eth_accounts']);
  });

  test('switching accounts in the wallet updates the address', async ({ page }) => {
    await page.goto('/');
    await connectTestWallet(page, wallet);
    await closeToasts(page);

    await wallet.switchAccount(3);
    await expectToast(page, 'Account Switched', `Now using ${short(DEV_ACCOUNTS[3])}`);
    await expect(page.getByTestId('wallet-address')).toHaveText('0x90F7...b906');

    // And the new account is the one remembered for the next visit.
    await page.reload();
    await expect(page.getByTestId('wallet-address')).toHaveText('0x90F7...b906');
  });

  test('disconnect clears the session and asks the wallet to revoke', async ({ page }) => {
    await page.goto('/');
    await connectTestWallet(page, wallet);
    await closeToasts(page);

    await walletButton(page).click();
    const menu = page.getByTestId('wallet-menu');
    await expect(menu).toBeVisible();
    await expect(menu.getByTestId('wallet-full-address')).toHaveText(wallet.address);
    await expect(menu).toContainText(TEST_WALLET_NAME);
    await menu.getByTestId('wallet-disconnect').click();

    await expectToast(page, 'Wallet Disconnected', 'also disconnect this site in your wallet extension');
    await expectDisconnected(page);
    await expect.poll(() => wallet.methods()).toContain('wallet_revokePermissions');
    const revoke = wallet.calls.find((c) => c.method === 'wallet_revokePermissions')!;
    expect(revoke.params).toEqual([{ eth_accounts: {} }]);

    // Forgotten: a reload does not reconnect, and does not even ask the wallet.
    const mark = wallet.mark();
    await page.reload();
    await expectDisconnected(page);
    await homeHydrated(page);
    await page.waitForTimeout(500);
    expect(wallet.methods(mark)).toEqual([]);
  });

  test('an empty account list from the wallet disconnects', async ({ page }) => {
    await page.goto('/');
    await connectTestWallet(page, wallet);
    await closeToasts(page);
    await wallet.emitNoAccounts();
    await expectToast(page, 'Disconnected', 'Your wallet ended the connection');
    await expect(page.getByTestId('toast-title')).toHaveText(['Disconnected']);
    await expectDisconnected(page);
  });

  test("the wallet's disconnect event disconnects", async ({ page }) => {
    await page.goto('/');
    await connectTestWallet(page, wallet);
    await closeToasts(page);
    await wallet.emitDisconnect();
    // The notice for the wallet's own disconnect: 'Disconnected', visible on screen.
    await expectToast(page, 'Disconnected', 'Your wallet ended the connection');
    await expect(page.getByTestId('toast-title')).toHaveText(['Disconnected']);
    await expectDisconnected(page);
  });

  test('a rejected request (4001) says "Connection Rejected"', async ({ page }) => {
    wallet.rejectNextRequest();
    await page.goto('/');
    const chooser = await openChooser(page);
    await chooser.locator(`[data-rdns="${TEST_WALLET_RDNS}"]`).click();
    await expectToast(page, 'Connection Rejected', 'Wallet connection was cancelled.', 'destructive');
    await expectDisconnected(page);

    // The shopper tries again and accepts.
    await closeToasts(page);
    await connectTestWallet(page, wallet);
    await expectToast(page, 'Wallet Connected', short(wallet.address));
  });

  test('a request already open in the wallet (-32002) says "Connection Pending"', async ({ page }) => {
    wallet.pendingNextRequest();
    await page.goto('/');
    const chooser = await openChooser(page);
    await chooser.locator(`[data-rdns="${TEST_WALLET_RDNS}"]`).click();
    await expectToast(page, 'Connection Pending', 'Please check your wallet to complete connection');
    await expectDisconnected(page);
  });

  test('while connecting the control shows "Connecting..." and cannot start a second request', async ({ page }) => {
    const release = wallet.holdNextRequest();
    await page.goto('/');
    const chooser = await openChooser(page);
    await chooser.locator(`[data-rdns="${TEST_WALLET_RDNS}"]`).click();
    await expect(walletButton(page)).toHaveAttribute('data-status', 'connecting');
    await expect(walletButton(page)).toContainText('Connecting...');
    await expect(page.getByTestId('wallet-chooser')).toHaveCount(0);
    release();
    await expect(page.getByTestId('wallet-address')).toHaveText(short(wallet.address));
    expect(wallet.methods().filter((m) => m === 'eth_requestAccounts')).toHaveLength(1);
  });

  test('tapping "Connecting..." stops waiting; a late approval is ignored', async ({ page }) => {
    const release = wallet.holdNextRequest();
    await page.goto('/');
    const chooser = await openChooser(page);
    await chooser.locator(`[data-rdns="${TEST_WALLET_RDNS}"]`).click();
    await expect(walletButton(page)).toHaveAttribute('data-status', 'connecting');
    await walletButton(page).click();
    await expectDisconnected(page);
    release();
    await page.waitForTimeout(300);
    await expectDisconnected(page);
  });

  test('the test wallet is backed by the local chain (anvil, chain id 8453)', async ({ page }) => {
    await page.goto('/');
    await connectTestWallet(page, wallet);
    const answers = await page.evaluate(async (address) => {
      const provider = (
        window as unknown as { __e2eWalletProvider: { request: (a: { method: string; params?: unknown[] }) => Promise<unknown> } }
      ).__e2eWalletProvider;
      return {
        chainId: await provider.request({ method: 'eth_chainId' }),
        balance: await provider.request({ method: 'eth_getBalance', params: [address, 'latest'] }),
      };
    }, wallet.address);
    expect(answers.chainId).toBe('0x2105');
    expect(BigInt(answers.balance as string)).toBeGreaterThan(0n);
  });

  test.describe('paying', () => {
    // Without the service worker: the redirect to shipping is held while the toast is read.
    test.use({ serviceWorkers: 'block' });
    test('pay: without a wallet the toast offers to connect; once connected, the payment goes to the wallet', async ({ page }) => {
      const products: Product[] = await (await page.request.get('/api/products')).json();
      const product = products.find((p) => p.variants.length === 1 && !p.variants[0].isSoldOut && p.variants[0].availableStock > 0)!;
      const added = await page.request.post('/api/cart/add', { data: { variantId: product.variants[0].id, quantity: 1 } });
      expect(added.ok()).toBe(true);

      await page.goto('/');
      await page.getByTestId('cart-button').click();
      const drawer = page.getByTestId('cart-drawer');
      await expect(drawer.getByTestId('cart-item')).toHaveCount(1);
      await drawer.getByTestId('pay-button').click();
      await expectToast(
        page,
        'Connect Wallet',
        "Please connect your wallet and ensure you're on Base Network to proceed with payment",
        'destructive',
      );

      // The toast's action opens the chooser.
      await page.getByTestId('toast-connect-wallet').click();
      const chooser = page.getByTestId('wallet-chooser');
      await expect(chooser).toBeVisible();
      await chooser.locator(`[data-rdns="${TEST_WALLET_RDNS}"]`).click();
      await expect(page.getByTestId('wallet-address')).toHaveText(short(wallet.address));
      await closeToasts(page);

      if (!(await drawer.isVisible())) await page.getByTestId('cart-button').click();
      const releaseRedirect = await holdShippingRedirect(page);
      await drawer.getByTestId('pay-button').click();
      // Past the pre-check the wallet is asked to send the transfer (the purchase itself is
      // covered in checkout.spec.ts).
      await expectToast(page, 'Order Created', 'Payment confirmed! Redirecting to shipping...');
      await releaseRedirect();
      expect(wallet.methods()).toContain('eth_sendTransaction');
    });
  });
});

test.describe('the Demo Wallet (local mode)', () => {
  test('appears in the chooser with no extension installed and connects to the dev account', async ({ page }) => {
    await page.goto('/');
    const chooser = await openChooser(page);
    const demo = chooser.locator(`[data-testid="wallet-option"][data-rdns="${DEMO_WALLET_RDNS}"]`);
    await expect(demo).toHaveAttribute('data-wallet-name', 'Demo Wallet');
    await expect(demo.locator('img')).toHaveAttribute('src', /^data:image\/svg\+xml,/);
    await expect(chooser.getByTestId('wallet-option')).toHaveCount(1);
    await demo.click();
    await expectToast(page, 'Wallet Connected', 'Connected to 0x7099...79C8');
    await expect(page.getByTestId('wallet-address')).toHaveText('0x7099...79C8');

    // It is an ordinary EIP-6963 wallet for the shop: silent reconnect works the same way.
    await page.reload();
    await expect(page.getByTestId('wallet-address')).toHaveText('0x7099...79C8');
    await expect(page.getByTestId('toast')).toHaveCount(0);
  });
});

test.describe('configuration-dependent wallets', () => {
  test.use({ serviceWorkers: 'block' });

  test('a phone with no wallet is sent to the wallet apps with exactly the right links', async ({ page, baseURL }) => {
    await routeConfig(page, { demoWallet: false, walletConnectProjectId: null });
    const requested: string[] = [];
    page.on('request', (r: Request) => requested.push(r.url()));

    await page.goto('/?ref=e2e');
    const chooser = await openChooser(page);
    await expect(chooser.getByTestId('mobile-wallet-required')).toContainText('Mobile Wallet Required');
    await expect(chooser.getByTestId('mobile-wallet-required')).toContainText('Please open in MetaMask or Coinbase Wallet browser');
    await expect(chooser.getByTestId('wallet-option')).toHaveCount(0);
    await expect(chooser.getByTestId('wallet-connect-option')).toHaveCount(0);

    const origin = new URL(baseURL!);
    await expect(chooser.getByTestId('deep-link-metamask')).toHaveAttribute(
      'href',
      `https://link.metamask.io/dapp/${origin.host}/?ref=e2e`,
    );
    await expect(chooser.getByTestId('deep-link-coinbase')).toHaveAttribute(
      'href',
      `https://go.cb-w.com/dapp?cb_url=${encodeURIComponent(`${origin.origin}/?ref=e2e`)}`,
    );
    for (const id of ['deep-link-metamask', 'deep-link-coinbase']) {
      expect((await chooser.getByTestId(id).boundingBox())!.height, id).toBeGreaterThanOrEqual(44);
    }
    // With demoWallet false the Demo Wallet's code is never even fetched.
    expect(requested.filter((u) => /demo-wallet/i.test(u))).toEqual([]);

    // The plain home URL, as the brief states it.
    await page.goto('/');
    const again = await openChooser(page);
    await expect(again.getByTestId('deep-link-metamask')).toHaveAttribute('href', `https://link.metamask.io/dapp/${origin.host}/`);
  });

  test("WalletConnect's code is fetched only when the shopper chooses it", async ({ page }) => {
    await routeConfig(page, { walletConnectProjectId: '0123456789abcdef0123456789abcdef' });
    // By name (its chunk) and by content (its relay address), so a renamed or merged chunk
    // cannot slip through.
    const requested: string[] = [];
    const scriptsWithWalletConnect: string[] = [];
    page.on('request', (r: Request) => requested.push(r.url()));
    page.on('response', async (response) => {
      if (!/\.js(\?|$)/.test(response.url())) return;
      const body = await response.text().catch(() => '');
      if (body.includes('relay.walletconnect')) scriptsWithWalletConnect.push(response.url());
    });
    const isWalletConnect = (u: string) => /walletconnect|ethereum-provider/i.test(new URL(u).pathname);
    const pageErrors: Error[] = [];
    page.on('pageerror', (e) => pageErrors.push(e));

    await page.goto('/');
    const chooser = await openChooser(page);
    const option = chooser.getByTestId('wallet-connect-option');
    await expect(option).toContainText('WalletConnect');
    // The wallet code itself (web3) has loaded by now; WalletConnect has not.
    expect(requested.some((u) => /\/assets\/web3-/.test(u))).toBe(true);
    expect(requested.filter(isWalletConnect)).toEqual([]);
    expect(scriptsWithWalletConnect).toEqual([]);

    await option.click();
    await expect.poll(() => requested.filter(isWalletConnect).length).toBeGreaterThan(0);
    await expect.poll(() => scriptsWithWalletConnect.length).toBeGreaterThan(0);
    // The relay cannot be reached from the test machine; the shop must still stand.
    await expect(page.getByTestId('home-link')).toBeVisible();
    await expect(page.getByText('Something went wrong')).toHaveCount(0);
    expect(pageErrors.filter((e) => /Minified React error|is not a function|Cannot read/i.test(e.message))).toEqual([]);
  });
});
