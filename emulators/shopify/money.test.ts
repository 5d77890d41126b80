import { describe, expect, it } from 'vitest';
import { computeTotals, discountCents, formatDiscountValue, formatRestMoney, formatUsd, parseMoney } from './money';

describe('money', () => {
  it('parses Money input as strings or numbers, rejecting negatives and sub-cent precision', () => {
    expect(parseMoney('29.99')).toBe(2999);
    expect(parseMoney('29.9')).toBe(2990);
    expect(parseMoney('30')).toBe(3000);
    expect(parseMoney(0)).toBe(0);
    expect(parseMoney(4.5)).toBe(450);
    expect(parseMoney('-1.00')).toBeNull();
    expect(parseMoney(-1)).toBeNull();
    expect(parseMoney('1.234')).toBeNull();
    expect(parseMoney(1.234)).toBeNull();
    expect(parseMoney('free')).toBeNull();
    expect(parseMoney(null)).toBeNull();
  });

  it('prints REST money with two decimals', () => {
    expect(formatRestMoney(0)).toBe('0.00');
    expect(formatRestMoney(12999)).toBe('129.99');
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(123456)).toBe('$1,234.56');
    expect(formatDiscountValue(100)).toBe('100.0');
    expect(formatDiscountValue(12.34)).toBe('12.34');
  });

  it('applies percentage and fixed discounts without going below zero', () => {
    expect(discountCents(10000, { value: 100, valueType: 'PERCENTAGE', title: null, description: null })).toBe(10000);
    expect(discountCents(1000, { value: 12.34, valueType: 'PERCENTAGE', title: null, description: null })).toBe(123);
    expect(discountCents(1000, { value: 25, valueType: 'FIXED_AMOUNT', title: null, description: null })).toBe(1000);
    // Shopify accepts a negative value and applies nothing.
    expect(discountCents(1000, { value: -5, valueType: 'PERCENTAGE', title: null, description: null })).toBe(0);
    expect(discountCents(1000, null)).toBe(0);
  });

  it('totals lines, the order discount and shipping', () => {
    const totals = computeTotals(
      [
        { unitCents: 6499, quantity: 2 },
        { unitCents: 1000, quantity: 1 },
      ],
      { value: 10, valueType: 'FIXED_AMOUNT', title: null, description: null },
      450,
    );
    expect(totals).toEqual({
      lineItemsCents: 13998,
      discountsCents: 1000,
      subtotalCents: 12998,
      shippingCents: 450,
      taxCents: 0,
      totalCents: 13448,
    });
    const free = computeTotals(
      [{ unitCents: 6499, quantity: 3 }],
      { value: 100, valueType: 'PERCENTAGE', title: null, description: null },
      0,
    );
    expect(free.totalCents).toBe(0);
    expect(free.discountsCents).toBe(19497);
  });
});
