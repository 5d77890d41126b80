import { describe, expect, it } from 'vitest';
import {
  gapTicks,
  judgeReading,
  MAX_TICK,
  meanTick,
  sqrtRatioAtTick,
  usdPerPogsAtTick,
  type ChainReading,
  type PoolSides,
  type ReferenceRules,
} from './twap';

const Q96 = 1n << 96n;

describe('sqrtRatioAtTick', () => {
  it('answers TickMath’s own bounds and its middle', () => {
    expect(sqrtRatioAtTick(0)).toBe(Q96);
    expect(sqrtRatioAtTick(-MAX_TICK)).toBe(4295128739n); // TickMath.MIN_SQRT_RATIO
    expect(sqrtRatioAtTick(MAX_TICK)).toBe(1461446703485210103287273052203988822378723970342n); // MAX_SQRT_RATIO
  });

  it.each([1, -1, 50, -50, 100, 6931, -6931, 46054, -306283, 200_000, -200_000, 887_000])(
    'is √1.0001^%i within 1e-10 (the float’s own error grows with the tick)',
    (tick) => {
      const expected = Math.sqrt(1.0001 ** tick);
      const got = Number((sqrtRatioAtTick(tick) * 10n ** 30n) / Q96) / 1e30;
      expect(Math.abs(got / expected - 1)).toBeLessThan(1e-10);
    },
  );

  it('refuses what is not a tick', () => {
    expect(() => sqrtRatioAtTick(MAX_TICK + 1)).toThrow(RangeError);
    expect(() => sqrtRatioAtTick(1.5)).toThrow(RangeError);
  });
});

describe('meanTick', () => {
  it.each([
    // older, newer, seconds, tick
    [0n, 180_000n, 1800, 100],
    [1_000n, 1_000n, 1800, 0],
    [0n, 1_799n, 1800, 0], // 0.9994 → 0
    [0n, -1n, 1800, -1], // -0.0005 → -1, towards negative infinity
    [0n, -1_800n, 1800, -1], // exactly -1
    [0n, -1_801n, 1800, -2],
    [500n, -3_600n * 306_283n + 500n, 3600, -306_283],
    [-5_000_000_000n, -5_000_000_000n + 60n * 7n, 60, 7],
  ])('(%s → %s) over %i s is %i', (older, newer, seconds, tick) => {
    expect(meanTick(older, newer, seconds)).toBe(tick);
  });

  it('refuses a window that is not a positive whole number of seconds', () => {
    expect(() => meanTick(0n, 1n, 0)).toThrow(RangeError);
    expect(() => meanTick(0n, 1n, 1.5)).toThrow(RangeError);
  });
});

/** OracleLibrary.getQuoteAtTick, written out (FullMath.mulDiv is an exact floor in bigint). */
function quoteAtTick(tick: number, baseAmount: bigint, baseIsToken0: boolean): bigint {
  const sqrt = sqrtRatioAtTick(tick);
  if (sqrt <= (1n << 128n) - 1n) {
    const r = sqrt * sqrt;
    return baseIsToken0 ? (r * baseAmount) / (1n << 192n) : ((1n << 192n) * baseAmount) / r;
  }
  const r = (sqrt * sqrt) / (1n << 64n);
  return baseIsToken0 ? (r * baseAmount) / (1n << 128n) : ((1n << 128n) * baseAmount) / r;
}

