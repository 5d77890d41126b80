/** How many of something may happen: `burst` at once, then `perSecond` on average. */
export interface BucketSize {
  perSecond: number;
  burst: number;
}

/**
 * A token bucket: `take()` answers whether one more may happen now, and counts it when it may.
 * Full at the start; refilled continuously at `perSecond` up to `burst`. `now` is in milliseconds.
 */
export function tokenBucket({ perSecond, burst }: BucketSize, now: () => number = () => performance.now()): { take(): boolean } {
  let tokens = burst;
  let at = now();
  return {
    take() {
      const t = now();
      tokens = Math.min(burst, tokens + ((t - at) / 1000) * perSecond);
      at = t;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
  };
}
