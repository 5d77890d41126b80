/**
 * Local mode's dollar reference, deployed as on Base: wrapped ether (DemoWeth, WETH9's interface),
 * Uniswap v3's factory and NonfungiblePositionManager from their published artifacts
 * (contracts/uniswap-v3.json, copied by scripts/copy-uniswap-artifacts.ts), a POGS/WETH pool at
 * the 0.3 % fee with full-range liquidity and room for 64 observations, and two Chainlink-style
 * feeds of our own (DemoAggregator): ETH/USD and the L2 sequencer's uptime. The demo price puts
 * 1 POGS at $0.05 (ETH at $3,000, 60,000 POGS a WETH), so the demo products (5 to 500 POGS) show
 * $0.25 to $25.
 *
 * Deployed once per chain from dev account #0 (the store wallet, which also owns the feeds); the
 * liquidity comes from dev account #3 (100,000 of its demo POGS and the ether they are worth).
 * The addresses are remembered in app_state and checked on every start, like the demo token's; a
 * chain that lost its state gets a fresh deployment.
 */
import { Contract, ContractFactory, JsonRpcProvider, MaxUint256, parseEther, parseUnits, ZeroAddress, type Signer } from 'ethers';
import { BASE_CHAIN_ID } from '../../common/chain';
import type { Db } from '../db';
import { getState, setState } from '../lib/app-state';
import type { Logger } from '../lib/logger';
import aggregatorArtifact from './contracts/demo-aggregator.json' with { type: 'json' };
import wethArtifact from './contracts/demo-weth.json' with { type: 'json' };
import uniswap from './contracts/uniswap-v3.json' with { type: 'json' };
import { DEV_ACCOUNTS } from './local-chain';
import { deployed, mined } from './mined';

/** The pool's fee tier (0.3 %) and the widest ticks its spacing (60) allows: a full-range position. */
export const LOCAL_POOL_FEE = 3000;
const FULL_RANGE_TICK = 887_220;
/** The demo's prices: ETH in dollars (the feed's answer, 8 decimals) and POGS per WETH in the pool ($0.05 a POGS). */
export const DEMO_ETH_USD = 3000n;
export const DEMO_POGS_PER_WETH = 60_000n;
const FEED_DECIMALS = 8;
/** What dev account #3 puts in the pool. */
const LIQUIDITY_POGS = parseUnits('100000', 18);
/** Observations the pool keeps (one per block that trades): local blocks are few, so 64 cover any window. */
const OBSERVATIONS = 64;
/** The sequencer feed reports the sequencer up since this long before its deployment (past any grace period). */
const SEQUENCER_UP_FOR_S = 86_400;
/** Who deploys and owns the feeds (the store wallet), and who provides the liquidity. */
const DEPLOYER = DEV_ACCOUNTS[0];
export const LIQUIDITY_PROVIDER = DEV_ACCOUNTS[3];

export interface LocalPricePool {
  pool: string;
  weth: string;
  factory: string;
  positionManager: string;
  /** The ETH/USD feed (8 decimals). */
  usdFeed: string;
  /** The L2 sequencer uptime feed (0: up). */
  sequencerFeed: string;
}

const POOL_ABI = ['function increaseObservationCardinalityNext(uint16 observationCardinalityNext)'];
const ERC20_APPROVE = ['function approve(address spender, uint256 value) returns (bool)'];

/**
 * The local chain's pool and feeds: found where app_state says they are, or deployed now
 * (`deployed: true`). `tokenAddress` is the demo POGS.
 */
export async function ensurePricePool(
  db: Db,
  rpcUrl: string,
  tokenAddress: string,
  logger?: Logger,
): Promise<LocalPricePool & { deployed: boolean }> {
  const provider = new JsonRpcProvider(rpcUrl, BASE_CHAIN_ID, { staticNetwork: true, cacheTimeout: -1 });
  try {
    const known = await getState<LocalPricePool & { token: string }>(db, 'local_price_pool');
    if (known && known.token === tokenAddress.toLowerCase() && (await deployedAll(provider, known))) {
      const { token: _token, ...addresses } = known;
      return { ...addresses, deployed: false };
    }
    const deployed = await deployPricePool(provider, tokenAddress);
    await setState(db, 'local_price_pool', { ...deployed, token: tokenAddress.toLowerCase() });
    logger?.debug(deployed, 'local POGS/WETH pool and feeds deployed');
    return { ...deployed, deployed: true };
  } finally {
    provider.destroy();
  }
}

async function deployedAll(provider: JsonRpcProvider, known: LocalPricePool): Promise<boolean> {
  const codes = await Promise.all([known.pool, known.usdFeed, known.sequencerFeed].map((a) => provider.getCode(a)));
  return codes.every((code) => code !== '0x');
}

