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

  it('prefers a variant that is not sold out, else the cheapest sold-out one', () => {
    expect(cheapestVariantId({ variants: [variant('a', '1.00', true), variant('b', '2.00')] })).toBe('b');
    expect(cheapestVariantId({ variants: [variant('a', '3.00', true), variant('b', '2.00', true)] })).toBe('b');
  });

  it('skips variants without an id and has none for an empty list', () => {
    expect(cheapestVariantId({ variants: [variant('', '1.00'), variant('b', '2.00')] })).toBe('b');
    expect(cheapestVariantId({ variants: [] })).toBeNull();
  });
});
