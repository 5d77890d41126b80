import { describe, expect, it } from 'vitest';
import { LeakyBucket } from './leaky-bucket';

describe('LeakyBucket', () => {
  it('charges, refuses without charging when short, and restores at restoreRate per second', () => {
    let t = 1_000_000;
    const bucket = new LeakyBucket(1000, 50, () => t);
    expect(bucket.status()).toEqual({ maximumAvailable: 1000, currentlyAvailable: 1000, restoreRate: 50 });

    expect(bucket.tryTake(600)).toBe(true);
    expect(bucket.status().currentlyAvailable).toBe(400);
    expect(bucket.tryTake(401)).toBe(false);
    expect(bucket.status().currentlyAvailable).toBe(400);

    t += 2_000; // +100 points
    expect(bucket.status().currentlyAvailable).toBe(500);
    expect(bucket.tryTake(500)).toBe(true);
    expect(bucket.status().currentlyAvailable).toBe(0);

    t += 30; // 1.5 points: reported floored
    expect(bucket.status().currentlyAvailable).toBe(1);
  });

  it('refunds the unused part of a charge', () => {
    const t = 0;
    const bucket = new LeakyBucket(2000, 100, () => t);
    bucket.tryTake(700);
    bucket.refund(650);
    expect(bucket.status().currentlyAvailable).toBe(1950);
  });

  it('never exceeds the maximum and ignores a clock that goes backwards', () => {
    let t = 50_000;
    const bucket = new LeakyBucket(100, 10, () => t);
    bucket.tryTake(100);
    t += 60_000;
    expect(bucket.status().currentlyAvailable).toBe(100);
    bucket.refund(500);
    expect(bucket.status().currentlyAvailable).toBe(100);
    bucket.tryTake(80);
    t -= 40_000;
    expect(bucket.status().currentlyAvailable).toBe(20);
    t += 1_000;
    expect(bucket.status().currentlyAvailable).toBe(30);
  });
});
