/**
 * Paying with ETH or USDC's part of the live start checks and of `npm run doctor`: the router and
 * the quoter are contracts, the router wraps ether into the ETH route's first token (its WETH9()),
 * every pool of each route exists on the router's factory and holds liquidity, USDC's route starts
 * with a 6-decimal token, and each route quotes 1 POGS. A failure names the setting to fix.
 */
import { formatUnits, getAddress, Interface, parseUnits, ZeroAddress } from 'ethers';
import type { PayWith } from '../../common/swap-pay';
import { unavailableCause } from '../lib/unavailable';
import type { ChainClient } from '../modules/payments';
import { hopsOf, QUOTER_ABI, quoteCall, ROUTER_ABI } from '../modules/swaps';
import type { SwapConfig, SwapPath } from '../swap-config';
import type { CheckResult } from './live-checks';

const NAME = 'pay with ETH or USDC';
const DOC = 'docs/pay-with-eth-or-usdc.md';
const FACTORY = new Interface(['function getPool(address tokenA, address tokenB, uint24 fee) view returns (address pool)']);
const POOL = new Interface(['function liquidity() view returns (uint128)']);
const ERC20 = new Interface(['function decimals() view returns (uint8)']);
const SETTING: Record<PayWith, string> = { ETH: 'SWAP_ETH_PATH', USDC: 'SWAP_USDC_PATH' };
const ONE_POGS = parseUnits('1', 18);

/** A setup problem: what was found and which setting to change. */
class SwapSetupError extends Error {
  constructor(
    message: string,
    readonly fix: string,
  ) {
    super(message);
  }
}

/** `tokenAddress`: POGS, where every route ends. */
export async function swapChecks(config: SwapConfig, tokenAddress: string, chain: ChainClient): Promise<CheckResult[]> {
  const coins = (Object.keys(config.routes) as PayWith[]).filter((c) => config.routes[c]);
  if (!coins.length)
    return [{ name: NAME, status: 'ok', found: 'off (SWAP_ETH_PATH and SWAP_USDC_PATH are not set): shoppers pay with POGS only' }];
  const call = async (to: string, iface: Interface, fn: string, args: unknown[]) =>
    iface.decodeFunctionResult(fn, String(await chain.request('eth_call', [{ to, data: iface.encodeFunctionData(fn, args) }, 'latest'])));
  const results: CheckResult[] = [];
  try {
    for (const [setting, address] of [
      ['SWAP_ROUTER', config.router],
      ['SWAP_QUOTER', config.quoter],
    ] as const) {
      if ((await chain.provider.getCode(address)) === '0x') {
        throw new SwapSetupError(
          `no contract at ${address} (${setting})`,
          `${setting} must be Uniswap's ${setting === 'SWAP_ROUTER' ? 'SwapRouter02' : 'QuoterV2'} on Base; unset, it is Uniswap's own deployment (${DOC})`,
        );
      }
    }
    let weth: string;
    let factory: string;
    try {
      weth = getAddress(String((await call(config.router, ROUTER_ABI, 'WETH9', []))[0]));
      factory = getAddress(String((await call(config.router, ROUTER_ABI, 'factory', []))[0]));
    } catch (err) {
      if (unavailableCause(err)) throw err;
      throw new SwapSetupError(
        `${config.router} does not answer WETH9() and factory(): not a SwapRouter02`,
        `SWAP_ROUTER must be Uniswap's SwapRouter02 (${DOC})`,
      );
    }
    // The quoter must price the router's pools: one of another venue (another factory or WETH)
    // quotes pools the swap never touches.
    let quoterVenue: [string, string] | null = null;
    try {
      quoterVenue = [
        getAddress(String((await call(config.quoter, ROUTER_ABI, 'factory', []))[0])),
        getAddress(String((await call(config.quoter, ROUTER_ABI, 'WETH9', []))[0])),
      ];
    } catch (err) {
      if (unavailableCause(err)) throw err;
    }
    if (!quoterVenue || quoterVenue[0] !== factory || quoterVenue[1] !== weth) {
      throw new SwapSetupError(
        quoterVenue
          ? `the quoter ${config.quoter} prices the pools of factory ${quoterVenue[0]} (WETH ${quoterVenue[1]}), the router swaps in factory ${factory} (WETH ${weth})`
          : `${config.quoter} does not answer factory() and WETH9(): not a QuoterV2`,
        `SWAP_QUOTER must be Uniswap's QuoterV2 of the router's factory (${DOC})`,
      );
    }
    results.push({
      name: `${NAME}: router`,
      status: 'ok',
      found: `SwapRouter02 ${config.router} (factory ${factory}, WETH ${weth}); QuoterV2 ${config.quoter}`,
    });
    for (const coin of coins)
      results.push(await routeCheck(coin, config.routes[coin]!, { weth, factory, tokenAddress, config, call, chain }));
    return results;
  } catch (err) {
    if (err instanceof SwapSetupError) return [...results, { name: NAME, status: 'fail', found: err.message, fix: err.fix }];
    const cause = unavailableCause(err);
    return [
      ...results,
      {
        name: NAME,
        status: 'fail',
        found: cause
          ? `the chain did not answer: ${cause.reason}`
          : (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 300),
        fix: `check BASE_RPC_URL and the SWAP_* settings (${DOC})`,
      },
    ];
  }
}

