import { describe, expect, it } from 'vitest';
import { boundedMemo } from './bounded-memo';

describe('boundedMemo', () => {
  it('works a key out once, and forgets everything once more than max keys were asked', () => {
    const memo = boundedMemo<number>(2);
    let made = 0;
    const make = () => ++made;
    expect(memo('a', make)).toBe(1);
    expect(memo('a', make)).toBe(1);
    expect(memo('b', make)).toBe(2);
    expect(made).toBe(2);
    // A third key: the two kept are forgotten, so 'a' is worked out again.
    expect(memo('c', make)).toBe(3);
    expect(memo('a', make)).toBe(4);
  });
});
