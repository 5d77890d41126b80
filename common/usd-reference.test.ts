import { describe, expect, it } from 'vitest';
import { parseUnits } from './money';
import { formatUsdReference, usdReference } from './usd-reference';

const pogs = (s: string) => parseUnits(s).toString();

describe('usdReference', () => {
  it.each([
    // amount in POGS, USD per POGS, dollars
    ['248', '0.05', '12.40'],
    ['5', '0.05', '0.25'],
    ['500', '0.05', '25.00'],
    ['1', '0.049999999999999999', '0.05'],
    ['0.1', '0.05', '0.01'], // 0.005 rounds half away from zero
    ['0.09', '0.05', '0.00'], // 0.0045
    ['12.345678901234567891', '1', '12.35'],
    ['1', '0.000000000000000001', '0.00'],
    ['1000000', '3000.123456789012345678', '3000123456.79'],
    ['0', '0.05', '0.00'],
    ['7', '2', '14.00'],
  ])('%s POGS at $%s each → $%s', (amount, rate, dollars) => {
    expect(usdReference(pogs(amount), rate)).toBe(dollars);
    expect(usdReference(parseUnits(amount), rate)).toBe(dollars);
  });

  it('is exact where floats are not', () => {
    // 0.015 × 1 is 0.01499999… as a float, which rounds down.
    expect(usdReference(pogs('100'), '0.7')).toBe('70.00');
    expect(usdReference(pogs('0.015'), '1')).toBe('0.02');
  });

  it('refuses what is not an amount', () => {
    for (const [amount, rate] of [
      ['-1', '0.05'],
      ['1.5', '0.05'],
      ['abc', '0.05'],
      ['', '0.05'],
      ['100', '-0.05'],
      ['100', '1e3'],
      ['100', ''],
      ['100', '0.0000000000000000001'],
      ['100', 'NaN'],
    ]) {
      expect(usdReference(amount!, rate!), `${amount} at ${rate}`).toBeNull();
    }
    expect(usdReference(-1n, '0.05')).toBeNull();
  });
});

describe('formatUsdReference', () => {
  it.each([
    ['248', '0.05', '≈ $12.40'],
    ['24690', '0.05', '≈ $1,234.50'],
    ['1000000000', '0.05', '≈ $50,000,000.00'],
    ['0.1', '0.05', '≈ $0.01'],
    ['0.09', '0.05', '< $0.01'],
    ['0.000000000000000001', '0.05', '< $0.01'],
    ['0', '0.05', '≈ $0.00'],
    ['100', '0', '≈ $0.00'],
  ])('%s POGS at $%s → %s', (amount, rate, shown) => {
    expect(formatUsdReference(pogs(amount), rate)).toBe(shown);
  });

  it('shows nothing without a reference', () => {
    expect(formatUsdReference(pogs('5'), 'not a number')).toBeNull();
    expect(formatUsdReference('x', '0.05')).toBeNull();
  });
});