describe('usdPerPogsAtTick', () => {
  const e18 = 10n ** 18n;
  const eth = (pogsIsToken0: boolean): PoolSides => ({ pogsIsToken0, pogsDecimals: 18, otherDecimals: 18 });
  const usdc = (pogsIsToken0: boolean): PoolSides => ({ pogsIsToken0, pogsDecimals: 18, otherDecimals: 6 });

  it.each([
    // tick, sides, feed answer, feed decimals, dollars per POGS × 10^18
    [0, eth(true), 3000_00000000n, 8, 3000n * e18],
    [0, eth(false), 3000_00000000n, 8, 3000n * e18],
    [0, usdc(true), 1_00000000n, 8, 10n ** 12n * e18], // 1 raw per raw: 10^12 USDC per POGS
    [0, usdc(false), 1_00000000n, 8, 10n ** 12n * e18],
    [0, eth(true), 1n, 0, e18],
  ])('tick %i, %o, answer %s (%i decimals) → %s', (tick, sides, answer, decimals, expected) => {
    expect(usdPerPogsAtTick(tick, sides, { answer, decimals })).toBe(expected);
  });

  it('is OracleLibrary’s quote of one POGS, times the feed, when POGS is either token', () => {
    for (const tick of [-306_283, -110_000, -1, 0, 1, 46_054, 110_000]) {
      expect(usdPerPogsAtTick(tick, eth(true), { answer: 1n, decimals: 0 })).toBe(quoteAtTick(tick, e18, true));
      // The quote floors POGS in the other token first; ours floors once, after the feed.
      const viaQuote = quoteAtTick(tick, e18, false);
      const ours = usdPerPogsAtTick(tick, eth(false), { answer: 1n, decimals: 0 });
      expect(ours - viaQuote).toBeGreaterThanOrEqual(0n);
      expect(ours - viaQuote).toBeLessThanOrEqual(1n);
    }
  });

  it('puts 1 POGS at $0.05 for a WETH pool at tick -110,000 and ETH at $3,000 (1.0001^-110000 × 3000)', () => {
    for (const pogsIsToken0 of [true, false]) {
      const tick = pogsIsToken0 ? -110_000 : 110_000;
      const usd = usdPerPogsAtTick(tick, eth(pogsIsToken0), { answer: 3000_00000000n, decimals: 8 });
      const float = 1.0001 ** -110_000 * 3000;
      expect(Math.abs(Number(usd) / 1e18 / float - 1)).toBeLessThan(1e-10);
    }
  });

  it('follows the decimals of a 6-decimal stablecoin', () => {
    // 1 POGS = 0.05 USDC: 0.05e6 raw per 1e18 raw, 1.0001^tick = 5e-14.
    const tick = Math.floor(Math.log(5e-14) / Math.log(1.0001));
    const usd = usdPerPogsAtTick(tick, usdc(true), { answer: 99_980_000n, decimals: 8 });
    const float = 1.0001 ** tick * 1e12 * 0.9998;
    expect(Math.abs(Number(usd) / 1e18 / float - 1)).toBeLessThan(1e-10);
    expect(Math.abs(Number(usd) / 1e18 / 0.05 - 1)).toBeLessThan(0.0003); // one tick and the feed's 0.02 %
  });
});

describe('gapTicks', () => {
  it.each([
    [0, 0],
    [1, 1], // 1.0001^1 is exactly 1 + 1 bps
    [100, 99],
    [200, 198],
    [1000, 953],
  ])('%i bps is %i ticks', (bps, ticks) => {
    expect(gapTicks(bps)).toBe(ticks);
    expect(1.0001 ** ticks).toBeLessThanOrEqual(1 + bps / 10_000 + 1e-12);
    expect(1.0001 ** (ticks + 1)).toBeGreaterThan(1 + bps / 10_000);
  });
});

