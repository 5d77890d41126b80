import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { NOTHING_HELD, type StockFacts } from '../../../common/availability';
import { heldFor, StockService, type HeldQuery } from './stock';

/** Stands in for a connection: the reads below never touch it, they only record who was given it. */
const DB = { name: 'the caller’s transaction' } as unknown as Knex.Transaction;
const NOW = new Date('2030-01-01T00:00:00Z');

/** A StockService over fixed owners' reads, recording what each was asked. */
function stockWith(claimed: Record<string, number>, sold: Record<string, number>) {
  const asked: Array<{ read: 'claimed' | 'sold'; db: unknown; now?: Date; query: HeldQuery }> = [];
  const only = (units: Record<string, number>, ids?: readonly string[]) =>
    new Map(Object.entries(units).filter(([id]) => !ids || ids.includes(id)));
  const stock = new StockService({
    claimed: async (db, now, query) => {
      asked.push({ read: 'claimed', db, now, query });
      return only(claimed, query.variantIds);
    },
    sold: async (db, query) => {
      asked.push({ read: 'sold', db, query });
      return only(sold, query.variantIds);
    },
  });
  return { stock, asked };
}

const limited = (
  variant_id: string,
  stock: number,
  quantity: number,
): StockFacts & { variant_id: string; title: string; quantity: number; unit_price: string } => ({
  variant_id,
  title: `Pog ${variant_id}`,
  quantity,
  unit_price: '5',
  // Shopify's quantity: the unsynced sales count against it (the admin's number is lowered at the sale).
  available_stock: null,
  inventory_quantity: stock,
  available_for_sale: true,
  is_sold_out: false,
});

describe('StockService', () => {
  it('adds the claims and the unsynced sales per variant, each read in the caller’s connection', async () => {
    const { stock, asked } = stockWith({ a: 2, b: 1 }, { b: 3, c: 4 });
    const held = await stock.held(DB, NOW);
    expect(Object.fromEntries(held)).toEqual({ a: { claimed: 2, sold: 0 }, b: { claimed: 1, sold: 3 }, c: { claimed: 0, sold: 4 } });
    expect(asked).toEqual([
      { read: 'claimed', db: DB, now: NOW, query: {} },
      { read: 'sold', db: DB, query: { variantIds: undefined } },
    ]);
    expect(heldFor(held, 'none')).toBe(NOTHING_HELD);
  });

  it('asks both owners about the same variants, and only payments about the checkout left out', async () => {
    const { stock, asked } = stockWith({ a: 2 }, { a: 1 });
    await stock.held(DB, NOW, { variantIds: ['a'], exceptIntent: 'intent-1' });
    expect(asked.map((a) => a.query)).toEqual([{ variantIds: ['a'], exceptIntent: 'intent-1' }, { variantIds: ['a'] }]);
  });

  it('judges only the lines with a known limit, and reads nothing when none has one', async () => {
    const { stock, asked } = stockWith({ a: 2, b: 9 }, { a: 1 });
    const unlimited = limited('b', 0, 5);
    // a: 4 in Shopify's stock, 2 claimed and 1 sold, 2 wanted → only 1 left; b: 0 is no known limit.
    expect(await stock.lineProblems(DB, NOW, [limited('a', 4, 2), unlimited], () => ({ for_sale: true, pog_price: '5' }))).toEqual([
      'Pog a: Only 1 items available',
    ]);
    expect(asked.map((a) => a.query.variantIds)).toEqual([['a'], ['a']]);
    asked.length = 0;
    expect(await stock.lineProblems(DB, NOW, [unlimited], () => ({ for_sale: true, pog_price: '5' }))).toEqual([]);
    expect(asked).toEqual([]);
  });

  it('finds a paid checkout’s first short line, its own claim left out', async () => {
    const { stock, asked } = stockWith({ a: 1 }, {});
    expect(await stock.shortLine(DB, 'intent-1', [limited('a', 3, 2)], NOW)).toBeNull();
    expect(asked[0]).toMatchObject({ read: 'claimed', query: { variantIds: ['a'], exceptIntent: 'intent-1' } });
    expect(await stock.shortLine(DB, 'intent-1', [limited('a', 2, 2)], NOW)).toBe('Pog a: Only 1 items available');
  });
});
