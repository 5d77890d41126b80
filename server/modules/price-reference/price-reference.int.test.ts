/**
 * The dollar reference on a real chain: Uniswap v3's own factory, position manager and pool (from
 * their published artifacts), real aggregator contracts, read through the shop's chain client.
 * Each database kind gets its own chain, begun three hours back so the pool has history once the
 * chain catches up with the clock (as local mode does).
 */
import { Contract, ContractFactory, JsonRpcProvider, MaxUint256, parseEther, type TransactionResponse } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderSchema, priceReferenceAnswerSchema } from '../../../common/api';
import { adminOrderDetailSchema } from '../../../common/payments-desk';
import { usdReference } from '../../../common/usd-reference';
import { BASE_CHAIN_ID } from '../../../common/chain';
import aggregatorArtifact from '../../chain/contracts/demo-aggregator.json';
import wethArtifact from '../../chain/contracts/demo-weth.json';
import uniswap from '../../chain/contracts/uniswap-v3.json';
import swapperArtifact from '../../test/contracts/pool-swapper.json';
import { DEV_ACCOUNTS, startLocalChain } from '../../chain/local-chain';
import { DEMO_ETH_USD, DEMO_POGS_PER_WETH, type LocalPricePool } from '../../chain/price-pool';
import { getState } from '../../lib/app-state';
import { priceReferenceChecks } from '../../ops/price-reference-checks';
import { createLogger } from '../../lib/logger';
import { createWorkers } from '../../workers';
import { ChainClient } from '../payments';
import { PriceReferenceService, checkPriceReference } from '.';
import { testDatabaseKinds } from '../../test/databases';
import { startPayingShop, type PayingShop } from '../../test/paying';
import { Shopper } from '../../test/shopper';
import type { TestChain } from '../../test/chain';
import { deployed, mined } from '../../chain/mined';

const TRADER = DEV_ACCOUNTS[2]!;
const BUYER = DEV_ACCOUNTS[1]!;
const SOURCE = 'Uniswap v3 POGS/WETH 30-min average × Chainlink ETH/USD';
const POOL_ABI = [
  'function token0() view returns (address)',
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16, uint16, uint16, uint8, bool)',
];

