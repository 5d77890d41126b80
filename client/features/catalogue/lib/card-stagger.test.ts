import { describe, expect, it } from 'vitest';
import { cardRevealDelays } from './card-stagger';

describe('cardRevealDelays', () => {
  it('the first screenful follows 0.03 s × index, past card 21 too', () => {
    const indices = Array.from({ length: 30 }, (_, i) => i);
    const delays = cardRevealDelays(indices, true);
    expect(delays.get(0)).toBe(0);
    expect(delays.get(1)).toBe(0.03);
    expect(delays.get(7)).toBe(0.21);
    expect(delays.get(20)).toBe(0.6);
    expect(delays.get(21)).toBe(0.63);
    expect(delays.get(29)).toBe(0.87);
  });

  it('cards scrolled into view later count from the first of them, so none waits on screen', () => {
    expect([...cardRevealDelays([41, 40, 42, 43], false)]).toEqual([
      [40, 0],
      [41, 0.03],
      [42, 0.06],
      [43, 0.09],
    ]);
    expect([...cardRevealDelays([25], false)]).toEqual([[25, 0]]);
  });

  it('nothing revealed, nothing delayed; a repeated index counts once', () => {
    expect(cardRevealDelays([], false).size).toBe(0);
    expect([...cardRevealDelays([3, 3, 2], true)]).toEqual([
      [2, 0.06],
      [3, 0.09],
    ]);
  });
});
