import { expect, test, type Page } from './fixtures/test';
import { Contract, Interface, JsonRpcProvider, parseEther, parseUnits, toQuantity, Wallet } from 'ethers';
import type { Checkout, Order, Product, PublicConfig } from '../common/api';
import type { SwapQuote } from '../common/swap-pay';
import { quoteFigures } from '../client/features/checkout/lib/swap-figures';
import { localEntryPoint } from '../server/chain/local-paymaster';
import { mined } from '../server/chain/mined';
import { logInAsAdmin } from './fixtures/admin';
import { startBundler, type Bundler } from './fixtures/bundler';
import { SmartAccountWallet } from './fixtures/smart-wallet';
import { CHAIN_RPC, DEV_ACCOUNTS, TestWallet } from './fixtures/test-wallet';
import { closeToasts, expectToast, holdShippingRedirect, mostStocked, pickTestWallet } from './fixtures/ui';

// Paying with ETH or USDC on a 390 × 844 phone, against the local shop and its swap venue (Uniswap's
// SwapRouter02 and QuoterV2, a demo USDC and their pools on the embedded chain): a wallet whose
// POGS are short is offered the other coins, sees the shop's quote with its bound, and sends the
// swap, whose output (exactly the checkout's amount) goes to the store wallet; the order follows as
// for a POGS payment. The Demo Wallet is a plain key (approve and swap in turn); the test wallet
// as a smart wallet (fixtures/smart-wallet.ts) sends them as one EIP-5792 batch, paying its own gas.

const DEMO_WALLET_RDNS = 'shop.pogs.demo-wallet';
const DEMO_ACCOUNT = DEV_ACCOUNTS[1];
const ERC20 = ['function transfer(address to, uint256 amount) returns (bool)', 'function balanceOf(address) view returns (uint256)'];
const ACCOUNT = new Interface(['function executeBatch((address target, uint256 value, bytes data)[] calls)']);
const ROUTER = new Interface([
  'function multicall(uint256 deadline, bytes[] data) payable returns (bytes[] results)',
  'function exactOutputSingle((address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 amountOut, uint256 amountInMaximum, uint160 sqrtPriceLimitX96) params) payable returns (uint256 amountIn)',
  'function exactInputSingle((address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 amountIn, uint256 amountOutMinimum, uint160 sqrtPriceLimitX96) params) payable returns (uint256 amountOut)',
]);
/**
 * An account of no other spec that the node signs for (impersonated), with 10 ETH for gas: where the
 * Demo Wallet's POGS wait while it pays with a coin, and the trader who moves a pool's price.
 */
async function impersonated(): Promise<string> {
  const address = Wallet.createRandom().address;
  await provider.send('anvil_impersonateAccount', [address]);
  await provider.send('anvil_setBalance', [address, toQuantity(parseEther('10'))]);
  return address;
}

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

const pogsBalance = (owner: string): Promise<bigint> => new Contract(config.tokenAddress!, ERC20, provider).getFunction('balanceOf')(owner);

/** Moves `owner`'s POGS (a dev account, unlocked on the chain) to `to`; resolves with how many. */
async function movePogs(owner: string, to: string, amount?: bigint): Promise<bigint> {
  const all = amount ?? (await pogsBalance(owner));
  const token = new Contract(config.tokenAddress!, ERC20, await provider.getSigner(owner));
  if (all > 0n) await mined(token.getFunction('transfer').send(to, all));
  return all;
}

/** Connects the Demo Wallet from the header. */
async function connectDemoWallet(page: Page) {
  await page.goto('/');
  await page.getByTestId('wallet-button').click();
  await page.getByTestId('wallet-chooser').locator(`[data-testid="wallet-option"][data-rdns="${DEMO_WALLET_RDNS}"]`).click();
  await expect(page.getByTestId('wallet-address')).toHaveText('0x7099...79C8');
  await closeToasts(page);
}

/**
 * Another trader buys POGS with `eth` in the pool the ETH quote swaps through (its router, its
 * WETH and fee, read from the quote's call): the price moves up. Resolves with how many POGS it got.
 */
