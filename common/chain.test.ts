import { describe, expect, it } from 'vitest';
import { ADDRESS_PATTERN, BASE_CHAIN_ID, BASE_CHAIN_ID_HEX } from './chain';

describe('chain', () => {
  it("is Base's chain id, in both spellings", () => {
    expect(BASE_CHAIN_ID).toBe(8453);
    expect(BASE_CHAIN_ID_HEX).toBe('0x2105');
  });

  it('accepts 0x and 40 hexadecimal characters only', () => {
    expect(ADDRESS_PATTERN.test('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')).toBe(true);
    expect(ADDRESS_PATTERN.test('0x' + 'ab'.repeat(20))).toBe(true);
    for (const bad of [
      '',
      '0x',
      '0x' + 'a'.repeat(39),
      '0x' + 'a'.repeat(41),
      '0x' + 'g'.repeat(40),
      'ab'.repeat(21),
      ' 0x' + 'a'.repeat(40),
    ]) {
      expect(ADDRESS_PATTERN.test(bad), bad).toBe(false);
    }
  });
});
