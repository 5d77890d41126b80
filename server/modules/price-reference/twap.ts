/**
 * The dollar reference's arithmetic, pure and exact (bigint; no float touches a price): the pool's
 * time-weighted average tick from `observe`, the price of one POGS in the pool's other token at
 * that tick, times the Chainlink feed's answer, and every reason to show nothing instead
 * (`judgeReading`). What the chain answered comes in; the caller (reader.ts) asks the chain.
 */
import { formatUnits } from '../../../common/money';

/** The most a tick can be (TickMath.MAX_TICK of Uniswap v3). */
export const MAX_TICK = 887_272;

/** TickMath.getSqrtRatioAtTick's multipliers, by bit of |tick| from 0x2 up (Q128.128 of 1/√1.0001^bit). */
const RATIO_STEPS: readonly bigint[] = [
  0xfff97272373d413259a46990580e213an,
  0xfff2e50f5f656932ef12357cf3c7fdccn,
  0xffe5caca7e10e4e61c3624eaa0941cd0n,
  0xffcb9843d60f6159c9db58835c926644n,
  0xff973b41fa98c081472e6896dfb254c0n,
  0xff2ea16466c96a3843ec78b326b52861n,
  0xfe5dee046a99a2a811c461f1969c3053n,
  0xfcbe86c7900a88aedcffc83b479aa3a4n,
  0xf987a7253ac413176f2b074cf7815e54n,
  0xf3392b0822b70005940c7a398e4b70f3n,
  0xe7159475a2c29b7443b29c7fa6e889d9n,
  0xd097f3bdfd2022b8845ad8f792aa5825n,
  0xa9f746462d870fdf8a65dc1f90e061e5n,
  0x70d869a156d2a1b890bb3df62baf32f7n,
  0x31be135f97d08fd981231505542fcfa6n,
  0x9aa508b5b7a84e1c677de54f3e99bc9n,
  0x5d6af8dedb81196699c329225ee604n,
  0x2216e584f5fa1ea926041bedfe98n,
  0x48a170391f7dc42444e8fa2n,
];
const UINT256_MAX = (1n << 256n) - 1n;

/** √(1.0001^tick) as a Q64.96, bit for bit as Uniswap v3's TickMath.getSqrtRatioAtTick computes it. */
export function sqrtRatioAtTick(tick: number): bigint {
  if (!Number.isInteger(tick) || Math.abs(tick) > MAX_TICK) throw new RangeError(`not a tick: ${tick}`);
  const abs = Math.abs(tick);
  let ratio = abs & 1 ? 0xfffcb933bd6fad37aa2d162d1a594001n : 1n << 128n;
  RATIO_STEPS.forEach((step, i) => {
    if (abs & (2 << i)) ratio = (ratio * step) >> 128n;
  });
  if (tick > 0) ratio = UINT256_MAX / ratio;
  return (ratio >> 32n) + (ratio % (1n << 32n) === 0n ? 0n : 1n);
}

/**
 * The arithmetic mean tick between two tick cumulatives `seconds` apart, rounded towards negative
 * infinity as Uniswap's OracleLibrary.consult does.
 */
export function meanTick(olderCumulative: bigint, newerCumulative: bigint, seconds: number): number {
  if (!(Number.isInteger(seconds) && seconds > 0)) throw new RangeError(`seconds must be a positive integer, not ${seconds}`);
  const delta = newerCumulative - olderCumulative;
  const s = BigInt(seconds);
  let tick = delta / s; // bigint division truncates towards zero
  if (delta < 0n && delta % s !== 0n) tick -= 1n;
  return Number(tick);
}

/** The pool as the reference needs it: which side POGS is, and both tokens' decimals. */
export interface PoolSides {
  pogsIsToken0: boolean;
  pogsDecimals: number;
  otherDecimals: number;
}

/**
 * Dollars per 1 POGS, in units of 10^-18 (floored once, at the end): one POGS priced in the other
 * token at `tick` (Uniswap prices token0 in token1: 1.0001^tick raw units of token1 per raw unit
 * of token0) times the feed's answer (dollars per other token, with `feedDecimals` decimals).
 */
export function usdPerPogsAtTick(tick: number, sides: PoolSides, feed: { answer: bigint; decimals: number }): bigint {
  const sqrt = sqrtRatioAtTick(tick);
  const ratioX192 = sqrt * sqrt; // raw token1 per raw token0, times 2^192
  const q192 = 1n << 192n;
  const pogsUnit = 10n ** BigInt(sides.pogsDecimals);
  const scale = 10n ** 18n;
  const below = 10n ** BigInt(sides.otherDecimals) * 10n ** BigInt(feed.decimals);
  return sides.pogsIsToken0
    ? (pogsUnit * ratioX192 * feed.answer * scale) / (q192 * below)
    : (pogsUnit * q192 * feed.answer * scale) / (ratioX192 * below);
}

