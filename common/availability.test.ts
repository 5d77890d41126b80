import { describe, expect, it } from 'vitest';
import {
  anyLimited,
  availability,
  availabilityNote,
  isForSale,
  knownLimit,
  lineProblem,
  stockAfterSale,
  stockProblem,
  stockSource,
  stockSuffix,
  unitsLeft,
  type Availability,
  type Held,
  type StockFacts,
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

describe('stockSource / unitsLeft', () => {
  it("prefers the admin's number above 0 to Shopify's quantity", () => {
    expect(stockSource({ available_stock: 4, inventory_quantity: 9 })).toEqual({ stock: 4, from: 'admin' });
    expect(stockSource({ available_stock: 0, inventory_quantity: 9 })).toEqual({ stock: 9, from: 'shopify' });
    expect(stockSource({ available_stock: null, inventory_quantity: 9 })).toEqual({ stock: 9, from: 'shopify' });
    expect(stockSource({ available_stock: null, inventory_quantity: null })).toEqual({ stock: null, from: null });
  });

  it('has no limit when the stock is 0 or unknown, whatever is held', () => {
    expect(unitsLeft({ available_stock: 0, inventory_quantity: 0 })).toBeNull();
    expect(unitsLeft({ available_stock: -1, inventory_quantity: null })).toBeNull();
    expect(unitsLeft({ available_stock: null, inventory_quantity: 0 }, { claimed: 3, sold: 3 })).toBeNull();
    // The admin's 0 is no number of theirs: Shopify's quantity limits.
    expect(unitsLeft({ available_stock: 0, inventory_quantity: 5 })).toBe(5);
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

describe('stockProblem', () => {
  it('refuses a sold-out variant and more than the known stock, in the shop’s words', () => {
    expect(stockProblem({ isSoldOut: true, availableStock: 9 }, 1)).toBe('This item is sold out');
    expect(stockProblem({ isSoldOut: false, availableStock: 3 }, 4)).toBe('Only 3 items available');
    expect(stockProblem({ isSoldOut: false, availableStock: 3 }, 3)).toBeNull();
    expect(stockProblem({ isSoldOut: false, availableStock: 0 }, 10)).toBeNull();
    expect(stockProblem({}, 10)).toBeNull();
  });
});

describe('lineProblem', () => {
  const line = {
    for_sale: true,
    pog_price: '25.00',
    quantity: 2,
    inventory_quantity: null,
    available_for_sale: true,
    available_stock: null,
    is_sold_out: false,
  };

  it('calls a line not for sale or without a price no longer available', () => {
    expect(lineProblem({ ...line, for_sale: false })).toBe('This item is no longer available');
    expect(lineProblem({ ...line, pog_price: null })).toBe('This item is no longer available');
    expect(lineProblem({ ...line, pog_price: '0.000' })).toBe('This item is no longer available');
  });

  it('calls a line sold out by the rule, short when fewer are left than it holds, counting what others hold', () => {
    expect(lineProblem({ ...line, is_sold_out: true })).toBe('This item is sold out');
    expect(lineProblem({ ...line, available_for_sale: false })).toBe('This item is sold out');
    // The Dad Cap: Shopify has none, the admin says 5.
    expect(lineProblem({ ...line, inventory_quantity: 0, available_for_sale: false, available_stock: 5 })).toBeNull();
    expect(lineProblem({ ...line, available_stock: 3 }, { claimed: 3, sold: 0 })).toBe('This item is sold out');
    expect(lineProblem({ ...line, available_stock: 3 }, { claimed: 2, sold: 0 })).toBe('Only 1 items available');
    expect(lineProblem({ ...line, available_stock: 3 }, { claimed: 1, sold: 0 })).toBeNull();
    expect(lineProblem(line, { claimed: 9, sold: 9 })).toBeNull();
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

describe('availability: how Shopify’s quantity and the admin’s settings combine', () => {
  const facts = (
    inventory_quantity: number | null,
    available_for_sale: boolean,
    available_stock: number | null,
    is_sold_out: boolean,
  ): StockFacts => ({ inventory_quantity, available_for_sale, available_stock, is_sold_out });
  const none: Held = { claimed: 0, sold: 0 };
  const shows = (
    isSoldOut: boolean,
    availableStock: number,
    soldOutBy: Availability['soldOutBy'],
    stockFrom: Availability['stockFrom'],
  ) => ({
    isSoldOut,
    availableStock,
    soldOutBy,
    stockFrom,
  });

  it.each<[string, StockFacts, Held, Availability]>([
    // Shopify alone (the admin set nothing).
    ["Shopify's quantity", facts(9, true, null, false), none, shows(false, 9, null, 'shopify')],
    [
      "Shopify's quantity, less what is held and sold",
      facts(9, true, null, false),
      { claimed: 2, sold: 3 },
      shows(false, 4, null, 'shopify'),
    ],
    ["Shopify's quantity all held", facts(2, true, null, false), { claimed: 2, sold: 0 }, shows(true, 0, 'none-left', 'shopify')],
    ['Shopify has none and sells no more', facts(0, false, null, false), none, shows(true, 0, 'shopify', null)],
    ['Shopify has none but sells on (continue selling)', facts(0, true, null, false), none, shows(false, 0, null, null)],
    ['Shopify does not track it', facts(null, true, null, false), { claimed: 5, sold: 5 }, shows(false, 0, null, null)],
    ['Shopify would not sell it though it counts some', facts(4, false, null, false), none, shows(true, 4, 'shopify', 'shopify')],
    // The admin's number above 0 is the admin's say.
    ['the Dad Cap: Shopify has none, the admin says 5', facts(0, false, 5, false), none, shows(false, 5, null, 'admin')],
    ["the admin's number wins over Shopify's larger one", facts(20, true, 5, false), none, shows(false, 5, null, 'admin')],
    [
      "the admin's number less what is held (sold units are already off it)",
      facts(0, false, 5, false),
      { claimed: 2, sold: 7 },
      shows(false, 3, null, 'admin'),
    ],
    ["the admin's number all held", facts(0, false, 2, false), { claimed: 2, sold: 0 }, shows(true, 0, 'none-left', 'admin')],
    ["the admin's 0 is no number: Shopify's verdict stands", facts(0, false, 0, false), none, shows(true, 0, 'shopify', null)],
    ["the admin's 0 is no number: Shopify's quantity applies", facts(7, true, 0, false), none, shows(false, 7, null, 'shopify')],
    // The admin's switch wins over everything.
    ['switched sold out, with Shopify stock', facts(9, true, null, true), none, shows(true, 9, 'admin', 'shopify')],
    ["switched sold out, with the admin's number", facts(0, false, 5, true), none, shows(true, 5, 'admin', 'admin')],
  ])('%s', (_, v, held, expected) => {
    expect(availability(v, held)).toEqual(expected);
  });
});

describe('stockAfterSale: a paid order and the admin’s settings', () => {
  it.each([
    ["lowers the admin's number", { available_stock: 5, is_sold_out: false }, 2, { available_stock: 3, is_sold_out: false }],
    ['switches sold out on with the last unit', { available_stock: 2, is_sold_out: false }, 2, { available_stock: 0, is_sold_out: true }],
    ['never goes below 0', { available_stock: 1, is_sold_out: false }, 3, { available_stock: 0, is_sold_out: true }],
    ['keeps a switch already on', { available_stock: 5, is_sold_out: true }, 1, { available_stock: 4, is_sold_out: true }],
    ["leaves Shopify's stock to Shopify", { available_stock: null, is_sold_out: false }, 1, null],
    ["takes the admin's 0 as no number", { available_stock: 0, is_sold_out: false }, 1, null],
  ])('%s', (_, v, quantity, expected) => {
    expect(stockAfterSale(v, quantity)).toEqual(expected);
  });

  it('leaves a variant sold out by the rule once its last unit is sold, whatever Shopify says', () => {
    const before = { inventory_quantity: 0, available_for_sale: false, available_stock: 1, is_sold_out: false };
    expect(availability(before).isSoldOut).toBe(false);
    const after = { ...before, ...stockAfterSale(before, 1)! };
    expect(availability(after)).toEqual({ isSoldOut: true, availableStock: 0, soldOutBy: 'admin', stockFrom: null });
  });
});
