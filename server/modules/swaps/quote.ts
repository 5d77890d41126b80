/**
 * The quote of a swap that pays a checkout with ETH or USDC: how much of the coin buys exactly the
 * checkout's POGS through the coin's configured route, read from Uniswap's QuoterV2 by eth_call
 * at the chain's newest block, and the calls the shopper's wallet sends to make it. The swap's
 * recipient is the store wallet and its output the exact amount, so the store receives what a
 * POGS transfer would have carried; it may take at most the quote plus the slippage bound, and
 * only until its deadline (now, by the block's time or the clock's if later, plus the quote's lifetime).
 */
import { Interface, toQuantity } from 'ethers';
import { ErrorCode } from '../../../common/errors';
import type { PayWith, SwapQuote, WalletCall } from '../../../common/swap-pay';
import { AppError } from '../../lib/errors';
import { unavailableCause } from '../../lib/unavailable';
import type { SwapConfig, SwapPath } from '../../swap-config';
import type { ChainClient } from '../payments';
import { exactOutputPath, hopsOf } from './path';

/** Each coin's decimals (the quote's amounts are in its smallest unit). */
const DECIMALS: Record<PayWith, number> = { ETH: 18, USDC: 6 };
const BPS = 10_000n;

/** SwapRouter02's functions the wallet calls (the multicall with a deadline, as deployed on Base). */
export const ROUTER_ABI = new Interface([
  'function exactOutputSingle((address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 amountOut, uint256 amountInMaximum, uint160 sqrtPriceLimitX96) params) payable returns (uint256 amountIn)',
  'function exactOutput((bytes path, address recipient, uint256 amountOut, uint256 amountInMaximum) params) payable returns (uint256 amountIn)',
  'function refundETH() payable',
  'function multicall(uint256 deadline, bytes[] data) payable returns (bytes[] results)',
  'function WETH9() view returns (address)',
  /** The Uniswap v3 factory its pools are found on (SwapRouter02 calls it factory(); factoryV2() is v2's). */
  'function factory() view returns (address)',
]);
/** QuoterV2's quotes of an exact output (state-changing in the ABI, read by eth_call). */
export const QUOTER_ABI = new Interface([
  'function quoteExactOutputSingle((address tokenIn, address tokenOut, uint256 amount, uint24 fee, uint160 sqrtPriceLimitX96) params) returns (uint256 amountIn, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)',
  'function quoteExactOutput(bytes path, uint256 amountOut) returns (uint256 amountIn, uint160[] sqrtPriceX96AfterList, uint32[] initializedTicksCrossedList, uint256 gasEstimate)',
]);
const ERC20_ABI = new Interface(['function approve(address spender, uint256 value) returns (bool)']);

/** The most a swap may take: the quote plus `bps` of it, rounded up to the coin's smallest unit. */
export function withSlippage(amountIn: bigint, bps: number): bigint {
  const n = amountIn * (BPS + BigInt(bps));
  return (n + BPS - 1n) / BPS;
}

/** What quoteExactOutput(Single) is asked for `amountOut` of POGS through `path`. */
export function quoteCall(path: SwapPath, pogs: string, amountOut: bigint): string {
  if (path.tokens.length === 1) {
    const [hop] = hopsOf(path, pogs);
    return QUOTER_ABI.encodeFunctionData('quoteExactOutputSingle', [
      { tokenIn: hop!.tokenIn, tokenOut: hop!.tokenOut, amount: amountOut, fee: hop!.fee, sqrtPriceLimitX96: 0n },
    ]);
  }
  return QUOTER_ABI.encodeFunctionData('quoteExactOutput', [exactOutputPath(path, pogs), amountOut]);
}

/** The router's multicall that swaps at most `amountInMax` into exactly `amountOut` of POGS for `recipient`, until `deadline`. */
export function swapCallData(
  opts: { path: SwapPath; pogs: string; recipient: string; amountOut: bigint; amountInMax: bigint; deadline: bigint },
  refundEth: boolean,
): string {
  const { path, pogs, recipient, amountOut, amountInMax } = opts;
  const swap =
    path.tokens.length === 1
      ? ROUTER_ABI.encodeFunctionData('exactOutputSingle', [
          {
            tokenIn: path.tokens[0],
            tokenOut: hopsOf(path, pogs)[0]!.tokenOut,
            fee: path.fees[0],
            recipient,
            amountOut,
            amountInMaximum: amountInMax,
            sqrtPriceLimitX96: 0n,
          },
        ])
      : ROUTER_ABI.encodeFunctionData('exactOutput', [
          { path: exactOutputPath(path, pogs), recipient, amountOut, amountInMaximum: amountInMax },
        ]);
  const calls = refundEth ? [swap, ROUTER_ABI.encodeFunctionData('refundETH', [])] : [swap];
  return ROUTER_ABI.encodeFunctionData('multicall', [opts.deadline, calls]);
}

