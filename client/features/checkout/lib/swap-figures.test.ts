import { describe, expect, it } from 'vitest';
import { parseUnits } from '../../../../common/money';
import { quoteFigures, roundUnits, shownDigits } from './swap-figures';

describe('quoteFigures', () => {
  it('shows ETH with three significant digits, the estimate to the nearest, the bound up', () => {
    const figures = quoteFigures({ amountIn: '4213456789012345', amountInMax: '4234524072957406', decimals: 18 });
    expect(figures).toEqual({ about: '0.00421', atMost: '0.00424', atMostExact: '0.004234524072957406' });
  });

  it('never shows a bound below the exact one, even by a unit', () => {
    // One wei above a shown figure: rounded to the nearest it would read 0.00423; up, 0.00424.
    const figures = quoteFigures({ amountIn: '4200000000000000', amountInMax: '4230000000000001', decimals: 18 });
    expect(figures.atMost).toBe('0.00424');
    expect(parseUnits(figures.atMost)).toBeGreaterThanOrEqual(4230000000000001n);
    // Exactly on a shown figure: not rounded past it.
    expect(quoteFigures({ amountIn: '4200000000000000', amountInMax: '4230000000000000', decimals: 18 }).atMost).toBe('0.00423');
  });

  it('shows USDC (6 decimals) in cents, and an amount of whole coins with two digits', () => {
    expect(quoteFigures({ amountIn: '25131200', amountInMax: '25256856', decimals: 6 })).toEqual({
      about: '25.13',
      atMost: '25.26',
      atMostExact: '25.256856',
    });
    expect(quoteFigures({ amountIn: '1500000000000000000', amountInMax: '1507500000000000000', decimals: 18 })).toMatchObject({
      about: '1.50',
      atMost: '1.51',
    });
  });

  it('a tiny USDC amount shows every digit the coin has, not more', () => {
    expect(shownDigits(7n, 6)).toBe(6);
    expect(quoteFigures({ amountIn: '7', amountInMax: '8', decimals: 6 })).toMatchObject({ about: '0.000007', atMost: '0.000008' });
  });
});

describe('roundUnits', () => {
  it('rounds half up to the nearest, any remainder up, or any remainder away', () => {
    expect(roundUnits(1235n, 4, 2, 'nearest')).toBe('0.12');
    expect(roundUnits(1250n, 4, 2, 'nearest')).toBe('0.13');
    expect(roundUnits(1201n, 4, 2, 'up')).toBe('0.13');
    expect(roundUnits(1200n, 4, 2, 'up')).toBe('0.12');
    expect(roundUnits(1299n, 4, 2, 'down')).toBe('0.12');
  });
});