/** Deploys the whole set on the chain `provider` reaches (also the tests' way to get one). */
export async function deployPricePool(provider: JsonRpcProvider, tokenAddress: string): Promise<LocalPricePool> {
  const deployer = await provider.getSigner(DEPLOYER);
  const lp = await provider.getSigner(LIQUIDITY_PROVIDER);
  const weth = await deployContract(wethArtifact, deployer);
  const factory = await deployContract(uniswap.contracts.UniswapV3Factory, deployer);
  const positionManager = await deployContract(uniswap.contracts.NonfungiblePositionManager, deployer, factory, weth, ZeroAddress);

  const liquidityWeth = LIQUIDITY_POGS / DEMO_POGS_PER_WETH;
  await sendWithMargin(new Contract(weth, wethArtifact.abi, lp), 'deposit', [], liquidityWeth + parseEther('0.01'));
  const pool = await fullRangePool(provider, lp, {
    factory,
    positionManager,
    fee: LOCAL_POOL_FEE,
    fullRangeTick: FULL_RANGE_TICK,
    a: { token: tokenAddress, amount: LIQUIDITY_POGS },
    b: { token: weth, amount: liquidityWeth },
    // Uniswap prices token0 in token1: WETH per POGS, or POGS per WETH.
    sqrtPriceX96: (pogsIsToken0) => (pogsIsToken0 ? sqrtBig((1n << 192n) / DEMO_POGS_PER_WETH) : sqrtBig(DEMO_POGS_PER_WETH << 192n)),
    beforeMint: (address) => sendWithMargin(new Contract(address, POOL_ABI, lp), 'increaseObservationCardinalityNext', [OBSERVATIONS]),
  });

  const now = (await provider.getBlock('latest'))!.timestamp;
  const usdFeed = await deployContract(
    aggregatorArtifact,
    deployer,
    FEED_DECIMALS,
    'ETH / USD',
    DEMO_ETH_USD * 10n ** BigInt(FEED_DECIMALS),
    now,
  );
  const sequencerFeed = await deployContract(
    aggregatorArtifact,
    deployer,
    0,
    'L2 Sequencer Uptime Status Feed',
    0,
    now - SEQUENCER_UP_FOR_S,
  );
  return { pool, weth, factory, positionManager, usdFeed, sequencerFeed };
}

/** Deploys `artifact` from `signer` with the constructor's `args`: its address, once mined. */
export async function deployContract(
  artifact: { abi: readonly object[] | unknown[]; bytecode: string },
  signer: Signer,
  ...args: unknown[]
): Promise<string> {
  const contract = await new ContractFactory(artifact.abi as object[], artifact.bytecode, signer).deploy(...args);
  await deployed(contract);
  return contract.getAddress();
}

/**
 * Sends `fn` with half as much gas again as estimated: a pool writes a price observation in the
 * first block of each second, so a transaction estimated in one second and mined in the next (a
 * loaded machine) needs more than its estimate, and would run out of gas.
 */
export async function sendWithMargin(c: Contract, fn: string, args: unknown[], value?: bigint) {
  const method = c.getFunction(fn);
  const overrides = value === undefined ? {} : { value };
  const estimate = await method.estimateGas(...args, overrides);
  return mined(method(...args, { ...overrides, gasLimit: (estimate * 3n) / 2n }));
}

/**
 * A Uniswap v3 pool of tokens `a` and `b` at `fee`, created at the price `sqrtPriceX96` gives
 * (told whether `a` is the pool's token0), with full-range liquidity of both amounts from `lp`
 * (which approves the position manager). `beforeMint` runs on the new pool before its liquidity.
 * Its address.
 */
export async function fullRangePool(
  provider: JsonRpcProvider,
  lp: Signer,
  opts: {
    factory: string;
    positionManager: string;
    fee: number;
    /** The widest tick the fee's spacing allows. */
    fullRangeTick: number;
    a: { token: string; amount: bigint };
    b: { token: string; amount: bigint };
    sqrtPriceX96: (aIsToken0: boolean) => bigint;
    beforeMint?: (pool: string) => Promise<unknown>;
  },
): Promise<string> {
  const aIsToken0 = BigInt(opts.a.token) < BigInt(opts.b.token);
  const [first, second] = aIsToken0 ? [opts.a, opts.b] : [opts.b, opts.a];
  const manager = new Contract(opts.positionManager, uniswap.contracts.NonfungiblePositionManager.abi, lp);
  await sendWithMargin(manager, 'createAndInitializePoolIfNecessary', [first.token, second.token, opts.fee, opts.sqrtPriceX96(aIsToken0)]);
  const pool = String(
    await new Contract(opts.factory, uniswap.contracts.UniswapV3Factory.abi, provider).getFunction('getPool')(
      first.token,
      second.token,
      opts.fee,
    ),
  );
  await opts.beforeMint?.(pool);
  for (const token of [first.token, second.token])
    await sendWithMargin(new Contract(token, ERC20_APPROVE, lp), 'approve', [opts.positionManager, MaxUint256]);
  await sendWithMargin(manager, 'mint', [
    {
      token0: first.token,
      token1: second.token,
      fee: opts.fee,
      tickLower: -opts.fullRangeTick,
      tickUpper: opts.fullRangeTick,
      amount0Desired: first.amount,
      amount1Desired: second.amount,
      amount0Min: 0n,
      amount1Min: 0n,
      recipient: await lp.getAddress(),
      deadline: MaxUint256,
    },
  ]);
  return pool;
}

/** ⌊√n⌋, exactly (Newton's method on bigints). */
export function sqrtBig(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}
