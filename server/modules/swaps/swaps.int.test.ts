/**
 * Paying with ETH or USDC on a real chain (anvil) with Uniswap's published SwapRouter02, QuoterV2,
 * factory and pools (local mode's venue): what the quote says is what the swap takes, the store
 * receives exactly the checkout's amount and the watcher settles it; a price moved past the bound
 * or a passed deadline spends nothing but gas; and only the checkout's own browser gets a quote.
 */
import { Contract, ContractFactory, getAddress, Interface, MaxUint256, parseEther, parseUnits, type TransactionReceipt } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicConfigSchema } from '../../../common/api';
import { ErrorCode } from '../../../common/errors';
import { swapQuoteSchema, type SwapQuote, type WalletCall } from '../../../common/swap-pay';
import { createApp } from '../../app';
import { deployed, mined, receiptOf } from '../../chain/mined';
import uniswap from '../../chain/contracts/uniswap-v3.json';
import wethArtifact from '../../chain/contracts/demo-weth.json';
import { DEV_ACCOUNTS } from '../../chain/local-chain';
import { LOCAL_POOL_FEE, sqrtBig } from '../../chain/price-pool';
import { getState } from '../../lib/app-state';
import { swapChecks } from '../../ops/swap-checks';
import type { SwapConfig } from '../../swap-config';
import { testDatabaseKinds } from '../../test/databases';
import { startPayingShop, type PayingShop } from '../../test/paying';
import { Shopper } from '../../test/shopper';
import { useTestChain } from '../../test/use-test-chain';
import { ENTRY_POINTS, swapFacts } from './facts';
import { SwapQuotes, swapCallData } from './quote';

const testChain = useTestChain();
/** Anvil's account #4: ether, and no POGS or USDC. */
const ETH_ONLY = '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65';
/** Dev account #2: demo POGS and 100,000 demo USDC. */
const USDC_HOLDER = DEV_ACCOUNTS[2]!;
/** Dev account #3: the pools' liquidity provider, and here the trader who moves the price. */
const TRADER = DEV_ACCOUNTS[3]!;
const ERC20 = new Interface([
  'function balanceOf(address) view returns (uint256)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function approve(address spender, uint256 value) returns (bool)',
]);
/** Enough gas for any of these swaps, given explicitly to a transaction expected to revert (an estimate would refuse it). */
const FIXED_GAS = 600_000n;

