import { describe, expect, it } from 'vitest';
import { dayLabel, depositStanding, formatEth, paymentsText, sponsoredTotals } from './sponsored-gas-text';

const MOST = '2760000000000000'; // the shop's gas limits at its fee cap: 0.00276 ETH

describe('formatEth', () => {
  it('shows wei as ETH exactly, with at least two decimals and thousands grouped', () => {
    expect(formatEth('0')).toBe('0.00');
    expect(formatEth('1000000000000000000')).toBe('1.00');
    expect(formatEth(MOST)).toBe('0.00276');
    expect(formatEth('1')).toBe('0.000000000000000001');
    expect(formatEth('1234567890123456789012')).toBe('1,234.567890123456789012');
    expect(formatEth(10n ** 18n / 2n)).toBe('0.50');
  });
});

describe('depositStanding', () => {
  it('counts the payments the deposit covers at their most, and is low under ten of them', () => {
    expect(depositStanding('1000000000000000000', MOST)).toEqual({ payments: 362n, low: false, lowBelowWei: 27600000000000000n });
    expect(depositStanding('27600000000000000', MOST).low).toBe(false);
    expect(depositStanding('27599999999999999', MOST)).toMatchObject({ payments: 9n, low: true });
    expect(depositStanding('0', MOST)).toMatchObject({ payments: 0n, low: true });
  });

  it('survives a cost of 0 (no division by zero)', () => {
    expect(depositStanding('5', '0')).toEqual({ payments: 0n, low: false, lowBelowWei: 0n });
  });
});

describe('sponsoredTotals', () => {
  it('adds the days exactly, past what a float holds', () => {
    expect(sponsoredTotals([])).toEqual({ sponsorships: 0, amountWei: 0n });
    expect(
      sponsoredTotals([
        { day: '2026-11-26', sponsorships: 2, amountWei: '9007199254740993000' },
        { day: '2026-11-25', sponsorships: 1, amountWei: '1' },
      ]),
    ).toEqual({ sponsorships: 3, amountWei: 9007199254740993001n });
  });
});

describe('dayLabel and paymentsText', () => {
  it('shows the UTC day as that day, and a count in words', () => {
    expect(dayLabel('2026-11-26', 'en-GB')).toBe('Thu 26 Nov');
    expect(dayLabel('not a day')).toBe('not a day');
    expect(paymentsText(1)).toBe('1 payment');
    expect(paymentsText(1234n)).toBe('1,234 payments');
    expect(paymentsText(0)).toBe('0 payments');
  });
});
