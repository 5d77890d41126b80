import { describe, expect, it } from 'vitest';
import { compareDecimal, formatUnits, isDecimalString, normalizeDecimal, parseDecimal, parseUnits, roundDecimal } from './money';

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

describe('parseDecimal / roundDecimal', () => {
  it('reads signed decimals exactly, at any length', () => {
    expect(parseDecimal('12.50')).toEqual({ units: 1250n, scale: 2 });
    expect(parseDecimal(' -3 ')).toEqual({ units: -3n, scale: 0 });
    expect(parseDecimal('+4')).toEqual({ units: 4n, scale: 0 });
    expect(parseDecimal('.5')).toEqual({ units: 5n, scale: 1 });
    expect(parseDecimal('5.')).toEqual({ units: 5n, scale: 0 });
    expect(parseDecimal('123456789012345678901234567890.125')).toEqual({ units: 123456789012345678901234567890125n, scale: 3 });
    expect(parseDecimal('-.5')).toEqual({ units: -5n, scale: 1 });
    expect(parseDecimal('007')).toEqual({ units: 7n, scale: 0 });
  });
  it('reads an exponent exactly, by moving the decimal point', () => {
    expect(parseDecimal('1e3')).toEqual({ units: 1000n, scale: 0 });
    expect(parseDecimal('1.5E3')).toEqual({ units: 1500n, scale: 0 });
    expect(parseDecimal('1.5e-3')).toEqual({ units: 15n, scale: 4 });
    // A float would lose the last digits of this one.
    expect(parseDecimal('1.2345678901234567891e5')).toEqual({ units: 12345678901234567891n, scale: 14 });
  });
  it('refuses what is not a decimal', () => {
    for (const bad of ['', ' ', '.', '-', 'e3', '1e', '1e1000', '0x10', '1,000', '1.2.3', '12abc', 'NaN', 'Infinity'])
      expect(parseDecimal(bad), bad).toBeNull();
  });
  it('rounds half away from zero, by integer arithmetic', () => {
    const at2 = (s: string) => roundDecimal(parseDecimal(s)!, 2);
    expect(at2('1.005')).toBe(101n); // 1.00499999… as a float
    expect(at2('1.004999')).toBe(100n);
    expect(at2('999.995')).toBe(100000n);
    expect(at2('-0.005')).toBe(-1n);
    expect(at2('-0.004')).toBe(0n);
    expect(at2('7')).toBe(700n);
    expect(at2('1.000000000000000000001')).toBe(100n);
  });
});

describe('compareDecimal', () => {
  it('orders by value, exactly, whatever the spelling', () => {
    expect(compareDecimal('9.5', '10')).toBe(-1);
    expect(compareDecimal('10.00', '10')).toBe(0);
    expect(compareDecimal('-1', '0.1')).toBe(-1);
    expect(compareDecimal('9007199254740993', '9007199254740992')).toBe(1); // equal as floats
    expect(compareDecimal('0.30000000000000000001', '0.3')).toBe(1);
    expect(['25.00', '4.5', '100', '4.50'].sort(compareDecimal)).toEqual(['4.5', '4.50', '25.00', '100']);
    expect(compareDecimal('-2', '-1.5')).toBe(-1);
    expect(compareDecimal('1', '1e3')).toBe(-1);
  });
  it('refuses a non-decimal', () => {
    expect(() => compareDecimal('abc', '1')).toThrow(RangeError);
    expect(() => compareDecimal('1', '0x10')).toThrow(RangeError);
  });
});
