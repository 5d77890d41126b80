import { describe, expect, it } from 'vitest';
import { confirmationsOf, isConfirmed, lastConfirmedBlock } from './confirmations';

describe('the confirmation boundary', () => {
  it('counts the block itself: 1 confirmation at the head, one more per block after it', () => {
    expect(confirmationsOf(100, 100)).toBe(1);
    expect(confirmationsOf(98, 100)).toBe(3);
    // A node behind the block (another node answered the receipt) sees none.
    expect(confirmationsOf(101, 100)).toBe(0);
    expect(confirmationsOf(105, 100)).toBe(-4);
  });

  it.each([
    // [required, block, head, confirmed]
    [1, 100, 100, true],
    [1, 101, 100, false],
    [3, 98, 100, true],
    [3, 99, 100, false],
    [3, 100, 100, false],
    [12, 89, 100, true],
    [12, 90, 100, false],
  ])('with %i required, a transfer in block %i at head %i is confirmed: %s', (required, block, head, confirmed) => {
    expect(isConfirmed(block, head, required)).toBe(confirmed);
  });

  it('agrees with the watchers: a block is confirmed exactly when it is at or before the last confirmed block', () => {
    for (let required = 1; required <= 6; required++) {
      for (let head = 0; head <= 20; head++) {
        for (let block = 0; block <= 25; block++) {
          expect(isConfirmed(block, head, required), `required ${required}, head ${head}, block ${block}`).toBe(
            block <= lastConfirmedBlock(head, required),
          );
        }
      }
    }
  });

  it('puts the last confirmed block at the head with 1 required, and required − 1 blocks behind it otherwise', () => {
    expect(lastConfirmedBlock(100, 1)).toBe(100);
    expect(lastConfirmedBlock(100, 3)).toBe(98);
    // Before the chain has that many blocks there is none yet.
    expect(lastConfirmedBlock(1, 3)).toBe(-1);
  });
});