describe.each(testDatabaseKinds)('paying with ETH or USDC on %s', (kind) => {
  let shop: PayingShop;
  let swap: SwapConfig;
  let pogs: string;
  let store: string;
  const provider = () => testChain.provider;

  beforeAll(async () => {
    shop = await startPayingShop(kind, testChain, { swapVenue: true });
    swap = shop.h.config.swap;
    pogs = shop.h.payments!.target.tokenAddress;
    store = shop.h.payments!.target.storeWallet;
  }, 120_000);
  afterAll(async () => {
    await shop?.h.close();
  });

  const balanceOf = async (token: string, owner: string) =>
    BigInt(
      ERC20.decodeFunctionResult(
        'balanceOf',
        await provider().call({ to: token, data: ERC20.encodeFunctionData('balanceOf', [owner]) }),
      )[0],
    );
  const usdc = () => swap.routes.USDC!.tokens[0]!;
  const weth = () => swap.routes.ETH!.tokens[0]!;
  const gasOf = (r: TransactionReceipt) => r.gasUsed * r.gasPrice;

  /** Sends the wallet's calls in order, as a wallet would; `fixedGas` for a call expected to revert. */
  async function sendCalls(from: string, calls: WalletCall[], fixedGas = false): Promise<TransactionReceipt[]> {
    const signer = await provider().getSigner(from);
    const receipts: TransactionReceipt[] = [];
    for (const call of calls) {
      const tx = { to: call.to, data: call.data, value: BigInt(call.value) };
      // Half as much again as estimated: the pools write an observation in each second's first block.
      const gasLimit = fixedGas ? FIXED_GAS : ((await provider().estimateGas({ ...tx, from })) * 3n) / 2n;
      const sent = await signer.sendTransaction({ ...tx, gasLimit });
      receipts.push(await receiptOf(provider(), sent.hash));
    }
    return receipts;
  }

  async function quoteFor(s: Shopper, checkoutId: string, payWith: string) {
    const res = await s.post(`/api/checkout/${checkoutId}/swap-quote`, { payWith });
    return { status: res.status, body: (await res.json()) as SwapQuote & { code?: string } };
  }
  async function quoted(s: Shopper, checkoutId: string, payWith: 'ETH' | 'USDC'): Promise<SwapQuote> {
    const { status, body } = await quoteFor(s, checkoutId, payWith);
    expect(status, JSON.stringify(body)).toBe(200);
    return swapQuoteSchema.parse(body);
  }

  it('lists the coins with a route in GET /api/config', async () => {
    const config = publicConfigSchema.parse(await (await shop.h.api('/api/config')).json());
    expect(config.payWith).toEqual(['ETH', 'USDC']);
  });

  it('pays with ETH: the quote is what the swap takes, the store gets the exact amount, the rest of the value comes back, the watcher settles it', async () => {
    const s = new Shopper(shop.h);
    const c = await shop.pay.checkout(s, shop.unlimited.id, ETH_ONLY);
    const q = await quoted(s, c.id, 'ETH');
    expect(q).toMatchObject({ checkoutId: c.id, payWith: 'ETH', decimals: 18, amountOutWei: c.amountWei, slippageBps: 50 });
    expect(q.calls).toHaveLength(1);
    expect(q.calls[0]).toMatchObject({ to: swap.router, value: q.amountInMax });
    const amountIn = BigInt(q.amountIn);
    expect(BigInt(q.amountInMax)).toBe((amountIn * 10_050n + 9_999n) / 10_000n);
    // The demo price, 60,000 POGS a WETH, plus the pool's 0.3 % fee and the price impact of
    // buying about 650 of its 100,000 POGS (some 0.65 %).
    const atPrice = BigInt(c.amountWei) / 60_000n;
    expect(amountIn > (atPrice * 1_009n) / 1_000n && amountIn < (atPrice * 1_011n) / 1_000n, `${amountIn} for ${atPrice}`).toBe(true);
    // The deadline: the quote's block time, or the clock's when later, plus the quote's lifetime.
    const block = await provider().getBlock(q.block);
    const deadline = Date.parse(q.expiresAt) / 1000;
    expect(deadline).toBeGreaterThanOrEqual(block!.timestamp + swap.quoteTtlSeconds);
    expect(Math.abs(deadline - swap.quoteTtlSeconds - Math.max(block!.timestamp, Date.now() / 1000))).toBeLessThan(5);

    const [storeBefore, ethBefore] = await Promise.all([balanceOf(pogs, store), provider().getBalance(ETH_ONLY)]);
    const [receipt] = await sendCalls(ETH_ONLY, q.calls);
    expect(receipt!.status).toBe(1);
    expect((await balanceOf(pogs, store)) - storeBefore).toBe(BigInt(c.amountWei));
    // Exactly the quote and the gas: the unspent ether went back in the same transaction.
    expect(ethBefore - (await provider().getBalance(ETH_ONLY))).toBe(amountIn + gasOf(receipt!));
    expect(await provider().getBalance(swap.router)).toBe(0n);

    await shop.h.payments!.watcher.tick();
    expect((await shop.pay.checkoutOf(s, c.id)).status).toBe('paid');
    // Paid: no quote any more.
    const again = await quoteFor(s, c.id, 'ETH');
    expect(again.status).toBe(409);
    expect(again.body.code).toBe(ErrorCode.checkoutClosed);
  });

  it('pays with USDC: approve, then the swap; the quote is what it takes and the store gets the exact amount', async () => {
    const s = new Shopper(shop.h);
    const c = await shop.pay.checkout(s, shop.unlimited.id, USDC_HOLDER);
    const q = await quoted(s, c.id, 'USDC');
    expect(q).toMatchObject({ payWith: 'USDC', decimals: 6, amountOutWei: c.amountWei });
    expect(q.calls.map((call) => [call.to, call.value])).toEqual([
      [usdc(), '0'],
      [swap.router, '0'],
    ]);
    // $0.05 a POGS, plus the pool's 0.05 % fee and the price impact of buying about 650 of its 100,000 POGS.
    const atPrice = (BigInt(c.amountWei) * 50_000n) / 10n ** 18n;
    const amountIn = BigInt(q.amountIn);
    expect(amountIn > (atPrice * 1_006n) / 1_000n && amountIn < (atPrice * 1_008n) / 1_000n, `${amountIn} for ${atPrice}`).toBe(true);

    const [storeBefore, usdcBefore] = await Promise.all([balanceOf(pogs, store), balanceOf(usdc(), USDC_HOLDER)]);
    const receipts = await sendCalls(USDC_HOLDER, q.calls);
    expect(receipts.map((r) => r.status)).toEqual([1, 1]);
    expect((await balanceOf(pogs, store)) - storeBefore).toBe(BigInt(c.amountWei));
    expect(usdcBefore - (await balanceOf(usdc(), USDC_HOLDER))).toBe(BigInt(q.amountIn));
    await shop.h.payments!.watcher.tick();
    expect((await shop.pay.checkoutOf(s, c.id)).status).toBe('paid');
  });

  it('a swap whose output is not the exact amount, or that delivers elsewhere, settles no checkout', async () => {
    const s = new Shopper(shop.h);
    const c = await shop.pay.checkout(s, shop.unlimited.id, ETH_ONLY);
    const before = (await shop.pay.checkoutOf(s, c.id)).status;
    const q = await quoted(s, c.id, 'ETH');
    const deadline = BigInt(Math.floor(Date.parse(q.expiresAt) / 1000));
    // Twice the quote's bound: the first swap moves the pool's price (the rest comes back).
    const amountInMax = 2n * BigInt(q.amountInMax);
    const own = (amountOut: bigint, recipient: string): WalletCall => ({
      to: swap.router,
      value: amountInMax.toString(),
      data: swapCallData({ path: swap.routes.ETH!, pogs, recipient, amountOut, amountInMax, deadline }, true),
    });
    const storeBefore = await balanceOf(pogs, store);
    // One wei short of the amount, to the store: it arrives, and names no checkout.
    const [short] = await sendCalls(ETH_ONLY, [own(BigInt(c.amountWei) - 1n, store)]);
    expect(short!.status).toBe(1);
    expect((await balanceOf(pogs, store)) - storeBefore).toBe(BigInt(c.amountWei) - 1n);
    // The exact amount, to the shopper's own wallet: nothing reaches the store.
    const [elsewhere] = await sendCalls(ETH_ONLY, [own(BigInt(c.amountWei), ETH_ONLY)]);
    expect(elsewhere!.status).toBe(1);
    expect(await balanceOf(pogs, ETH_ONLY)).toBe(BigInt(c.amountWei));
    expect((await balanceOf(pogs, store)) - storeBefore).toBe(BigInt(c.amountWei) - 1n);

    await shop.h.payments!.watcher.tick();
    const after = await shop.pay.checkoutOf(s, c.id);
    expect(after.status).toBe(before);
    expect(after.status).not.toBe('paid');
    expect(after.amountReceived).toBe('0.00');
  });

  it('refuses the swap when the price moved past the bound after the quote: nothing but gas is spent', async () => {
    const s = new Shopper(shop.h);
    const c = await shop.pay.checkout(s, shop.unlimited.id, ETH_ONLY);
    const q = await quoted(s, c.id, 'ETH');
    // Another trader buys 10,000 POGS from the same pool first (a tenth of its POGS: the price rises far past 0.5 %).
    const big = parseUnits('10000', 18);
    const data = swapCallData(
      { path: swap.routes.ETH!, pogs, recipient: TRADER, amountOut: big, amountInMax: parseEther('1'), deadline: MaxUint256 },
      true,
    );
    const [trade] = await sendCalls(TRADER, [{ to: swap.router, data, value: parseEther('1').toString() }]);
    expect(trade!.status).toBe(1);

    const [storeBefore, ethBefore] = await Promise.all([balanceOf(pogs, store), provider().getBalance(ETH_ONLY)]);
    const [receipt] = await sendCalls(ETH_ONLY, q.calls, true);
    expect(receipt!.status).toBe(0);
    expect(await balanceOf(pogs, store)).toBe(storeBefore);
    expect(ethBefore - (await provider().getBalance(ETH_ONLY))).toBe(gasOf(receipt!));
    // A new quote asks the new price, and goes through.
    const again = await quoted(s, c.id, 'ETH');
    expect(BigInt(again.amountIn) > BigInt(q.amountInMax)).toBe(true);
    expect((await sendCalls(ETH_ONLY, again.calls))[0]!.status).toBe(1);
    expect((await balanceOf(pogs, store)) - storeBefore).toBe(BigInt(c.amountWei));
  });

  it('counts the deadline from now, not from the newest block, on a chain that mined nothing for a while', async () => {
    const quotes = new SwapQuotes({ chain: shop.h.payments!.chain, config: swap, tokenAddress: pogs, storeWallet: store });
    const head = (await provider().getBlock('latest'))!.timestamp;
    // anvil mines only when sent to: wait until its newest block is 3 s old. (On the second
    // database's run the chain's clock is ahead of the wall's, moved by the deadline test: the
    // block's time is then the later one, which the last line checks.)
    if (head <= Date.now() / 1000) while (Date.now() / 1000 < head + 3) await new Promise((resolve) => setTimeout(resolve, 200));
    const asked = Math.floor(Date.now() / 1000);
    const q = await quotes.quote('ETH', 10n ** 18n);
    const block = (await provider().getBlock(q.block))!;
    expect(q.block).toBe((await provider().getBlock('latest'))!.number);
    expect(Date.parse(q.expiresAt) / 1000).toBeGreaterThanOrEqual(Math.max(asked, block.timestamp) + swap.quoteTtlSeconds);
  });

  it('refuses the swap once its deadline has passed: nothing but gas is spent', async () => {
    const s = new Shopper(shop.h);
    const c = await shop.pay.checkout(s, shop.unlimited.id, USDC_HOLDER);
    const q = await quoted(s, c.id, 'USDC');
    const deadline = Date.parse(q.expiresAt) / 1000;
    await provider().send('evm_setNextBlockTimestamp', [toHex(deadline + 1)]);
    const [storeBefore, usdcBefore] = await Promise.all([balanceOf(pogs, store), balanceOf(usdc(), USDC_HOLDER)]);
    const [approve, receipt] = await sendCalls(USDC_HOLDER, q.calls, true);
    expect(approve!.status).toBe(1);
    expect(receipt!.status).toBe(0);
    expect(await balanceOf(pogs, store)).toBe(storeBefore);
    expect(await balanceOf(usdc(), USDC_HOLDER)).toBe(usdcBefore);
  });

  it('quotes and executes a two-hop route (USDC → WETH → POGS), and the checks find its pools', async () => {
    const pricePool = (await getState<{ factory: string; positionManager: string }>(shop.h.database.db, 'local_price_pool'))!;
    await deployUsdcWethPool(pricePool.positionManager, usdc(), weth());
    const twoHops: SwapConfig = { ...swap, routes: { USDC: { tokens: [usdc(), weth()], fees: [LOCAL_POOL_FEE, LOCAL_POOL_FEE] } } };
    const quotes = new SwapQuotes({ chain: shop.h.payments!.chain, config: twoHops, tokenAddress: pogs, storeWallet: store });
    const amountOut = parseUnits('1234.5', 18) + 17n;
    const q = await quotes.quote('USDC', amountOut);
    // What the WETH it takes costs in USDC, plus that pool's 0.3 % fee and some 0.13 % of price impact:
    // the second hop is quoted on the first's output.
    const single = await new SwapQuotes({
      chain: shop.h.payments!.chain,
      config: { ...swap, routes: { ETH: swap.routes.ETH! } },
      tokenAddress: pogs,
      storeWallet: store,
    }).quote('ETH', amountOut);
    const wethAtPrice = (BigInt(single.amountIn) * 3000n * 10n ** 6n) / 10n ** 18n;
    expect(
      BigInt(q.amountIn) > (wethAtPrice * 1_003n) / 1_000n && BigInt(q.amountIn) < (wethAtPrice * 1_006n) / 1_000n,
      `${q.amountIn} for ${wethAtPrice}`,
    ).toBe(true);

    const [storeBefore, usdcBefore] = await Promise.all([balanceOf(pogs, store), balanceOf(usdc(), USDC_HOLDER)]);
    const receipts = await sendCalls(USDC_HOLDER, q.calls);
    expect(receipts.map((r) => r.status)).toEqual([1, 1]);
    expect((await balanceOf(pogs, store)) - storeBefore).toBe(amountOut);
    expect(usdcBefore - (await balanceOf(usdc(), USDC_HOLDER))).toBe(BigInt(q.amountIn));

    const checks = await swapChecks(twoHops, pogs, shop.h.payments!.chain);
    expect(checks.map((r) => r.status)).toEqual(['ok', 'ok']);
    expect(checks[1]!.found).toMatch(/^1 POGS costs 0\.0\d+ USDC through 0x[0-9a-fA-F]{40}, 0x[0-9a-fA-F]{40}$/);
  });

  it('the start checks pass the local venue, and name the setting to fix when a route, the router or the quoter is wrong', async () => {
    const chain = shop.h.payments!.chain;
    expect((await swapChecks(swap, pogs, chain)).map((r) => [r.name, r.status])).toEqual([
      ['pay with ETH or USDC: router', 'ok'],
      ['pay with ETH or USDC: ETH', 'ok'],
      ['pay with ETH or USDC: USDC', 'ok'],
    ]);
    expect(await swapChecks({ ...swap, routes: {} }, pogs, chain)).toEqual([
      expect.objectContaining({ status: 'ok', found: expect.stringMatching(/^off/) }),
    ]);

    const failed = async (config: SwapConfig) => (await swapChecks(config, pogs, chain)).find((r) => r.status === 'fail');
    // ETH's route must start with the router's WETH.
    expect(await failed({ ...swap, routes: { ETH: { tokens: [usdc()], fees: [500] } } })).toMatchObject({
      found: expect.stringContaining('wraps ether into'),
      fix: expect.stringContaining('SWAP_ETH_PATH'),
    });
    // A fee tier with no pool.
    expect(await failed({ ...swap, routes: { USDC: { tokens: [usdc()], fees: [10_000] } } })).toMatchObject({
      found: expect.stringContaining('has no pool'),
      fix: expect.stringContaining('SWAP_USDC_PATH'),
    });
    // USDC's route must start with a 6-decimal token.
    expect(await failed({ ...swap, routes: { USDC: { tokens: [weth()], fees: [LOCAL_POOL_FEE] } } })).toMatchObject({
      found: expect.stringContaining('18 decimals'),
      fix: expect.stringContaining('SWAP_USDC_PATH'),
    });
    // No contract at the router (Base's default address on this chain), or the quoter.
    expect(await failed({ ...swap, router: ETH_ONLY })).toMatchObject({ found: expect.stringContaining('SWAP_ROUTER') });
    expect(await failed({ ...swap, quoter: ETH_ONLY })).toMatchObject({ found: expect.stringContaining('SWAP_QUOTER') });
    // A contract that is not a quoter.
    expect(await failed({ ...swap, quoter: pogs })).toMatchObject({
      found: expect.stringContaining('not a QuoterV2'),
      fix: expect.stringContaining('SWAP_QUOTER'),
    });
    // A QuoterV2 of another venue (another factory): it would price pools the swap never touches.
    const deployer = await provider().getSigner(DEV_ACCOUNTS[0]!);
    const elsewhere = await deployed(
      new ContractFactory(uniswap.contracts.QuoterV2.abi, uniswap.contracts.QuoterV2.bytecode, deployer).deploy(pogs, weth()),
    );
    expect(await failed({ ...swap, quoter: await elsewhere.getAddress() })).toMatchObject({
      found: expect.stringContaining(`prices the pools of factory ${getAddress(pogs)}`),
      fix: expect.stringContaining('SWAP_QUOTER'),
    });
  });

  it("reads, as a shop on Base does at start, the facts that prove who paid a swap: the same pools as local mode's, ERC-4337's EntryPoints", async () => {
    const chain = shop.h.payments!.chain;
    const facts = (await swapFacts(swap, pogs, chain, DEV_ACCOUNTS[0]))!;
    const local = shop.h.swap!;
    expect(facts.router).toBe(swap.router.toLowerCase());
    expect([...facts.pools].sort()).toEqual([...local.pools].sort());
    expect(facts.pools).toHaveLength(2);
    expect(facts.usdc).toBe(usdc().toLowerCase());
    expect(facts.weth).toBe(weth().toLowerCase());
    expect(facts.entryPoints).toEqual([...ENTRY_POINTS, DEV_ACCOUNTS[0]].map((a) => a.toLowerCase()));
    // One route only: its pool alone; no route: nothing to prove.
    const wethPool = shop.h.config.priceReference.contracts!.pool.toLowerCase();
    expect((await swapFacts({ ...swap, routes: { ETH: swap.routes.ETH } }, pogs, chain))!.pools).toEqual([wethPool]);
    expect(await swapFacts({ ...swap, routes: {} }, pogs, chain)).toBeNull();
  });

  it("answers only the checkout's own browser, only for a known coin with a route; a quoter that fails is a 503", async () => {
    const s = new Shopper(shop.h);
    const c = await shop.pay.checkout(s, shop.unlimited.id, null);
    // A stranger (another browser, or none) learns nothing of someone else's checkout.
    const stranger = new Shopper(shop.h);
    await stranger.cart();
    for (const other of [stranger, new Shopper(shop.h)]) {
      const res = await quoteFor(other, c.id, 'ETH');
      expect(res.status).toBe(404);
      expect(res.body.code).toBe(ErrorCode.checkoutNotFound);
      expect(res.body).not.toHaveProperty('calls');
    }
    expect((await quoteFor(s, '00000000-0000-4000-8000-000000000000', 'ETH')).status).toBe(404);
    // Unknown coins and extra fields are refused before anything is read.
    for (const body of [{ payWith: 'DOGE' }, { payWith: 'eth' }, {}, { payWith: 'ETH', recipient: ETH_ONLY }]) {
      const res = await s.post(`/api/checkout/${c.id}/swap-quote`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    // A shop whose only route is ETH's: USDC is swap-unavailable (the same database, so the same session).
    const ethOnly = { ...swap, routes: { ETH: swap.routes.ETH! } };
    const quotes = new SwapQuotes({ chain: shop.h.payments!.chain, config: ethOnly, tokenAddress: pogs, storeWallet: store });
    const app = createApp({ ...shop.h.services.app, payments: { ...shop.h.services.app.payments!, swaps: quotes } });
    const server = app.listen(0, '127.0.0.1');
    try {
      await new Promise((r) => server.once('listening', r));
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/api/checkout/${c.id}/swap-quote`;
      const ask = (payWith: string) =>
        fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: s.cookie! },
          body: JSON.stringify({ payWith }),
        });
      const refused = await ask('USDC');
      expect(refused.status).toBe(409);
      expect(await refused.json()).toMatchObject({
        code: ErrorCode.swapUnavailable,
        message: expect.stringContaining('pay with POGS or ETH'),
      });
      expect((await ask('ETH')).status).toBe(200);
      expect(publicConfigSchema.parse(await (await fetch(new URL('/api/config', url))).json()).payWith).toEqual(['ETH']);
    } finally {
      await new Promise((r) => server.close(r));
    }
    // A quoter that does not answer a quote: swap-quote-failed, with a message that says what to do.
    const broken = new SwapQuotes({
      chain: shop.h.payments!.chain,
      config: { ...swap, quoter: pogs },
      tokenAddress: pogs,
      storeWallet: store,
    });
    await expect(broken.quote('ETH', BigInt(c.amountWei))).rejects.toMatchObject({ code: ErrorCode.swapQuoteFailed });
  });

  /** A USDC/WETH pool at 0.3 % ($3,000 a WETH) with full-range liquidity from the trader (20 WETH and $60,000). */
  async function deployUsdcWethPool(positionManager: string, usdcAddress: string, wethAddress: string) {
    const lp = await provider().getSigner(TRADER);
    const send = async (c: Contract, fn: string, args: unknown[], value?: bigint) => {
      const method = c.getFunction(fn);
      const overrides = value === undefined ? {} : { value };
      const estimate = await method.estimateGas(...args, overrides);
      return mined(method(...args, { ...overrides, gasLimit: (estimate * 3n) / 2n }));
    };
    const usdcPerWeth = 3000n * 10n ** 6n;
    const wethIs0 = BigInt(wethAddress) < BigInt(usdcAddress);
    const [token0, token1] = wethIs0 ? [wethAddress, usdcAddress] : [usdcAddress, wethAddress];
    const sqrtPriceX96 = wethIs0 ? sqrtBig((usdcPerWeth << 192n) / 10n ** 18n) : sqrtBig(((10n ** 18n) << 192n) / usdcPerWeth);
    const manager = new Contract(positionManager, uniswap.contracts.NonfungiblePositionManager.abi, lp);
    await send(manager, 'createAndInitializePoolIfNecessary', [token0, token1, LOCAL_POOL_FEE, sqrtPriceX96]);
    await send(new Contract(wethAddress, wethArtifact.abi, lp), 'deposit', [], parseEther('20'));
    for (const token of [wethAddress, usdcAddress]) await send(new Contract(token, ERC20, lp), 'approve', [positionManager, MaxUint256]);
    const [amount0, amount1] = wethIs0 ? [parseEther('20'), 20n * usdcPerWeth] : [20n * usdcPerWeth, parseEther('20')];
    await send(manager, 'mint', [
      {
        token0,
        token1,
        fee: LOCAL_POOL_FEE,
        tickLower: -887_220,
        tickUpper: 887_220,
        amount0Desired: amount0,
        amount1Desired: amount1,
        amount0Min: 0n,
        amount1Min: 0n,
        recipient: TRADER,
        deadline: MaxUint256,
      },
    ]);
  }
});

const toHex = (n: number) => `0x${n.toString(16)}`;
