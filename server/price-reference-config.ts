/**
 * The dollar reference's settings (docs/configuration-price-reference.md), read by loadConfig: a
 * Uniswap v3 pool on Base pairing POGS with WETH or a USD stablecoin, the Chainlink USD feed of
 * the pool's other token, Base's L2 sequencer uptime feed, and the rules that hide the reference
 * rather than show a wrong one. Off unless the pool is given; the pool without its feeds, or
 * without the feed's maximum age, is refused (each problem says what to add).
 */
import { z } from 'zod';
import { ADDRESS_PATTERN } from '../common/chain';
import { optional } from './lib/settings';

const address = z.string().regex(ADDRESS_PATTERN, 'must be a 0x-prefixed 20-byte address');

export const PRICE_REFERENCE_SETTINGS = {
  /** The Uniswap v3 pool of POGS and WETH (or a USD stablecoin) whose time-weighted average prices POGS. */
  PRICE_REFERENCE_POOL: optional(address),
  /** Chainlink's USD feed of the pool's other token (ETH/USD for WETH, USDC/USD for USDC). */
  PRICE_REFERENCE_USD_FEED: optional(address),
  /** Chainlink's L2 sequencer uptime feed of Base. */
  PRICE_REFERENCE_SEQUENCER_FEED: optional(address),
  /** The average's window: the pool must have observations this old. */
  PRICE_REFERENCE_TWAP_SECONDS: z.coerce.number().int().min(300).max(86_400).default(1800),
  /** The oldest the feed's answer may be: its heartbeat and a margin (required with the pool). */
  PRICE_REFERENCE_FEED_MAX_AGE_SECONDS: optional(
    z.coerce
      .number()
      .int()
      .min(60)
      .max(7 * 86_400),
  ),
  /** How long after the sequencer comes back up nothing is shown. */
  PRICE_REFERENCE_SEQUENCER_GRACE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(3600),
  /** The widest gap between the window's average and the last minute's, in basis points of price. */
  PRICE_REFERENCE_MAX_GAP_BPS: z.coerce.number().int().min(1).max(5000).default(200),
};

type Parsed = z.infer<z.ZodObject<typeof PRICE_REFERENCE_SETTINGS>>;

/** The contracts the reference is read from. */
export interface PriceReferenceContracts {
  pool: string;
  usdFeed: string;
  sequencerFeed: string;
}

export interface PriceReferenceConfig {
  /** Null: no reference (not configured); local mode fills in its own deployment. */
  contracts: PriceReferenceContracts | null;
  windowSeconds: number;
  feedMaxAgeSeconds: number;
  sequencerGraceSeconds: number;
  maxGapBps: number;
}

/** The feed's maximum age in local mode, whose demo feed reports itself current at every block. */
const LOCAL_FEED_MAX_AGE_S = 3600;

/** Which settings must come together (`isSet`: the setting is given and not blank). */
export function priceReferenceProblems(isSet: (key: string) => boolean): string[] {
  if (!isSet('PRICE_REFERENCE_POOL')) {
    const orphans = ['PRICE_REFERENCE_USD_FEED', 'PRICE_REFERENCE_SEQUENCER_FEED', 'PRICE_REFERENCE_FEED_MAX_AGE_SECONDS'].filter(isSet);
    return orphans.length
      ? [
          `${orphans.join(', ')} ${orphans.length > 1 ? 'are' : 'is'} set without PRICE_REFERENCE_POOL: set the pool to show the dollar reference, or remove ${orphans.length > 1 ? 'them' : 'it'}`,
        ]
      : [];
  }
  const problems: string[] = [];
  if (!isSet('PRICE_REFERENCE_USD_FEED')) {
    problems.push(
      "PRICE_REFERENCE_POOL is set but PRICE_REFERENCE_USD_FEED is not: the pool prices POGS in its other token, and the reference needs Chainlink's USD feed of that token (ETH/USD on Base for a WETH pool, USDC/USD for USDC). Add it, or remove PRICE_REFERENCE_POOL to show no reference",
    );
  }
  if (!isSet('PRICE_REFERENCE_SEQUENCER_FEED')) {
    problems.push(
      "PRICE_REFERENCE_POOL is set but PRICE_REFERENCE_SEQUENCER_FEED is not: Base's prices are stale while its sequencer is down, so the reference needs Chainlink's L2 sequencer uptime feed for Base. Add it, or remove PRICE_REFERENCE_POOL",
    );
  }
  if (!isSet('PRICE_REFERENCE_FEED_MAX_AGE_SECONDS')) {
    problems.push(
      "PRICE_REFERENCE_POOL is set but PRICE_REFERENCE_FEED_MAX_AGE_SECONDS is not: give the USD feed's heartbeat (on Chainlink's page of the feed) plus a margin, in seconds; an older answer hides the reference",
    );
  }
  return problems;
}

/** The reference's settings once loadConfig has refused what does not go together. */
export function priceReferenceConfig(e: Parsed): PriceReferenceConfig {
  const rules = {
    windowSeconds: e.PRICE_REFERENCE_TWAP_SECONDS,
    feedMaxAgeSeconds: e.PRICE_REFERENCE_FEED_MAX_AGE_SECONDS ?? LOCAL_FEED_MAX_AGE_S,
    sequencerGraceSeconds: e.PRICE_REFERENCE_SEQUENCER_GRACE_SECONDS,
    maxGapBps: e.PRICE_REFERENCE_MAX_GAP_BPS,
  };
  const { PRICE_REFERENCE_POOL: pool, PRICE_REFERENCE_USD_FEED: usdFeed, PRICE_REFERENCE_SEQUENCER_FEED: sequencerFeed } = e;
  return { contracts: pool && usdFeed && sequencerFeed ? { pool, usdFeed, sequencerFeed } : null, ...rules };
}
