import { describe, expect, it } from 'vitest';
import { tokenBucket } from './token-bucket';

describe('tokenBucket', () => {
  it('allows a burst at once, then refuses until time refills it at its rate, never above the burst', () => {
    let now = 0;
    const bucket = tokenBucket({ perSecond: 2, burst: 3 }, () => now);
    const takes = (n: number) => Array.from({ length: n }, () => bucket.take());
    expect(takes(4)).toEqual([true, true, true, false]);
    now += 499; // 0.998 of a token
    expect(bucket.take()).toBe(false);
    now += 1; // one whole token (the refused take spent nothing)
    expect(takes(2)).toEqual([true, false]);
    now += 60_000; // a long quiet spell fills it to the burst, not beyond
    expect(takes(4)).toEqual([true, true, true, false]);
  });
});
