import { describe, expect, it } from 'vitest';
import type { Variant } from '../../../../common/api';
import { cheapestVariantId } from './cheapest-variant';

const variant = (id: string, price: string, isSoldOut = false): Variant => ({
  id,
  title: id,
  price,
  isSoldOut,
  availableStock: 0,
  sku: null,
});

describe('cheapestVariantId', () => {
  it('picks the lowest price, comparing the decimals exactly', () => {
    expect(cheapestVariantId({ variants: [variant('a', '25.00'), variant('b', '4.50'), variant('c', '100.00')] })).toBe('b');
    // Equal as floats: only exact comparison tells them apart.
    expect(cheapestVariantId({ variants: [variant('a', '9007199254740993.00'), variant('b', '9007199254740992.00')] })).toBe('b');
  });

  it('is the variant the minimum price belongs to, preferring one not sold out at that price', () => {
    expect(cheapestVariantId({ variants: [variant('a', '2.00', true), variant('b', '2.00'), variant('c', '3.00')] })).toBe('b');
    // The page shows the minimum price: the button adds that variant (and says it is sold out),
    // never a dearer one under the cheaper price.
    expect(cheapestVariantId({ variants: [variant('a', '1.00', true), variant('b', '2.00')] })).toBe('a');
    expect(cheapestVariantId({ variants: [variant('a', '3.00', true), variant('b', '2.00', true)] })).toBe('b');
  });

  it('ranks a price that is not a decimal last instead of failing', () => {
    expect(cheapestVariantId({ variants: [variant('a', 'n/a'), variant('b', '2.00')] })).toBe('b');
    expect(cheapestVariantId({ variants: [variant('a', 'n/a')] })).toBe('a');
  });

  it('skips variants without an id and has none for an empty list', () => {
    expect(cheapestVariantId({ variants: [variant('', '1.00'), variant('b', '2.00')] })).toBe('b');
    expect(cheapestVariantId({ variants: [] })).toBeNull();
  });
});