async function routeCheck(
  coin: PayWith,
  path: SwapPath,
  ctx: {
    weth: string;
    factory: string;
    tokenAddress: string;
    config: SwapConfig;
    chain: ChainClient;
    call: (to: string, iface: Interface, fn: string, args: unknown[]) => Promise<ReturnType<Interface['decodeFunctionResult']>>;
  },
): Promise<CheckResult> {
  const setting = SETTING[coin];
  const name = `${NAME}: ${coin}`;
  const fail = (found: string, fix: string): CheckResult => ({ name, status: 'fail', found, fix });
  const first = path.tokens[0]!;
  if (coin === 'ETH' && first.toLowerCase() !== ctx.weth.toLowerCase()) {
    return fail(
      `the route starts with ${first}, but the router wraps ether into ${ctx.weth}`,
      `${setting} must start with the router's WETH (${ctx.weth}:fee…), or SWAP_ROUTER must be the router of that WETH`,
    );
  }
  if (coin === 'USDC') {
    let decimals: number | null = null;
    try {
      decimals = Number((await ctx.call(first, ERC20, 'decimals', []))[0]);
    } catch (err) {
      if (unavailableCause(err)) throw err;
    }
    if (decimals !== 6) {
      return fail(
        `the route's first token ${first} ${decimals === null ? 'does not answer decimals()' : `has ${decimals} decimals`}`,
        `${setting} must start with USDC on Base (0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913, 6 decimals)`,
      );
    }
  }
  const pools: string[] = [];
  for (const hop of hopsOf(path, ctx.tokenAddress)) {
    const pool = String((await ctx.call(ctx.factory, FACTORY, 'getPool', [hop.tokenIn, hop.tokenOut, hop.fee]))[0]);
    const pair = `${hop.tokenIn} → ${hop.tokenOut} at fee ${hop.fee}`;
    if (pool === ZeroAddress) {
      return fail(
        `the router's factory has no pool ${pair}`,
        `${setting}: each hop must be a Uniswap v3 pool that exists on Base (check the fee tier)`,
      );
    }
    const liquidity = BigInt((await ctx.call(pool, POOL, 'liquidity', []))[0]);
    if (liquidity === 0n) return fail(`the pool ${pool} (${pair}) holds no liquidity in range`, `${setting}: choose a pool with liquidity`);
    pools.push(pool);
  }
  let amountIn: bigint;
  try {
    const fn = path.tokens.length === 1 ? 'quoteExactOutputSingle' : 'quoteExactOutput';
    const data = quoteCall(path, ctx.tokenAddress, ONE_POGS);
    amountIn = BigInt(
      QUOTER_ABI.decodeFunctionResult(fn, String(await ctx.chain.request('eth_call', [{ to: ctx.config.quoter, data }, 'latest'])))[0],
    );
  } catch (err) {
    if (unavailableCause(err)) throw err;
    return fail(
      `the quoter did not quote 1 POGS through ${pools.join(', ')}: ${(err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 200)}`,
      `SWAP_QUOTER must be Uniswap's QuoterV2 on the router's factory, and ${setting}'s pools must hold enough liquidity`,
    );
  }
  return {
    name,
    status: 'ok',
    found: `1 POGS costs ${formatUnits(amountIn, coin === 'ETH' ? 18 : 6)} ${coin} through ${pools.join(', ')}`,
  };
}
