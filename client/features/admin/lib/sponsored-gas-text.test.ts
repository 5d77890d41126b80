import { describe, expect, it } from 'vitest';
import type { SponsoredGasDay } from '../../../../common/sponsored-gas';
import { dayLabel, daysText, depositStanding, formatEth, paymentsText, sponsoredTotals } from './sponsored-gas-text';

const BUDGET = '10000000000000000'; // the default daily budget, 0.01 ETH

describe('formatEth', () => {
  it('shows wei as ETH exactly, with at least two decimals and thousands grouped', () => {
    expect(formatEth('0')).toBe('0.00');
    expect(formatEth('1000000000000000000')).toBe('1.00');
    expect(formatEth(BUDGET)).toBe('0.01');
    expect(formatEth('2760000000000000')).toBe('0.00276');
    expect(formatEth('1')).toBe('0.000000000000000001');
    expect(formatEth('1234567890123456789012')).toBe('1,234.567890123456789012');
    expect(formatEth(10n ** 18n / 2n)).toBe('0.50');
  });
});

describe('depositStanding', () => {
  it('is low under one day’s budget, and counts the whole days of budget the deposit covers', () => {
    expect(depositStanding('1000000000000000000', BUDGET)).toEqual({ days: 100n, low: false });
    expect(depositStanding('25000000000000000', BUDGET)).toEqual({ days: 2n, low: false }); // 2.5 budgets: 2 whole days
    expect(depositStanding(BUDGET, BUDGET)).toEqual({ days: 1n, low: false }); // exactly one day is not low
    expect(depositStanding('9999999999999999', BUDGET)).toEqual({ days: 0n, low: true }); // a wei under it is
    expect(depositStanding('0', BUDGET)).toEqual({ days: 0n, low: true });
  });

  it('is exact past what a float holds', () => {
    // 2^53 + 1 budgets of 1 wei: a float would round it to 2^53.
    expect(depositStanding('9007199254740993', '1')).toEqual({ days: 9007199254740993n, low: false });
    expect(depositStanding('9007199254740992', '9007199254740993')).toEqual({ days: 0n, low: true });
  });

  it('survives a budget of 0 (no division by zero)', () => {
    expect(depositStanding('5', '0')).toEqual({ days: 0n, low: false });
  });
});

const day = (d: Partial<SponsoredGasDay> & Pick<SponsoredGasDay, 'day'>): SponsoredGasDay => ({
  sponsorships: 0,
  paid: 0,
  wasted: 0,
  spentWei: '0',
  wastedWei: '0',
  amountWei: '0',
  budgetLeftWei: BUDGET,
  ...d,
});

describe('sponsoredTotals', () => {
  it('is all zero over no days', () => {
    expect(sponsoredTotals([])).toEqual({ sponsorships: 0, paid: 0, wasted: 0, spentWei: 0n, wastedWei: 0n, amountWei: 0n });
  });

  it('adds each figure of the days exactly, past what a float holds, and leaves the budget left out', () => {
    expect(
      sponsoredTotals([
        day({
          day: '2026-11-26',
          sponsorships: 4,
          paid: 3,
          wasted: 2,
          spentWei: '9007199254740993',
          wastedWei: '7',
          amountWei: '9007199254740993000',
          budgetLeftWei: '0',
        }),
        day({ day: '2026-11-25', sponsorships: 1, paid: 1, spentWei: '1', amountWei: '1' }),
        day({ day: '2026-11-24', wasted: 1, spentWei: '20', wastedWei: '20' }), // an unrecorded operation only
      ]),
    ).toEqual({
      sponsorships: 5,
      paid: 4,
      wasted: 3,
      spentWei: 9007199254741014n,
      wastedWei: 27n,
      amountWei: 9007199254740993001n,
    });
  });
});

describe('dayLabel, paymentsText and daysText', () => {
  it('shows the UTC day as that day, and a count in words', () => {
    expect(dayLabel('2026-11-26', 'en-GB')).toBe('Thu 26 Nov');
    expect(dayLabel('not a day')).toBe('not a day');
    expect(paymentsText(1)).toBe('1 payment');
    expect(paymentsText(1234n)).toBe('1,234 payments');
    expect(paymentsText(0)).toBe('0 payments');
    expect(daysText(1n)).toBe('1 day');
    expect(daysText(0n)).toBe('0 days');
    expect(daysText(1000n)).toBe('1,000 days');
  });
});
