import { describe, expect, it } from 'vitest';
import { formatUnits, isDecimalString, normalizeDecimal, parseUnits } from './money';

describe('parseUnits', () => {
  it('turns decimal strings into exact base units', () => {
    expect(parseUnits('1')).toBe(10n ** 18n);
    expect(parseUnits('12.5')).toBe(12_500_000_000_000_000_000n);
    expect(parseUnits('0.000000000000000001')).toBe(1n);
    expect(parseUnits('25.000000000000012345')).toBe(25_000_000_000_000_012_345n);
    expect(parseUnits('12.500000000000000000')).toBe(parseUnits('12.5'));
  });
  it('is exact where floats are not', () => {
    expect(parseUnits('0.1') + parseUnits('0.2')).toBe(parseUnits('0.3'));
    expect(parseUnits('9007199254740993')).toBe(9_007_199_254_740_993n * 10n ** 18n);
  });
  it('refuses what is not a plain non-negative decimal', () => {
    for (const bad of ['', '-1', '1e3', '1.', '.5', 'abc', '1,000', '0x10', ' ', 'NaN']) {
      expect(() => parseUnits(bad), bad).toThrow(RangeError);
    }
  });
  it('refuses more fraction digits than the token has', () => {
    expect(() => parseUnits('0.0000000000000000001')).toThrow(/decimals/);
    expect(parseUnits('1.23', 2)).toBe(123n);
    expect(() => parseUnits('1.234', 2)).toThrow(RangeError);
  });
});

describe('formatUnits', () => {
  it('keeps at least two fraction digits and every significant one', () => {
    expect(formatUnits(0n)).toBe('0.00');
    expect(formatUnits(parseUnits('12.5'))).toBe('12.50');
    expect(formatUnits(parseUnits('25.000000000000012345'))).toBe('25.000000000000012345');
    expect(formatUnits(1n)).toBe('0.000000000000000001');
    expect(formatUnits(-parseUnits('3'))).toBe('-3.00');
  });
  it('round-trips', () => {
    for (const s of ['0.00', '1.00', '1234567.89', '0.000000000000000001', '99999999999999999999.123']) {
      expect(formatUnits(parseUnits(s))).toBe(s);
    }
  });
});

describe('normalizeDecimal / isDecimalString', () => {
  it('canonicalises database numerics', () => {
    expect(normalizeDecimal('12.500000000000000000')).toBe('12.50');
    expect(normalizeDecimal('007')).toBe('7.00');
    expect(normalizeDecimal('299.9')).toBe('299.90');
  });
  it('recognises decimal strings only', () => {
    expect(isDecimalString('1.5')).toBe(true);
    expect(isDecimalString(1.5)).toBe(false);
    expect(isDecimalString('-1')).toBe(false);
  });
});
