import { describe, expect, it } from 'vitest';
import { validateAddToCart } from './validate-add-to-cart';

describe('validateAddToCart', () => {
  it('asks for a variant when none is chosen', () => {
    expect(validateAddToCart(null, 1)).toBe('Please select a variant');
    expect(validateAddToCart(undefined, 1)).toBe('Please select a variant');
    expect(validateAddToCart({ id: '', isSoldOut: false, availableStock: 5 }, 1)).toBe('Please select a variant');
  });

  it('refuses a sold-out variant', () => {
    expect(validateAddToCart({ id: 'v1', isSoldOut: true, availableStock: 0 }, 1)).toBe('This item is sold out');
    expect(validateAddToCart({ id: 'v1', isSoldOut: true, availableStock: 9 }, 1)).toBe('This item is sold out');
  });

  it('limits the quantity to known stock', () => {
    expect(validateAddToCart({ id: 'v1', isSoldOut: false, availableStock: 3 }, 4)).toBe('Only 3 items available');
    expect(validateAddToCart({ id: 'v1', isSoldOut: false, availableStock: 3 }, 3)).toBeNull();
    expect(validateAddToCart({ id: 'v1', isSoldOut: false, availableStock: 1 }, 2)).toBe('Only 1 items available');
  });

  it('does not limit when stock is unknown (0)', () => {
    expect(validateAddToCart({ id: 'v1', isSoldOut: false, availableStock: 0 }, 10)).toBeNull();
    expect(validateAddToCart({ id: 'v1' }, 10)).toBeNull();
  });
});
