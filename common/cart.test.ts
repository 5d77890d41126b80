import { describe, expect, it } from 'vitest';
import { cartLineTitle, clampQuantity, lineLimitMessage } from './cart';

describe('clampQuantity', () => {
  it('keeps whole numbers from 1 to 10', () => {
    for (let n = 1; n <= 10; n++) expect(clampQuantity(n)).toBe(n);
    expect(clampQuantity('7')).toBe(7);
    expect(clampQuantity(' 3 ')).toBe(3);
  });

  it('clamps to the range', () => {
    expect(clampQuantity(0)).toBe(1);
    expect(clampQuantity(-4)).toBe(1);
    expect(clampQuantity(11)).toBe(10);
    expect(clampQuantity('250')).toBe(10);
    expect(clampQuantity(Number.POSITIVE_INFINITY)).toBe(10);
    expect(clampQuantity(Number.NEGATIVE_INFINITY)).toBe(1);
  });

  it('floors decimals', () => {
    expect(clampQuantity(2.9)).toBe(2);
    expect(clampQuantity('4.5')).toBe(4);
    expect(clampQuantity(0.5)).toBe(1);
    expect(clampQuantity(10.9)).toBe(10);
  });

  it('turns non-numeric input into 1', () => {
    expect(clampQuantity('')).toBe(1);
    expect(clampQuantity('   ')).toBe(1);
    expect(clampQuantity('abc')).toBe(1);
    expect(clampQuantity('3abc')).toBe(1);
    expect(clampQuantity(Number.NaN)).toBe(1);
    expect(clampQuantity(undefined)).toBe(1);
    expect(clampQuantity(null)).toBe(1);
    expect(clampQuantity({})).toBe(1);
  });
});

describe('cartLineTitle', () => {
  it("adds the variant's title unless it is Shopify's 'Default Title'", () => {
    expect(cartLineTitle('Pog Pack', 'Gold')).toBe('Pog Pack - Gold');
    expect(cartLineTitle('Pog Pack', 'Default Title')).toBe('Pog Pack');
    expect(cartLineTitle('Pog Pack', '')).toBe('Pog Pack');
    expect(cartLineTitle('Pog Pack', null)).toBe('Pog Pack');
  });
});

describe('lineLimitMessage', () => {
  it('says the cap, and what the cart already holds when it holds some', () => {
    expect(lineLimitMessage(0)).toBe('You can have at most 10 of an item in your cart');
    expect(lineLimitMessage(7)).toBe('You can have at most 10 of an item in your cart (you already have 7)');
  });
});