describe('judgeReading', () => {
  const T = 1_800_000_000;
  const rules: ReferenceRules = {
    windowSeconds: 1800,
    recentSeconds: 60,
    feedMaxAgeSeconds: 3600,
    sequencerGraceSeconds: 3600,
    maxGapTicks: 198,
  };
  const sides: PoolSides = { pogsIsToken0: true, pogsDecimals: 18, otherDecimals: 18 };
  const round = (over: Partial<ChainReading['feed']> = {}) => ({
    roundId: 7n,
    answer: 3000_00000000n,
    startedAt: BigInt(T - 100),
    updatedAt: BigInt(T - 100),
    answeredInRound: 7n,
    ...over,
  });
  /** A pool at `tick` for the whole window, moved to `recentTick` for the last minute. */
  const cumulatives = (tick: number, recentTick = tick): [bigint, bigint, bigint] => {
    const now = BigInt(tick) * 1_000_000n + BigInt(recentTick - tick) * 60n + 123_456_789n;
    return [now - BigInt(tick) * 1740n - BigInt(recentTick) * 60n, now - BigInt(recentTick) * 60n, now];
  };
  const reading = (over: Partial<ChainReading> = {}): ChainReading => ({
    blockTimestamp: T,
    tickCumulatives: cumulatives(-110_000),
    feed: round(),
    feedDecimals: 8,
    sequencer: { roundId: 1n, answer: 0n, startedAt: BigInt(T - 86_400), updatedAt: BigInt(T - 86_400), answeredInRound: 1n },
    ...over,
  });
  const expected = usdPerPogsAtTick(-110_000, sides, { answer: 3000_00000000n, decimals: 8 });

  it('gives the window’s average price when every check passes', () => {
    const judged = judgeReading(reading(), sides, rules);
    expect(judged).toMatchObject({ ok: true, tick: -110_000 });
  });

  it('writes the reference as an exact decimal with up to 18 places', () => {
    const judged = judgeReading(reading(), sides, rules);
    if (!judged.ok) throw new Error(judged.reason);
    expect(judged.usdPerPogs).toMatch(/^0\.05\d{0,16}$/);
    expect(BigInt(judged.usdPerPogs.replace('0.', '').padEnd(18, '0'))).toBe(expected);
  });

  it.each<[string, Partial<ChainReading>, RegExp]>([
    ['the sequencer is down', { sequencer: { ...reading().sequencer, answer: 1n } }, /sequencer is down/],
    ['the sequencer feed answers neither', { sequencer: { ...reading().sequencer, answer: 2n } }, /neither up/],
    ['the sequencer feed has no round', { sequencer: { ...reading().sequencer, startedAt: 0n } }, /no valid round/],
    ['the sequencer is back within the grace period', { sequencer: { ...reading().sequencer, startedAt: BigInt(T - 3599) } }, /grace/],
    ['the feed is stale', { feed: round({ updatedAt: BigInt(T - 3601) }) }, /3601 s old/],
    ['the feed answers zero', { feed: round({ answer: 0n }) }, /not positive/],
    ['the feed answers below zero', { feed: round({ answer: -1n }) }, /not positive/],
    ['the feed’s round is incomplete', { feed: round({ answeredInRound: 6n }) }, /incomplete/],
    ['the feed never updated', { feed: round({ updatedAt: 0n }) }, /incomplete/],
    ['the pool is younger than the window', { tickCumulatives: 'OLD' }, /no observation 1800 s old/],
    ['the last minute is far above the window', { tickCumulatives: cumulatives(-110_000, -105_000) }, /ticks from the last minute/],
    ['the last minute is far below the window', { tickCumulatives: cumulatives(-110_000, -116_000) }, /ticks from the last minute/],
  ])('hides it when %s', (_, over, reason) => {
    const judged = judgeReading(reading(over), sides, rules);
    expect(judged.ok).toBe(false);
    expect(judged.ok ? '' : judged.reason).toMatch(reason);
  });

  it.each<[string, Partial<ChainReading>]>([
    ['the sequencer has been up exactly the grace period', { sequencer: { ...reading().sequencer, startedAt: BigInt(T - 3600) } }],
    ['the feed is exactly as old as allowed', { feed: round({ updatedAt: BigInt(T - 3600) }) }],
    ['the last minute is within the allowed gap', { tickCumulatives: cumulatives(-110_000, -109_815) }],
  ])('shows it when %s', (_, over) => {
    expect(judgeReading(reading(over), sides, rules).ok).toBe(true);
  });
});