/**
 * The widest gap, in ticks, between the window's average and the last minute's that stays within
 * `bps` basis points of price (1 tick is 0.01 %): the largest d with 1.0001^d ≤ 1 + bps/10,000.
 * (A threshold read from the settings, never a price: a float is fine here.)
 */
export function gapTicks(bps: number): number {
  return Math.floor(Math.log1p(bps / 10_000) / Math.log1p(1 / 10_000) + 1e-9);
}

/** A Chainlink aggregator's latestRoundData(). */
export interface RoundData {
  roundId: bigint;
  answer: bigint;
  startedAt: bigint;
  updatedAt: bigint;
  answeredInRound: bigint;
}

/** What the chain answered at one block. */
export interface ChainReading {
  /** The block's time, in seconds: every age is measured against it, as a contract would (block.timestamp). */
  blockTimestamp: number;
  /** observe([window, recent, 0])'s tick cumulatives, or 'OLD' when the pool has no observation that old. */
  tickCumulatives: readonly [bigint, bigint, bigint] | 'OLD';
  feed: RoundData;
  feedDecimals: number;
  /** The L2 sequencer uptime feed's round (answer 0: up, 1: down; startedAt: when that status began). */
  sequencer: RoundData;
}

export interface ReferenceRules {
  windowSeconds: number;
  /** The short average the window's is compared with (the last minute). */
  recentSeconds: number;
  /** The oldest the feed's answer may be (its heartbeat and a margin). */
  feedMaxAgeSeconds: number;
  /** How long after the sequencer came back up nothing is shown. */
  sequencerGraceSeconds: number;
  /** The widest gap between the window's average tick and the recent one (gapTicks). */
  maxGapTicks: number;
}

export type Judgement = { ok: true; usdPerPogs: string; tick: number } | { ok: false; reason: string };

/**
 * The reference at one block, or why there is none. Hidden, never wrong: the sequencer down or
 * up for less than the grace period (prices on an L2 whose sequencer was down are stale), the
 * feed's answer stale, not positive or from an incomplete round, the pool without history as old
 * as the window, or the window's average more than the allowed gap from the last minute's (the
 * pool moved or is being moved: a spike lasting a block barely moves a 30-minute average, and a
 * push held long enough to move it shows in the last minute first).
 */
export function judgeReading(reading: ChainReading, sides: PoolSides, rules: ReferenceRules): Judgement {
  const now = BigInt(reading.blockTimestamp);
  const { sequencer, feed } = reading;
  if (sequencer.answer === 1n) return { ok: false, reason: 'the L2 sequencer is down' };
  if (sequencer.answer !== 0n) return { ok: false, reason: `the sequencer feed answered ${sequencer.answer}, neither up (0) nor down (1)` };
  if (sequencer.startedAt === 0n) return { ok: false, reason: 'the sequencer feed has no valid round' };
  if (now - sequencer.startedAt < BigInt(rules.sequencerGraceSeconds)) {
    return { ok: false, reason: `the sequencer came back up ${now - sequencer.startedAt} s ago, within the grace period` };
  }
  if (feed.answer <= 0n) return { ok: false, reason: `the feed's answer is not positive (${feed.answer})` };
  if (feed.updatedAt === 0n || feed.answeredInRound < feed.roundId) return { ok: false, reason: "the feed's round is incomplete" };
  if (now - feed.updatedAt > BigInt(rules.feedMaxAgeSeconds)) {
    return { ok: false, reason: `the feed's answer is ${now - feed.updatedAt} s old (at most ${rules.feedMaxAgeSeconds} s)` };
  }
  if (reading.tickCumulatives === 'OLD') {
    return { ok: false, reason: `the pool has no observation ${rules.windowSeconds} s old yet` };
  }
  const [windowAgo, recentAgo, current] = reading.tickCumulatives;
  const tick = meanTick(windowAgo, current, rules.windowSeconds);
  const recent = meanTick(recentAgo, current, rules.recentSeconds);
  if (Math.abs(tick - recent) > rules.maxGapTicks) {
    return {
      ok: false,
      reason: `the window's average tick ${tick} is ${Math.abs(tick - recent)} ticks from the last minute's (${recent})`,
    };
  }
  const usd = usdPerPogsAtTick(tick, sides, { answer: feed.answer, decimals: reading.feedDecimals });
  return { ok: true, usdPerPogs: formatUnits(usd, 18, 0), tick };
}
