/**
 * Local mode's swap venue, deployed as on Base, for shoppers who pay with ETH or USDC: Uniswap's
 * SwapRouter02 and QuoterV2 from their published artifacts (contracts/uniswap-v3.json, copied by
 * scripts/copy-uniswap-artifacts.ts) on the factory, position manager and WETH of the dollar
 * reference's deployment (server/chain/price-pool.ts), a 6-decimal USDC of our own (DemoUsdc,
 * 100,000 for each of dev accounts #1 to #3) and a POGS/USDC pool at the 0.05 % fee with
 * full-range liquidity at the demo's price, 1 POGS = $0.05. Paying with ETH swaps through the
 * POGS/WETH pool (0.3 %), paying with USDC through this one.
 *
 * Deployed once per chain from dev account #0; the liquidity comes from dev account #3 (100,000
 * of its demo POGS and the $5,000 of USDC they are worth). The addresses are remembered in
 * app_state and checked on every start, like the price pool's; a chain that lost them, or a new
 * price pool (a new WETH and factory), gets a fresh deployment.
 */
import { getAddress, JsonRpcProvider, parseUnits, ZeroAddress } from 'ethers';
import { BASE_CHAIN_ID } from '../../common/chain';
import type { Db } from '../db';
import { getState, setState } from '../lib/app-state';
import type { Logger } from '../lib/logger';
import type { SwapConfig } from '../swap-config';
import usdcArtifact from './contracts/demo-usdc.json' with { type: 'json' };
import uniswap from './contracts/uniswap-v3.json' with { type: 'json' };
import { DEV_ACCOUNTS } from './local-chain';
import { deployContract, fullRangePool, LIQUIDITY_PROVIDER, LOCAL_POOL_FEE, sqrtBig } from './price-pool';

/** The POGS/USDC pool's fee tier (0.05 %) and the widest ticks its spacing (10) allows. */
export const LOCAL_USDC_POOL_FEE = 500;
const FULL_RANGE_TICK = 887_270;
/** USDC's decimals, as on Base. */
export const USDC_DECIMALS = 6;
/** The demo's price in the pool: 1 POGS = $0.05, i.e. 50,000 USDC units per 10^18 POGS units. */
const USDC_UNITS_PER_POGS = 50_000n;
const POGS_UNIT = 10n ** 18n;
/** What dev account #3 puts in the pool, and what each of dev accounts #1..#3 starts with. */
const LIQUIDITY_POGS = parseUnits('100000', 18);
const USDC_EACH = parseUnits('100000', USDC_DECIMALS);
const DEPLOYER = DEV_ACCOUNTS[0];

/** What the venue is deployed on: the demo POGS and the price pool's WETH, factory and position manager. */
export interface SwapVenueBase {
  token: string;
  weth: string;
  factory: string;
  positionManager: string;
}

export interface LocalSwapVenue {
  /** SwapRouter02: exactOutputSingle / exactOutput inside multicall(deadline, …), refundETH. */
  router: string;
  /** QuoterV2: quoteExactOutputSingle / quoteExactOutput, read by eth_call. */
  quoter: string;
  /** The demo USDC (6 decimals). */
  usdc: string;
  /** The POGS/USDC pool (LOCAL_USDC_POOL_FEE). */
  usdcPool: string;
}

/**
 * The local chain's venue: found where app_state says it is (on the same token and price pool),
 * or deployed now (`deployed: true`).
 */
export async function ensureSwapVenue(
  db: Db,
  rpcUrl: string,
  pricePool: SwapVenueBase,
  logger?: Logger,
): Promise<LocalSwapVenue & { deployed: boolean }> {
  const provider = new JsonRpcProvider(rpcUrl, BASE_CHAIN_ID, { staticNetwork: true, cacheTimeout: -1 });
  try {
    const base = lowerCase(pricePool);
    const known = await getState<LocalSwapVenue & { base: SwapVenueBase }>(db, 'local_swap_venue');
    if (known && sameBase(known.base, base) && (await deployedAll(provider, known))) {
      const { base: _base, ...addresses } = known;
      return { ...addresses, deployed: false };
    }
    const venue = await deploySwapVenue(provider, pricePool);
    await setState(db, 'local_swap_venue', { ...venue, base });
    logger?.debug(venue, 'local swap router, quoter, USDC and POGS/USDC pool deployed');
    return { ...venue, deployed: true };
  } finally {
    provider.destroy();
  }
}

const lowerCase = (b: SwapVenueBase): SwapVenueBase => ({
  token: b.token.toLowerCase(),
  weth: b.weth.toLowerCase(),
  factory: b.factory.toLowerCase(),
  positionManager: b.positionManager.toLowerCase(),
});
const sameBase = (a: SwapVenueBase | undefined, b: SwapVenueBase) =>
  Boolean(a) && a!.token === b.token && a!.weth === b.weth && a!.factory === b.factory && a!.positionManager === b.positionManager;

async function deployedAll(provider: JsonRpcProvider, known: LocalSwapVenue): Promise<boolean> {
  const codes = await Promise.all([known.router, known.quoter, known.usdc, known.usdcPool].map((a) => provider.getCode(a)));
  return codes.every((code) => code !== '0x');
}

/** Deploys the venue on the chain `provider` reaches (also the tests' way to get one). */
export async function deploySwapVenue(provider: JsonRpcProvider, base: SwapVenueBase): Promise<LocalSwapVenue> {
  const deployer = await provider.getSigner(DEPLOYER);
  // factoryV2 is the zero address: only v2 swaps use it, and the shop's routes are v3 pools.
  const router = await deployContract(uniswap.contracts.SwapRouter02, deployer, ZeroAddress, base.factory, base.positionManager, base.weth);
  const quoter = await deployContract(uniswap.contracts.QuoterV2, deployer, base.factory, base.weth);
  const usdc = await deployContract(usdcArtifact, deployer, DEV_ACCOUNTS.slice(1), USDC_EACH);
  const usdcPool = await fullRangePool(provider, await provider.getSigner(LIQUIDITY_PROVIDER), {
    factory: base.factory,
    positionManager: base.positionManager,
    fee: LOCAL_USDC_POOL_FEE,
    fullRangeTick: FULL_RANGE_TICK,
    a: { token: base.token, amount: LIQUIDITY_POGS },
    b: { token: usdc, amount: (LIQUIDITY_POGS * USDC_UNITS_PER_POGS) / POGS_UNIT },
    // Uniswap prices token0 in token1 (in their smallest units): USDC per POGS, or POGS per USDC.
    sqrtPriceX96: (pogsIsToken0) =>
      pogsIsToken0 ? sqrtBig((USDC_UNITS_PER_POGS << 192n) / POGS_UNIT) : sqrtBig((POGS_UNIT << 192n) / USDC_UNITS_PER_POGS),
  });
  return { router, quoter, usdc, usdcPool };
}

/**
 * The swap settings with the local venue in place of Base's: its router and quoter, ETH through
 * the POGS/WETH pool (0.3 %), USDC through the POGS/USDC pool (0.05 %); the bounds stay as set.
 */
export function localSwapConfig(swap: SwapConfig, venue: LocalSwapVenue, weth: string): SwapConfig {
  return {
    ...swap,
    router: getAddress(venue.router),
    quoter: getAddress(venue.quoter),
    routes: {
      ETH: { tokens: [getAddress(weth)], fees: [LOCAL_POOL_FEE] },
      USDC: { tokens: [getAddress(venue.usdc)], fees: [LOCAL_USDC_POOL_FEE] },
    },
  };
}
