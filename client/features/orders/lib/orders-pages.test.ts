import { describe, expect, it } from 'vitest';
import { nextOrdersAfter, ordersOfPages } from './orders-pages';

describe('nextOrdersAfter', () => {
  it('reads the next page from the Link header the server writes', () => {
    expect(nextOrdersAfter('</api/orders?wallet=0x00000000000000000000000000000000000000aa&after=PG0A1B2C3D4E>; rel="next"')).toBe(
      'PG0A1B2C3D4E',
    );
    expect(nextOrdersAfter('</api/orders?after=PG0A1B2C3D4E&wallet=0xab>; rel=next, </api/orders?wallet=0xab>; rel="first"')).toBe(
      'PG0A1B2C3D4E',
    );
  });

  it('is null without a next page, or for a header that is not one the shop writes', () => {
    for (const link of [
      null,
      '',
      '</api/orders?wallet=0xab&after=PG0A1B2C3D4E>; rel="prev"',
      '</api/orders?wallet=0xab>; rel="next"',
      '<https://elsewhere.example/api/refunds?after=PG0A1B2C3D4E>; rel="next"',
      '</api/orders?wallet=0xab&after=%3Cscript%3E>; rel="next"',
      'garbage',
    ])
      expect(nextOrdersAfter(link), String(link)).toBeNull();
  });
});

describe('ordersOfPages', () => {
  it('lists every page in order, an order that moved to a later page once', () => {
    const pages = [{ orders: [{ id: 'a' }, { id: 'b' }] }, { orders: [{ id: 'b' }, { id: 'c' }] }, { orders: [] }];
    expect(ordersOfPages(pages).map((o) => o.id)).toEqual(['a', 'b', 'c']);
  });
});
