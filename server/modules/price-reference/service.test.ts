import { describe, expect, it } from 'vitest';
import { nearestReading, type Reading } from './service';

const NOW = 1_800_000_000_000;
const reading = (block: number, agoMs: number): Reading => ({ usdPerPogs: `0.0${block}`, block, source: 'test', at: NOW - agoMs });

describe('nearestReading', () => {
  const kept = [reading(100, 290_000), reading(115, 150_000), reading(130, 20_000)];

  it.each([
    [100, 100],
    [107, 100],
    [108, 115],
    [129, 130],
    [5_000, 130],
  ])('takes, for block %i, the reading of block %i', (block, expected) => {
    expect(nearestReading(kept, block, NOW, 300_000)?.block).toBe(expected);
  });

  it('never takes a reading older than allowed, and answers null without one', () => {
    expect(nearestReading(kept, 100, NOW, 200_000)?.block).toBe(115);
    expect(nearestReading(kept, 100, NOW, 10_000)).toBeNull();
    expect(nearestReading([], 100, NOW, 300_000)).toBeNull();
  });
});