async function traderBuysPogs(trader: string, quote: SwapQuote, eth: bigint): Promise<bigint> {
  const [, [swap]] = ROUTER.decodeFunctionData('multicall', quote.calls[0]!.data) as unknown as [bigint, string[]];
  const [params] = ROUTER.decodeFunctionData('exactOutputSingle', swap!) as unknown as [{ tokenIn: string; fee: bigint }];
  const before = await pogsBalance(trader);
  const router = new Contract(quote.calls[0]!.to, ROUTER, await provider.getSigner(trader));
  const args = {
    tokenIn: params.tokenIn,
    tokenOut: config.tokenAddress!,
    fee: params.fee,
    recipient: trader,
    amountIn: eth,
    amountOutMinimum: 0n,
    sqrtPriceLimitX96: 0n,
  };
  const gas = await router.getFunction('exactInputSingle').estimateGas(args, { value: eth });
  await mined(router.getFunction('exactInputSingle').send(args, { value: eth, gasLimit: (gas * 3n) / 2n }));
  return (await pogsBalance(trader)) - before;
}

/** The trader sells `amount` POGS back into the same pool (for WETH): the price comes back down. */
async function traderSellsPogs(trader: string, quote: SwapQuote, amount: bigint) {
  const [, [swap]] = ROUTER.decodeFunctionData('multicall', quote.calls[0]!.data) as unknown as [bigint, string[]];
  const [params] = ROUTER.decodeFunctionData('exactOutputSingle', swap!) as unknown as [{ tokenIn: string; fee: bigint }];
  const signer = await provider.getSigner(trader);
  await mined(
    new Contract(config.tokenAddress!, ['function approve(address, uint256) returns (bool)'], signer)
      .getFunction('approve')
      .send(quote.calls[0]!.to, amount),
  );
  const router = new Contract(quote.calls[0]!.to, ROUTER, signer);
  const args = {
    tokenIn: config.tokenAddress!,
    tokenOut: params.tokenIn,
    fee: params.fee,
    recipient: trader,
    amountIn: amount,
    amountOutMinimum: 0n,
    sqrtPriceLimitX96: 0n,
  };
  const gas = await router.getFunction('exactInputSingle').estimateGas(args);
  await mined(router.getFunction('exactInputSingle').send(args, { gasLimit: (gas * 3n) / 2n }));
}

/** The cart with one of the most stocked product, the drawer open and the pay button tapped; the checkout it made, and the quote once a coin is chosen. */
async function payFromDrawer(page: Page) {
  const { variant } = mostStocked(products);
  expect((await page.request.post('/api/cart/add', { data: { variantId: variant.id, quantity: 1 } })).ok()).toBe(true);
  await page.getByTestId('cart-button').click();
  const drawer = page.getByTestId('cart-drawer');
  await expect(drawer.getByTestId('cart-item')).toHaveCount(1);
  const checkout = page
    .waitForResponse((r) => new URL(r.url()).pathname === '/api/checkout' && r.request().method() === 'POST' && r.status() === 201)
    .then((r) => r.json() as Promise<Checkout>);
  await drawer.getByTestId('pay-button').click();
  return { drawer, checkout: await checkout };
}

/** Chooses `coin` in the open swap dialog; the shop's quote, once the dialog shows it. */
async function choose(page: Page, coin: 'ETH' | 'USDC'): Promise<SwapQuote> {
  const dialog = page.getByTestId('swap-dialog');
  const answered = page.waitForResponse((r) => /^\/api\/checkout\/[^/]+\/swap-quote$/.test(new URL(r.url()).pathname));
  await dialog.getByTestId(`swap-pay-with-${coin}`).click();
  const response = await answered;
  expect(response.status(), await response.text()).toBe(200);
  const quote = (await response.json()) as SwapQuote;
  await expect(dialog).toHaveAttribute('data-step', 'quote');
  const figures = quoteFigures(quote);
  await expect(dialog.getByTestId('swap-about')).toHaveText(figures.about);
  await expect(dialog.getByTestId('swap-at-most')).toHaveText(`${figures.atMost} ${coin}`);
  await expect(dialog.getByTestId('swap-fee-note')).toContainText('A swap pays its own network fee');
  return quote;
}

