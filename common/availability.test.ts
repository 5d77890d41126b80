import { describe, expect, it } from 'vitest';
import {
  anyLimited,
  availabilityNote,
  isForSale,
  knownLimit,
  knownStock,
  lineProblem,
  shownStock,
  soldOutByFlags,
  stockProblem,
  stockSuffix,
  unitsLeft,
} from './availability';

describe('knownLimit: 0 means unknown', () => {
  it('is the stock when above 0, else null', () => {
    expect(knownLimit(3)).toBe(3);
    expect(knownLimit(0)).toBeNull();
    expect(knownLimit(-2)).toBeNull();
    expect(knownLimit(null)).toBeNull();
    expect(knownLimit(undefined)).toBeNull();
  });
});

describe('knownStock / unitsLeft', () => {
  it("prefers the admin's number to Shopify's inventory", () => {
    expect(knownStock({ available_stock: 4, inventory_quantity: 9 })).toEqual({ stock: 4, shopifyTracked: false });
    expect(knownStock({ available_stock: null, inventory_quantity: 9 })).toEqual({ stock: 9, shopifyTracked: true });
    expect(knownStock({ available_stock: null, inventory_quantity: null })).toEqual({ stock: null, shopifyTracked: false });
  });

  it('has no limit when the stock is 0 or unknown, whatever is held', () => {
    expect(unitsLeft({ available_stock: 0, inventory_quantity: 5 })).toBeNull();
    expect(unitsLeft({ available_stock: null, inventory_quantity: 0 }, { claimed: 3, sold: 3 })).toBeNull();
    expect(anyLimited([{ available_stock: 0, inventory_quantity: null }])).toBe(false);
    expect(
      anyLimited([
        { available_stock: 0, inventory_quantity: null },
        { available_stock: null, inventory_quantity: 2 },
      ]),
    ).toBe(true);
  });

  it("subtracts claims always, and sold units only from Shopify's inventory, never below 0", () => {
    expect(unitsLeft({ available_stock: 5, inventory_quantity: null }, { claimed: 2, sold: 2 })).toBe(3);
    expect(unitsLeft({ available_stock: null, inventory_quantity: 5 }, { claimed: 2, sold: 2 })).toBe(1);
    expect(unitsLeft({ available_stock: 2, inventory_quantity: null }, { claimed: 5, sold: 0 })).toBe(0);
  });
});

describe('shownStock / stockProblem', () => {
  it('shows none left as sold out and no known limit as 0', () => {
    expect(shownStock(false, 0)).toEqual({ isSoldOut: true, availableStock: 0 });
    expect(shownStock(false, null)).toEqual({ isSoldOut: false, availableStock: 0 });
    expect(shownStock(true, 4)).toEqual({ isSoldOut: true, availableStock: 4 });
  });

  it('refuses a sold-out variant and more than the known stock, in the spec words', () => {
    expect(stockProblem({ isSoldOut: true, availableStock: 9 }, 1)).toBe('This item is sold out');
    expect(stockProblem({ isSoldOut: false, availableStock: 3 }, 4)).toBe('Only 3 items available');
    expect(stockProblem({ isSoldOut: false, availableStock: 3 }, 3)).toBeNull();
    expect(stockProblem({ isSoldOut: false, availableStock: 0 }, 10)).toBeNull();
    expect(stockProblem({}, 10)).toBeNull();
  });
});

describe('lineProblem', () => {
  const line = { for_sale: true, pog_price: '25.00', is_sold_out: false, quantity: 2 };

  it('calls a line not for sale or without a price no longer available', () => {
    expect(lineProblem({ ...line, for_sale: false }, null)).toBe('This item is no longer available');
    expect(lineProblem({ ...line, pog_price: null }, null)).toBe('This item is no longer available');
    expect(lineProblem({ ...line, pog_price: '0.000' }, null)).toBe('This item is no longer available');
  });

  it('calls a line sold out when flagged or none is left, and short when fewer are left', () => {
    expect(lineProblem({ ...line, is_sold_out: true }, null)).toBe('This item is sold out');
    expect(lineProblem(line, 0)).toBe('This item is sold out');
    expect(lineProblem(line, 1)).toBe('Only 1 items available');
    expect(lineProblem(line, 2)).toBeNull();
    expect(lineProblem(line, null)).toBeNull();
  });
});

describe('stockSuffix', () => {
  it("says ' - SOLD OUT', ' - {n} left' only when the stock is known, else nothing", () => {
    expect(stockSuffix({ isSoldOut: true, availableStock: 4 })).toBe(' - SOLD OUT');
    expect(stockSuffix({ isSoldOut: false, availableStock: 3 })).toBe(' - 3 left');
    expect(stockSuffix({ isSoldOut: false, availableStock: 0 })).toBe('');
    expect(stockSuffix({})).toBe('');
  });
});

describe('availabilityNote', () => {
  it('covers no variant, sold out, known stock and unknown stock', () => {
    expect(availabilityNote(null)).toBe('Choose a variant to see availability');
    expect(availabilityNote({ isSoldOut: true, availableStock: 5 })).toBe('This variant is sold out');
    expect(availabilityNote({ isSoldOut: false, availableStock: 3 })).toBe('3 in stock');
    expect(availabilityNote({ isSoldOut: false, availableStock: 0 })).toBe('Available to order');
  });
});

describe('isForSale', () => {
  const forSale = { productStatus: 'ACTIVE', productRemoved: false, variantRemoved: false, isActive: true, pogPrice: '25.00' };
  it('sells an active, priced variant of an ACTIVE product still in Shopify', () => {
    expect(isForSale(forSale)).toBe(true);
    expect(isForSale({ ...forSale, pogPrice: '0' })).toBe(true); // priced at zero is a price
  });
  it.each([
    ['a draft product', { productStatus: 'DRAFT' }],
    ['an archived product', { productStatus: 'ARCHIVED' }],
    ['a product gone from Shopify', { productRemoved: true }],
    ['a variant gone from Shopify', { variantRemoved: true }],
    ['a variant the admin did not activate', { isActive: false }],
    ['a variant without a POG price', { pogPrice: null }],
  ])('does not sell %s', (_, change) => {
    expect(isForSale({ ...forSale, ...change })).toBe(false);
  });
});

describe('soldOutByFlags', () => {
  it("is the admin's switch, or Shopify no longer selling it", () => {
    expect(soldOutByFlags(false, true)).toBe(false);
    expect(soldOutByFlags(true, true)).toBe(true);
    expect(soldOutByFlags(false, false)).toBe(true);
  });
});