export interface SwapQuotesDeps {
  /** The shop's chain client (every call within its timeout). */
  chain: ChainClient;
  config: SwapConfig;
  /** POGS, what every route ends in. */
  tokenAddress: string;
  /** Where the swap delivers. */
  storeWallet: string;
}

/** Quotes swaps into POGS by the configured routes. */
export class SwapQuotes {
  constructor(private readonly deps: SwapQuotesDeps) {}

  /** The coins that have a route (GET /api/config's payWith). */
  coins(): PayWith[] {
    return (Object.keys(DECIMALS) as PayWith[]).filter((coin) => this.deps.config.routes[coin]);
  }

  /**
   * The quote for exactly `amountOut` of POGS paid with `payWith`: `swap-unavailable` when the
   * coin has no route, `swap-quote-failed` when the quoter refuses (no pool, no liquidity) or the
   * chain does not answer.
   */
  async quote(payWith: PayWith, amountOut: bigint): Promise<Omit<SwapQuote, 'checkoutId'>> {
    const { chain, config, tokenAddress, storeWallet } = this.deps;
    const path = config.routes[payWith];
    if (!path) {
      throw new AppError(ErrorCode.swapUnavailable, `This shop does not take ${payWith}: pay with POGS${this.otherCoins(payWith)}.`);
    }
    if (amountOut <= 0n) throw new AppError(ErrorCode.checkoutClosed, 'This checkout has nothing left to pay.');
    let block: { number: number; timestamp: number };
    let amountIn: bigint;
    try {
      ({ block, amountIn } = await chain.withinTimeout(async () => {
        const latest = await chain.latestBlock();
        const answer = String(
          await chain.request('eth_call', [
            { to: config.quoter, data: quoteCall(path, tokenAddress, amountOut) },
            toQuantity(latest.number),
          ]),
        );
        const fn = path.tokens.length === 1 ? 'quoteExactOutputSingle' : 'quoteExactOutput';
        return { block: latest, amountIn: BigInt(QUOTER_ABI.decodeFunctionResult(fn, answer)[0]) };
      }));
    } catch (err) {
      const outage = unavailableCause(err);
      throw new AppError(
        ErrorCode.swapQuoteFailed,
        outage
          ? `The shop cannot reach the chain to price a ${payWith} payment right now. Try again in a moment, or pay with POGS.`
          : `The pools cannot price this amount in ${payWith} right now. Try again in a moment, or pay with POGS.`,
        { expose: true, cause: err },
      );
    }
    const amountInMax = withSlippage(amountIn, config.slippageBps);
    // From the later of the block's time and the clock's: a chain that mines only when sent to (local
    // mode) can have a newest block far older than now, and its next block takes the time of now.
    const deadline = BigInt(Math.max(block.timestamp, Math.floor(Date.now() / 1000)) + config.quoteTtlSeconds);
    const router = config.router;
    const swap = swapCallData({ path, pogs: tokenAddress, recipient: storeWallet, amountOut, amountInMax, deadline }, payWith === 'ETH');
    const calls: WalletCall[] =
      payWith === 'ETH'
        ? [{ to: router, data: swap, value: amountInMax.toString() }]
        : [
            { to: path.tokens[0]!, data: ERC20_ABI.encodeFunctionData('approve', [router, amountInMax]), value: '0' },
            { to: router, data: swap, value: '0' },
          ];
    return {
      payWith,
      decimals: DECIMALS[payWith],
      amountOutWei: amountOut.toString(),
      amountIn: amountIn.toString(),
      amountInMax: amountInMax.toString(),
      slippageBps: config.slippageBps,
      block: block.number,
      expiresAt: new Date(Number(deadline) * 1000).toISOString(),
      calls,
    };
  }

  private otherCoins(payWith: PayWith): string {
    const others = this.coins().filter((c) => c !== payWith);
    return others.length ? ` or ${others.join(' or ')}` : '';
  }
}