test.describe('paying with ETH or USDC when the POGS are short', () => {
  test('the Demo Wallet, its POGS moved away, pays with ETH, the store receives exactly the amount, and the order is made', async ({
    page,
  }, testInfo) => {
    test.setTimeout(180_000);
    expect(config.payWith).toEqual(expect.arrayContaining(['ETH', 'USDC']));
    const keeper = await impersonated();
    const kept = await movePogs(DEMO_ACCOUNT, keeper);
    try {
      expect(await pogsBalance(DEMO_ACCOUNT)).toBe(0n);
      await connectDemoWallet(page);

      const { drawer, checkout } = await payFromDrawer(page);
      const dialog = page.getByTestId('swap-dialog');
      await expect(dialog).toHaveAttribute('data-step', 'choose');
      await expect(dialog.getByTestId('swap-short')).toContainText('Insufficient POG balance. You need');
      await expect(drawer.getByTestId('pay-button')).toHaveText('Choose how to pay...');
      await page.screenshot({ path: testInfo.outputPath('swap-choose-390x844.png') });
      const quote = await choose(page, 'ETH');
      expect(quote.amountOutWei).toBe(checkout.amountWei);
      expect(quote.calls).toHaveLength(1);
      expect(BigInt(quote.amountInMax)).toBeGreaterThanOrEqual(BigInt(quote.amountIn));

      // The quote screen, as a phone and as a tablet show it.
      await page.screenshot({ path: testInfo.outputPath('swap-quote-390x844.png') });
      await page.setViewportSize({ width: 820, height: 1180 });
      await expect(dialog).toBeInViewport();
      await page.screenshot({ path: testInfo.outputPath('swap-quote-820x1180.png') });
      await page.setViewportSize({ width: 390, height: 844 });

      const storeBefore = await pogsBalance(config.storeWallet!);
      const ethBefore = await provider.getBalance(DEMO_ACCOUNT);
      const releaseRedirect = await holdShippingRedirect(page);
      const created = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/orders/create' && r.status() < 300);
      await dialog.getByTestId('swap-confirm').click();
      const order = (await (await created).json()) as Order;
      await expectToast(page, 'Order Created', 'Payment confirmed! Redirecting to shipping...');
      await expect(dialog).toBeHidden();

      // Exactly the checkout's amount reached the store; the wallet spent ETH (at most the bound and its fee), and no POGS.
      expect((await pogsBalance(config.storeWallet!)) - storeBefore).toBe(BigInt(checkout.amountWei));
      const spent = ethBefore - (await provider.getBalance(DEMO_ACCOUNT));
      expect(spent).toBeGreaterThan(BigInt(quote.amountIn) - 1n);
      expect(spent).toBeLessThan(BigInt(quote.amountInMax) + parseEther('0.01'));
      expect(await pogsBalance(DEMO_ACCOUNT)).toBe(0n);
      expect(order.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
      await releaseRedirect();

      await page.goto(`/order-confirmation?id=${encodeURIComponent(order.id)}`);
      await expect(page.getByTestId('order-confirmation').getByTestId('order-number')).toHaveText(order.id);

      // The admin's order view says how it was paid, on a tablet and a phone.
      await page.setViewportSize({ width: 820, height: 1180 });
      await logInAsAdmin(page);
      await page.getByTestId('admin-tab-orders').click();
      await page.getByTestId('orders-search').fill(order.id);
      await page.getByTestId('orders-search').press('Enter');
      await page.locator(`[data-testid="admin-order"][data-order-id="${order.id}"]`).click();
      const paidWith = page.getByTestId('order-detail').getByTestId('order-transfer-paid-with');
      await expect(paidWith).toContainText(/^Paid with \d[\d.]* ETH/);
      await page.screenshot({ path: testInfo.outputPath('admin-order-paid-with-eth-820x1180.png'), animations: 'disabled' });
      // On a phone, the sheet opened there.
      await page.keyboard.press('Escape');
      await page.setViewportSize({ width: 390, height: 844 });
      await page.locator(`[data-testid="admin-order"][data-order-id="${order.id}"]`).click();
      await expect(paidWith).toBeVisible();
      // Nothing wider than the sheet (the timeline names the payer's whole address).
      expect(await page.getByTestId('order-detail').evaluate((sheet) => sheet.scrollWidth - sheet.clientWidth)).toBeLessThanOrEqual(0);
      await page.screenshot({ path: testInfo.outputPath('admin-order-paid-with-eth-390x844.png'), animations: 'disabled' });
    } finally {
      await movePogs(keeper, DEMO_ACCOUNT, kept);
    }
  });

  test('the price moves past the quote’s bound: the swap is not sent, the shopper is told and shown a new quote, which pays', async ({
    page,
  }, testInfo) => {
    test.setTimeout(180_000);
    const keeper = await impersonated();
    const kept = await movePogs(DEMO_ACCOUNT, keeper);
    const trader = await impersonated();
    let bought = 0n;
    let quote: SwapQuote | null = null;
    try {
      await connectDemoWallet(page);
      const { checkout } = await payFromDrawer(page);
      quote = await choose(page, 'ETH');
      // 0.02 ETH of POGS: over 1 % of the pool, more than the 0.5 % bound allows for.
      bought = await traderBuysPogs(trader, quote, parseEther('0.02'));
      const sentBefore = await provider.getTransactionCount(DEMO_ACCOUNT);
      const dialog = page.getByTestId('swap-dialog');
      const requoted = page.waitForResponse((r) => /^\/api\/checkout\/[^/]+\/swap-quote$/.test(new URL(r.url()).pathname));
      await dialog.getByTestId('swap-confirm').click();
      const fresh = (await (await requoted).json()) as SwapQuote;
      await expect(dialog.getByTestId('swap-notice')).toHaveText('The price moved. Here is a new quote.');
      await page.screenshot({ path: testInfo.outputPath('swap-price-moved-390x844.png') });
      await expect(dialog.getByTestId('swap-about')).toHaveText(quoteFigures(fresh).about);
      expect(BigInt(fresh.amountIn)).toBeGreaterThan(BigInt(quote.amountInMax));
      // Nothing was sent: the wallet's estimate refused the swap.
      expect(await provider.getTransactionCount(DEMO_ACCOUNT)).toBe(sentBefore);
      await expect(page.getByTestId('cart-drawer').getByTestId('pay-button')).toHaveText('Choose how to pay...');

      const storeBefore = await pogsBalance(config.storeWallet!);
      const releaseRedirect = await holdShippingRedirect(page);
      const created = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/orders/create' && r.status() < 300);
      await dialog.getByTestId('swap-confirm').click();
      await created;
      await releaseRedirect();
      expect((await pogsBalance(config.storeWallet!)) - storeBefore).toBe(BigInt(checkout.amountWei));
    } finally {
      // The trader's POGS go back into the pool, so the demo's price is near where it was.
      if (bought > 0n && quote) await traderSellsPogs(trader, quote, bought);
      await movePogs(keeper, DEMO_ACCOUNT, kept);
    }
  });

  test('the Demo Wallet pays with USDC as a plain key: the approve, its receipt, then the swap', async ({ page }) => {
    test.setTimeout(180_000);
    const keeper = await impersonated();
    const kept = await movePogs(DEMO_ACCOUNT, keeper);
    try {
      await connectDemoWallet(page);
      const { checkout } = await payFromDrawer(page);
      const quote = await choose(page, 'USDC');
      expect(quote.calls).toHaveLength(2);
      const usdc = new Contract(quote.calls[0]!.to, ERC20, provider);
      const usdcBefore: bigint = await usdc.getFunction('balanceOf')(DEMO_ACCOUNT);
      const sentBefore = await provider.getTransactionCount(DEMO_ACCOUNT);
      const storeBefore = await pogsBalance(config.storeWallet!);
      const releaseRedirect = await holdShippingRedirect(page);
      const created = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/orders/create' && r.status() < 300);
      await page.getByTestId('swap-dialog').getByTestId('swap-confirm').click();
      const order = (await (await created).json()) as Order;
      await releaseRedirect();
      // Two transactions from the Demo Wallet's account: the approve and the swap (the order's).
      expect(await provider.getTransactionCount(DEMO_ACCOUNT)).toBe(sentBefore + 2);
      const swap = await provider.getTransaction(order.transactionHash!);
      expect(swap?.to?.toLowerCase()).toBe(quote.calls[1]!.to.toLowerCase());
      expect((await pogsBalance(config.storeWallet!)) - storeBefore).toBe(BigInt(checkout.amountWei));
      const spent = usdcBefore - (await usdc.getFunction('balanceOf')(DEMO_ACCOUNT));
      expect(spent).toBeGreaterThan(0n);
      expect(spent).toBeLessThanOrEqual(BigInt(quote.amountInMax));
    } finally {
      await movePogs(keeper, DEMO_ACCOUNT, kept);
    }
  });

  test('a smart wallet pays with USDC: approve and swap in one batch, its own gas, and gets its order', async ({ page }) => {
    test.setTimeout(180_000);
    const smart = await SmartAccountWallet.create(CHAIN_RPC, bundler.url);
    try {
      // No POGS; ETH for the swap's network fee (the shop pays it only for plain POGS transfers).
      await provider.send('anvil_setBalance', [smart.address, toQuantity(parseEther('1'))]);
      const wallet = await TestWallet.install(page, { smart });
      await page.goto('/');
      await page.getByTestId('wallet-button').click();
      await pickTestWallet(page, wallet);
      await closeToasts(page);

      const { checkout } = await payFromDrawer(page);
      const quote = await choose(page, 'USDC');
      expect(quote.calls).toHaveLength(2);
      // The shopper's USDC (dev account #2 holds the demo's): enough for the bound.
      const usdc = new Contract(quote.calls[0]!.to, ERC20, await provider.getSigner(DEV_ACCOUNTS[2]));
      await mined(usdc.getFunction('transfer').send(smart.address, parseUnits('100', 6)));

      const storeBefore = await pogsBalance(config.storeWallet!);
      const releaseRedirect = await holdShippingRedirect(page);
      const created = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/orders/create' && r.status() < 300);
      await page.getByTestId('swap-dialog').getByTestId('swap-confirm').click();
      await created;
      await expectToast(page, 'Order Created', 'Payment confirmed! Redirecting to shipping...');
      await releaseRedirect();

      expect((await pogsBalance(config.storeWallet!)) - storeBefore).toBe(BigInt(checkout.amountWei));
      // One user operation carrying both calls, with no paymaster; the wallet sent no transaction itself.
      expect(smart.operations).toHaveLength(1);
      const [{ op, final }] = smart.operations;
      expect(final).toEqual({});
      const [calls] = ACCOUNT.decodeFunctionData('executeBatch', op.callData) as unknown as [Array<[string, bigint, string]>];
      expect(calls.map(([to, , data]) => [to.toLowerCase(), data])).toEqual(quote.calls.map((c) => [c.to.toLowerCase(), c.data]));
      const methods = wallet.methods();
      expect(methods).toContain('wallet_sendCalls');
      expect(methods).not.toContain('eth_sendTransaction');
      const spentUsdc = parseUnits('100', 6) - (await usdc.getFunction('balanceOf')(smart.address));
      expect(spentUsdc).toBeLessThanOrEqual(BigInt(quote.amountInMax));
      expect(spentUsdc).toBeGreaterThan(0n);
    } finally {
      smart.dispose();
    }
  });
});