describe.each(testDatabaseKinds)('the dollar reference (%s)', (kind) => {
  let chain: TestChain & { stop(): Promise<void> };
  let shop: PayingShop;
  let reference: PriceReferenceService;
  let owner: Awaited<ReturnType<JsonRpcProvider['getSigner']>>;
  let usdFeed: Contract;
  let sequencerFeed: Contract;
  let pool: Contract;
  let pogsIsToken0: boolean;

  const provider = () => chain.provider;
  const head = async () => (await provider().getBlock('latest'))!;
  /** Mines the next block at exactly `timestamp`, with the transaction `send` makes, or empty. */
  const at = async (timestamp: number, send?: () => Promise<TransactionResponse>) => {
    await provider().send('anvil_setNextBlockTimestamp', [timestamp]);
    if (send) await mined(send());
    else await provider().send('evm_mine', []);
  };
  const api = async () => {
    const res = await shop.h.api('/api/price-reference');
    expect(res.status).toBe(200);
    return { res, body: priceReferenceAnswerSchema.parse(await res.json()) };
  };
  /** Dollars per POGS at `tick`, worked out in floats from the tick's definition (1.0001^tick token1 per token0). */
  const byFloats = (tick: number) => (pogsIsToken0 ? 1.0001 ** tick : 1.0001 ** -tick) * Number(DEMO_ETH_USD);
  const usd = async () => (await reference.refresh())?.usdPerPogs ?? null;

  beforeAll(async () => {
    const local = await startLocalChain({ port: 0, historySeconds: 3 * 3600 });
    const p = new JsonRpcProvider(local.rpcUrl, BASE_CHAIN_ID, { staticNetwork: true, cacheTimeout: -1 });
    chain = { chain: local, provider: p, stop: async () => (p.destroy(), local.stop()) };
    shop = await startPayingShop(kind, chain, { pricePool: true });
    await local.catchUpWithClock();
    reference = shop.h.services.priceReference!;
    const { contracts } = shop.h.config.priceReference;
    owner = await p.getSigner(DEV_ACCOUNTS[0]);
    usdFeed = new Contract(contracts!.usdFeed, aggregatorArtifact.abi, owner);
    sequencerFeed = new Contract(contracts!.sequencerFeed, aggregatorArtifact.abi, owner);
    pool = new Contract(contracts!.pool, POOL_ABI, p);
    pogsIsToken0 = String(await pool.getFunction('token0')()).toLowerCase() === shop.h.payments!.target.tokenAddress.toLowerCase();
  });
  afterAll(async () => {
    await shop?.h.close();
    await chain?.stop();
  });

  it('reads 1 POGS ≈ $0.05 from the pool and the feed, as the tick itself says, and answers it from memory', async () => {
    expect(await api().then((a) => a.body.reference)).toBeNull(); // nothing read yet
    const { tick } = await pool.getFunction('slot0')();
    const read = await reference.refresh();
    const block = (await head()).number;
    expect(read).toMatchObject({ block, source: SOURCE });
    const value = Number(read!.usdPerPogs);
    expect(Math.abs(value / byFloats(Number(tick)) - 1)).toBeLessThan(1e-9);
    // The demo's price, 60,000 POGS a WETH at $3,000: within the tick's width (0.01 %).
    expect(Math.abs(value / (Number(DEMO_ETH_USD) / Number(DEMO_POGS_PER_WETH)) - 1)).toBeLessThan(1e-4);
    const { res, body } = await api();
    expect(body.reference).toEqual({ ...read, observedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(res.headers.get('cache-control')).toBe('public, max-age=15');
  });

  it('is read by a background job of the workers, never by a request', async () => {
    expect(createWorkers(shop.h.services).jobs).toContain('price reference');
    const { contracts } = shop.h.config.priceReference;
    const fresh = new PriceReferenceService({
      chain: shop.h.payments!.chain,
      config: { ...shop.h.config.priceReference, contracts: contracts! },
      tokenAddress: shop.h.payments!.target.tokenAddress,
      logger: createLogger({ level: 'silent' }),
    });
    expect(fresh.current()).toBeNull();
    fresh.job.start(); // its first pass runs at once
    const deadline = Date.now() + 10_000;
    while (!fresh.current() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await fresh.job.stop();
    expect(fresh.current()).toMatchObject({ source: SOURCE, block: (await head()).number });
  });

  it('gives a stranger nothing but the public figure: no session, no write', async () => {
    const res = await shop.h.api('/api/price-reference');
    expect(res.headers.get('set-cookie')).toBeNull();
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const write = await shop.h.api('/api/price-reference', { method, headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(write.status, method).toBeGreaterThanOrEqual(400);
      expect(write.status, method).toBeLessThan(500);
    }
  });

  it('keeps the reference at the payment’s block with the order, and the buyer reads it', async () => {
    const s = new Shopper(shop.h);
    const checkout = await shop.pay.checkout(s, shop.unlimited.id, BUYER);
    const txHash = await shop.pay.send(BUYER, { value: BigInt(checkout.amountWei) });
    const created = await shop.pay.createOrder(s, { checkoutId: checkout.id, transactionHash: txHash });
    expect(created.status).toBe(201);
    await shop.h.payments!.settlement.referencesKept();
    const [row] = await shop.pay.ordersFor(txHash);
    const paidAt = Number(row!.block_number);
    expect(Number(row!.reference_block)).toBe(paidAt);
    const expected = await reference.atBlock(paidAt);
    expect(expected).toMatchObject({ block: paidAt, source: SOURCE });
    const order = orderSchema.parse(await (await s.request(`/api/orders/${row!.id}`)).json());
    expect(order.reference).toEqual(expected);
    expect(Math.abs(Number(order.reference!.usdPerPogs) / 0.05 - 1)).toBeLessThan(1e-4);
    // A stranger's session gets nothing of the order.
    expect((await new Shopper(shop.h).request(`/api/orders/${row!.id}`)).status).toBe(404);

    // The admin's orders view and the accountant's export give what was paid in dollars at that block.
    const dollars = usdReference(String(row!.amount_paid_wei), expected!.usdPerPogs)!;
    expect(dollars).toMatch(/^\d+\.\d\d$/);
    const admin = adminOrderDetailSchema.parse(
      await (await shop.h.api(`/api/admin/orders/${row!.id}`, { headers: { cookie: shop.admin } })).json(),
    );
    expect(admin).toMatchObject({ usdAtPayment: dollars, reference: expected });
    expect(admin.timeline.find((e) => e.kind === 'paid')!.text).toContain(`, ≈ $${dollars} at block ${paidAt} of `);
    const day = new Date().toISOString().slice(0, 10);
    const csv = await (
      await shop.h.api(`/api/admin/payments/export.csv?from=${day}&to=${day}`, { headers: { cookie: shop.admin } })
    ).text();
    const [header, ...lines] = csv.trim().split('\r\n');
    expect(header!.split(',').at(-1)).toBe('usd_at_payment');
    expect(
      lines
        .map((l) => l.split(','))
        .find((f) => f[1] === row!.id)
        ?.at(-1),
    ).toBe(dollars);
  });

  it('takes the nearest recent reading for a block the node cannot answer for', async () => {
    const shown = await reference.refresh();
    const beyond = (await head()).number + 1000; // no such block yet
    expect(await reference.atBlock(beyond)).toEqual({ usdPerPogs: shown!.usdPerPogs, block: shown!.block, source: SOURCE });
  });

  it('hides it while the feed is stale, answers nothing positive, or its round is incomplete', async () => {
    const now = (await head()).timestamp;
    const answer = DEMO_ETH_USD * 10n ** 8n;
    await mined(usdFeed.getFunction('setRound')(9, answer, now - 4000, now - 3700, 9));
    expect(await usd()).toBeNull();
    expect((await api()).body.reference).toBeNull();
    await mined(usdFeed.getFunction('setRound')(10, 0, now, 0, 10));
    expect(await usd()).toBeNull();
    await mined(usdFeed.getFunction('setRound')(11, answer, now, 0, 10));
    expect(await usd()).toBeNull();
    // A set gas limit: setAnswer writes the block's time, which costs more in a later second than
    // in the one it was estimated in (an estimate one second old ran out of gas on a loaded machine).
    await mined(usdFeed.getFunction('setAnswer')(answer, { gasLimit: 200_000n }));
    expect(await usd()).not.toBeNull();
  });

  it('hides it while the sequencer is down and for the grace period after', async () => {
    const now = (await head()).timestamp;
    await mined(sequencerFeed.getFunction('setRound')(2, 1, now, now, 2));
    expect(await usd()).toBeNull();
    const back = (await head()).timestamp;
    await mined(sequencerFeed.getFunction('setRound')(3, 0, back, back, 3));
    expect(await usd()).toBeNull(); // up again, within the hour's grace
    await at(back + 3601);
    expect(await usd()).not.toBeNull();
  });

  it('is not moved by a one-block spike: unchanged while it lasts, hidden just after, then within 0.1 % of before', async () => {
    const weth = await wethOf(shop);
    const trader = await provider().getSigner(TRADER);
    const swapper = await deployAs(trader, swapperArtifact);
    const wethToken = new Contract(weth, wethArtifact.abi, trader);
    await mined(wethToken.getFunction('deposit')({ value: parseEther('2') }));
    for (const token of [weth, shop.h.payments!.target.tokenAddress]) {
      await mined(
        new Contract(token, ['function approve(address,uint256) returns (bool)'], trader).getFunction('approve')(swapper, MaxUint256),
      );
    }
    const swap = (zeroForOne: boolean, amount: bigint) => () =>
      new Contract(swapper, swapperArtifact.abi, trader).getFunction('swap')(pool.target, zeroForOne, amount);
    const pogs = new Contract(shop.h.payments!.target.tokenAddress, ['function balanceOf(address) view returns (uint256)'], provider());

    const before = await usd();
    expect(before).not.toBeNull();
    const t = (await head()).timestamp;
    const pogsBefore = BigInt(await pogs.getFunction('balanceOf')(TRADER));
    // Buying POGS with 0.7 WETH roughly doubles POGS's price.
    await at(t + 10, swap(!pogsIsToken0, parseEther('0.7')));
    const { tick: spiked } = await pool.getFunction('slot0')();
    expect(byFloats(Number(spiked)) / Number(before)).toBeGreaterThan(1.8);
    expect(await usd()).toBe(before); // the spike's own block adds nothing to any average yet
    const bought = BigInt(await pogs.getFunction('balanceOf')(TRADER)) - pogsBefore;
    await at(t + 12, swap(pogsIsToken0, bought)); // sold back a block (2 s) later
    expect(await usd()).toBeNull(); // the last minute's average moved: hidden rather than doubted
    await at(t + 12 + 61);
    const after = await usd();
    expect(after).not.toBeNull();
    expect(Math.abs(Number(after) / Number(before) - 1)).toBeLessThan(0.001);
  });

  it('hides it while a push is held for minutes (the last minute far from the window)', async () => {
    const trader = await provider().getSigner(TRADER);
    const swapper = await deployAs(trader, swapperArtifact);
    for (const token of [await wethOf(shop), shop.h.payments!.target.tokenAddress]) {
      await mined(
        new Contract(token, ['function approve(address,uint256) returns (bool)'], trader).getFunction('approve')(swapper, MaxUint256),
      );
    }
    const t = (await head()).timestamp;
    await at(t + 10, () =>
      new Contract(swapper, swapperArtifact.abi, trader).getFunction('swap')(pool.target, !pogsIsToken0, parseEther('0.5')),
    );
    await at(t + 10 + 300);
    expect(await usd()).toBeNull();
  });

  it('hides it for a pool without history as old as the window', async () => {
    const lp = await provider().getSigner(DEV_ACCOUNTS[3]);
    const { contracts } = shop.h.config.priceReference;
    const weth = await wethOf(shop);
    const token = shop.h.payments!.target.tokenAddress;
    const [token0, token1] = pogsIsToken0 ? [token, weth] : [weth, token];
    const manager = new Contract((await positionManagerOf(shop))!, uniswap.contracts.NonfungiblePositionManager.abi, lp);
    await mined(manager.getFunction('createAndInitializePoolIfNecessary')(token0, token1, 500, 1n << 96n));
    const factory = new Contract(await manager.getFunction('factory')(), uniswap.contracts.UniswapV3Factory.abi, provider());
    const young = String(await factory.getFunction('getPool')(token0, token1, 500));
    const chainClient = new ChainClient({ ...shop.h.payments!.target, timeoutMs: 5000 });
    try {
      const config = { ...shop.h.config.priceReference, contracts: { ...contracts!, pool: young } };
      const { judged } = await checkPriceReference(chainClient, config, token);
      expect(judged).toEqual({ ok: false, reason: 'the pool has no observation 1800 s old yet' });
      const service = new PriceReferenceService({
        chain: chainClient,
        config,
        tokenAddress: token,
        logger: createLogger({ level: 'silent' }),
      });
      expect(await service.refresh()).toBeNull();
      expect(service.current()).toBeNull();
    } finally {
      chainClient.destroy();
    }
  });

  it('checks the settings at start: a pool without POGS, or a feed that is not one, is refused with what to change', async () => {
    const { contracts } = shop.h.config.priceReference;
    const token = shop.h.payments!.target.tokenAddress;
    const live = (over: Partial<NonNullable<typeof contracts>>) => ({
      ...shop.h.config.priceReference,
      contracts: { ...contracts!, ...over },
    });
    const chainClient = shop.h.payments!.chain;
    const good = await priceReferenceChecks(live({}), token, chainClient);
    expect(good[0]).toMatchObject({ status: 'ok', found: expect.stringContaining(SOURCE) });
    // POGS is another token than the pool's two.
    const [noPogs] = await priceReferenceChecks(live({}), contracts!.usdFeed, chainClient);
    expect(noPogs).toMatchObject({
      status: 'fail',
      found: expect.stringContaining('neither of them POGS'),
      fix: expect.stringContaining('PRICE_REFERENCE_POOL'),
    });
    const [notAFeed] = await priceReferenceChecks(live({ usdFeed: contracts!.pool }), token, chainClient);
    expect(notAFeed).toMatchObject({ status: 'fail', fix: expect.stringContaining('PRICE_REFERENCE_USD_FEED') });
    const [notAPool] = await priceReferenceChecks(live({ pool: contracts!.usdFeed }), token, chainClient);
    expect(notAPool).toMatchObject({ status: 'fail', fix: expect.stringContaining('Uniswap v3 pool') });
  });
});

/** Local mode's deployment as the harness recorded it (server/chain/price-pool.ts). */
async function deployment(shop: PayingShop): Promise<LocalPricePool> {
  return (await getState<LocalPricePool>(shop.h.database.db, 'local_price_pool'))!;
}
const wethOf = async (shop: PayingShop) => (await deployment(shop)).weth;
const positionManagerOf = async (shop: PayingShop) => (await deployment(shop)).positionManager;

async function deployAs(
  signer: Awaited<ReturnType<JsonRpcProvider['getSigner']>>,
  artifact: { abi: unknown[]; bytecode: string },
): Promise<string> {
  const contract = await new ContractFactory(artifact.abi as object[], artifact.bytecode, signer).deploy();
  await deployed(contract);
  return contract.getAddress();
}
