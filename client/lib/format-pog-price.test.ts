import { describe, expect, it } from 'vitest';
import { formatPogAmount, formatPogPrice } from './format-pog-price';

describe('formatPogPrice', () => {
  it('shows two decimals followed by $POGS', () => {
    expect(formatPogPrice('25')).toBe('25.00 $POGS');
    expect(formatPogPrice('25.5')).toBe('25.50 $POGS');
    expect(formatPogPrice('0')).toBe('0.00 $POGS');
    expect(formatPogPrice('.5')).toBe('0.50 $POGS');
    expect(formatPogPrice('5.')).toBe('5.00 $POGS');
    expect(formatPogPrice('007.10')).toBe('7.10 $POGS');
    expect(formatPogPrice(' 12.3 ')).toBe('12.30 $POGS');
    expect(formatPogPrice('+4')).toBe('4.00 $POGS');
  });

  it('groups thousands', () => {
    expect(formatPogPrice('1000')).toBe('1,000.00 $POGS');
    expect(formatPogPrice('1234567.891')).toBe('1,234,567.89 $POGS');
    expect(formatPogPrice('999')).toBe('999.00 $POGS');
  });

  it('rounds the fraction half up by string arithmetic', () => {
    // 1.005 is 1.00499999… as a float; the string rule must still round it up.
    expect(formatPogPrice('1.005')).toBe('1.01 $POGS');
    expect(formatPogPrice('1.004999')).toBe('1.00 $POGS');
    expect(formatPogPrice('999.995')).toBe('1,000.00 $POGS');
    expect(formatPogPrice('9.999')).toBe('10.00 $POGS');
    expect(formatPogPrice('0.125')).toBe('0.13 $POGS');
  });

  it('keeps precision for values beyond float range', () => {
    expect(formatPogPrice('123456789012345678901234567890.125')).toBe('123,456,789,012,345,678,901,234,567,890.13 $POGS');
    expect(formatPogPrice('9007199254740993.01')).toBe('9,007,199,254,740,993.01 $POGS');
    expect(formatPogPrice('1.000000000000000001')).toBe('1.00 $POGS');
  });

  it('handles negatives without a negative zero', () => {
    expect(formatPogPrice('-1234.5')).toBe('-1,234.50 $POGS');
    expect(formatPogPrice('-0.001')).toBe('0.00 $POGS');
    expect(formatPogPrice('-0.005')).toBe('-0.01 $POGS');
  });

  it('accepts numbers and other numeric spellings', () => {
    expect(formatPogPrice(25)).toBe('25.00 $POGS');
    expect(formatPogPrice(1234.5)).toBe('1,234.50 $POGS');
    expect(formatPogPrice('1e3')).toBe('1,000.00 $POGS');
    expect(formatPogPrice('1.2345678901234567891e5')).toBe('123,456.79 $POGS');
    expect(formatPogPrice(1e21)).toBe('1,000,000,000,000,000,000,000.00 $POGS');
  });

  it("shows '0 $POGS' when missing or non-numeric", () => {
    expect(formatPogPrice(undefined)).toBe('0 $POGS');
    expect(formatPogPrice(null)).toBe('0 $POGS');
    expect(formatPogPrice('')).toBe('0 $POGS');
    expect(formatPogPrice('   ')).toBe('0 $POGS');
    expect(formatPogPrice('abc')).toBe('0 $POGS');
    expect(formatPogPrice('12abc')).toBe('0 $POGS');
    expect(formatPogPrice('.')).toBe('0 $POGS');
    expect(formatPogPrice('1.2.3')).toBe('0 $POGS');
    expect(formatPogPrice(Number.NaN)).toBe('0 $POGS');
    expect(formatPogPrice(Number.POSITIVE_INFINITY)).toBe('0 $POGS');
    expect(formatPogPrice({} as unknown as string)).toBe('0 $POGS');
  });
});

describe('formatPogAmount', () => {
  it('is the number part of formatPogPrice', () => {
    expect(formatPogAmount('649.9')).toBe('649.90');
    expect(formatPogAmount('1234567.891')).toBe('1,234,567.89');
    expect(formatPogAmount('0.00')).toBe('0.00');
    expect(formatPogAmount(null)).toBe('0');
    expect(formatPogAmount('abc')).toBe('0');
  });
});
