import { describe, expect, it } from 'vitest';
import { variantOptionLabel } from './variant-option-label';

describe('variantOptionLabel', () => {
  it('shows the title and the price in brackets', () => {
    expect(variantOptionLabel({ title: 'Large', price: '25', isSoldOut: false, availableStock: 0 })).toBe('Large (25.00 $POGS)');
    expect(variantOptionLabel({ title: 'Gold', price: '1234.5', isSoldOut: false, availableStock: 0 })).toBe('Gold (1,234.50 $POGS)');
  });

  it("omits the price when it is '0'", () => {
    expect(variantOptionLabel({ title: 'Large', price: '0', isSoldOut: false, availableStock: 0 })).toBe('Large');
    expect(variantOptionLabel({ title: 'Large', price: '0.00', isSoldOut: false, availableStock: 0 })).toBe('Large');
    expect(variantOptionLabel({ title: 'Large', price: '', isSoldOut: false, availableStock: 0 })).toBe('Large');
    expect(variantOptionLabel({ title: 'Large', price: '0.5', isSoldOut: false, availableStock: 0 })).toBe('Large (0.50 $POGS)');
  });

  it("uses 'Unknown Variant' without a title", () => {
    expect(variantOptionLabel({ title: '', price: '0', isSoldOut: false, availableStock: 0 })).toBe('Unknown Variant');
    expect(variantOptionLabel({ title: null, price: '5' })).toBe('Unknown Variant (5.00 $POGS)');
    expect(variantOptionLabel({})).toBe('Unknown Variant');
  });

  it("appends ' - SOLD OUT' for a sold-out variant, whatever the stock", () => {
    expect(variantOptionLabel({ title: 'S', price: '10', isSoldOut: true, availableStock: 4 })).toBe('S (10.00 $POGS) - SOLD OUT');
    expect(variantOptionLabel({ title: 'S', price: '0', isSoldOut: true, availableStock: 0 })).toBe('S - SOLD OUT');
  });

  it("appends ' - {n} left' only when stock is above 0", () => {
    expect(variantOptionLabel({ title: 'M', price: '10', isSoldOut: false, availableStock: 3 })).toBe('M (10.00 $POGS) - 3 left');
    expect(variantOptionLabel({ title: 'M', price: '10', isSoldOut: false, availableStock: 0 })).toBe('M (10.00 $POGS)');
    expect(variantOptionLabel({ title: 'M', price: '10', isSoldOut: false, availableStock: -2 })).toBe('M (10.00 $POGS)');
  });
});
