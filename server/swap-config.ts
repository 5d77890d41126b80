/**
 * Paying with ETH or USDC (docs/pay-with-eth-or-usdc.md), read by loadConfig: for each coin the
 * Uniswap v3 route its swap into POGS takes (off while unset), the router that swaps and the quoter
 * that prices it (Uniswap's SwapRouter02 and QuoterV2 on Base unless told), the slippage bound and
 * how long a quote stays good. A route is written as the coin's token, its pool's fee, then any
 * further `token:fee` hops; POGS, the last token, is implied.
 */
import { getAddress } from 'ethers';
import { z } from 'zod';
import { ADDRESS_PATTERN } from '../common/chain';
import type { PayWith } from '../common/swap-pay';
import { optional } from './lib/settings';

/** Uniswap's SwapRouter02 and QuoterV2 on Base (docs/pay-with-eth-or-usdc.md names the pages that list them). */
export const BASE_SWAP_ROUTER = '0x2626664c2603336E57B271c5C0b26F421741e481';
export const BASE_SWAP_QUOTER = '0x3d4e44Eb1374240CE5F1B871ab261CD16335B76a';

const address = z.string().regex(ADDRESS_PATTERN, 'must be a 0x-prefixed 20-byte address');
/** A fee tier is a uint24 in hundredths of a basis point (500 = 0.05 %, 3000 = 0.3 %, 10000 = 1 %). */
const MAX_FEE = 999_999;
const PATH_EXAMPLE = '0x4200000000000000000000000000000000000006:3000 (WETH, then the WETH/POGS pool at 0.3 %)';

/** One route into POGS: `tokens[i]` is swapped through its pool of fee `fees[i]` into `tokens[i + 1]`, the last into POGS. */
export interface SwapPath {
  tokens: string[];
  fees: number[];
}

/** `token:fee[:token:fee]…`, or a message saying what to write. */
export function parseSwapPath(text: string): SwapPath | string {
  const parts = text.trim().split(':');
  if (parts.length % 2 !== 0 || parts.length > 8) {
    return `must be the coin's token and its pool's fee, then any further token:fee hops (at most 4), POGS implied at the end, such as ${PATH_EXAMPLE}`;
  }
  const tokens: string[] = [];
  const fees: number[] = [];
  for (let i = 0; i < parts.length; i += 2) {
    const token = parts[i]!.trim();
    const fee = parts[i + 1]!.trim();
    if (!ADDRESS_PATTERN.test(token)) return `"${token}" is not a 0x-prefixed 20-byte token address (write ${PATH_EXAMPLE})`;
    if (!/^\d+$/.test(fee) || Number(fee) < 1 || Number(fee) > MAX_FEE) {
      return `"${fee}" is not a pool fee: write the fee tier in hundredths of a basis point, 100, 500, 3000 or 10000 (write ${PATH_EXAMPLE})`;
    }
    tokens.push(getAddress(token.toLowerCase()));
    fees.push(Number(fee));
  }
  if (new Set(tokens.map((t) => t.toLowerCase())).size !== tokens.length) return 'names a token twice: a route passes each token once';
  return { tokens, fees };
}

const swapPath = z.string().transform((v, ctx) => {
  const path = parseSwapPath(v);
  if (typeof path === 'string') {
    ctx.addIssue({ code: 'custom', message: path });
    return z.NEVER;
  }
  return path;
});

export const SWAP_SETTINGS = {
  /** The route ETH takes into POGS, from WETH (Base's 0x4200…0006): off while unset. */
  SWAP_ETH_PATH: optional(swapPath),
  /** The route USDC takes into POGS, from USDC (Base's 0x8335…2913): off while unset. */
  SWAP_USDC_PATH: optional(swapPath),
  /** Uniswap's SwapRouter02, which the shopper's wallet calls. */
  SWAP_ROUTER: optional(address),
  /** Uniswap's QuoterV2, which prices the swap (eth_call). */
  SWAP_QUOTER: optional(address),
  /** How much more than the quote the swap may take, in basis points of the quote. */
  SWAP_SLIPPAGE_BPS: z.coerce
    .number({ message: 'must be a whole number of basis points, 1 to 500 (50 = 0.5 %)' })
    .int('must be a whole number of basis points, 1 to 500 (50 = 0.5 %)')
    .min(1, 'must be at least 1 basis point (50 = 0.5 %)')
    .max(500, 'must be at most 500 basis points (5 %): a wider bound lets a trader take the difference')
    .default(50),
  /** How long a quote's swap may be sent: its deadline, on the chain's clock. */
  SWAP_QUOTE_TTL_SECONDS: z.coerce
    .number({ message: 'must be a number of seconds, 30 to 3600' })
    .int('must be a whole number of seconds, 30 to 3600')
    .min(30, 'must be at least 30 seconds: the shopper needs time to confirm in the wallet')
    .max(3600, 'must be at most 3600 seconds (an hour): an old quote is a stale price')
    .default(600),
};

type Parsed = z.infer<z.ZodObject<typeof SWAP_SETTINGS>>;

export interface SwapConfig {
  /** Each coin's route into POGS; a coin without one cannot be paid with (swap-unavailable). */
  routes: Partial<Record<PayWith, SwapPath>>;
  /** SwapRouter02 (its WETH9() must be the ETH route's first token). */
  router: string;
  /** QuoterV2. */
  quoter: string;
  slippageBps: number;
  quoteTtlSeconds: number;
}

/** The settings of paying with ETH or USDC once parsed. */
export function swapConfig(e: Parsed): SwapConfig {
  const routes: Partial<Record<PayWith, SwapPath>> = {};
  if (e.SWAP_ETH_PATH) routes.ETH = e.SWAP_ETH_PATH;
  if (e.SWAP_USDC_PATH) routes.USDC = e.SWAP_USDC_PATH;
  return {
    routes,
    router: getAddress((e.SWAP_ROUTER ?? BASE_SWAP_ROUTER).toLowerCase()),
    quoter: getAddress((e.SWAP_QUOTER ?? BASE_SWAP_QUOTER).toLowerCase()),
    slippageBps: e.SWAP_SLIPPAGE_BPS,
    quoteTtlSeconds: e.SWAP_QUOTE_TTL_SECONDS,
  };
}
