import { describe, expect, it } from 'vitest';
import { isCart } from './is-cart';

const item = {
  id: '1',
  variantId: '101',
  productId: '11',
  title: 'Cap',
  image: null,
  price: '25.00',
  quantity: 2,
  lineTotal: '50.00',
  problem: null,
};

describe('isCart', () => {
  it('accepts the API cart shape', () => {
    expect(isCart({ items: [], total: '0.00' })).toBe(true);
    expect(
      isCart({ items: [item, { ...item, id: '2', image: 'https://x/y.png', problem: 'This item is sold out' }], total: '50.00' }),
    ).toBe(true);
  });

  it('rejects anything else', () => {
    expect(isCart(null)).toBe(false);
    expect(isCart('cart')).toBe(false);
    expect(isCart({ items: [] })).toBe(false);
    expect(isCart({ items: {}, total: '0' })).toBe(false);
    expect(isCart({ items: [{ ...item, quantity: '2' }], total: '0' })).toBe(false);
    expect(isCart({ items: [{ ...item, id: 1 }], total: '0' })).toBe(false);
    expect(isCart({ items: [null], total: '0' })).toBe(false);
  });
});
