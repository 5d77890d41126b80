import { describe, expect, it } from 'vitest';
import { groupTitle, inventoryGroups } from './admin';

describe('groupTitle: the variant suffix stripping', () => {
  it.each([
    ...['XS', 'S', 'M', 'L', 'XL', 'XXL', '2XL', '3XL', '4XL', 'xl'].map((size) => [`Pog Tee - Black / ${size}`, 'Pog Tee']),
    ['Pog Tee - Heather Grey / M', 'Pog Tee'],
    ['Slammer Cap - L', 'Slammer Cap'],
    ['Slammer Cap - 3XL', 'Slammer Cap'],
    ['Beanie - One Size', 'Beanie'],
    ['Beanie One Size', 'Beanie'],
    ['Beanie - OS', 'Beanie'],
    ['Beanie OS', 'Beanie'],
    ['Pog Pack - 50', 'Pog Pack'],
    ['Sneakers - White / 42', 'Sneakers'],
    ['Sticker Sheet -', 'Sticker Sheet'],
    ['Sticker Sheet - ', 'Sticker Sheet'],
    // Left alone: a colour alone is no size, nor is a word ending in S.
    ['Pog Tee - Black', 'Pog Tee - Black'],
    ['Mesh Shorts', 'Mesh Shorts'],
    ['Slammers', 'Slammers'],
    ['Kids Hats', 'Kids Hats'],
    // A title that is only a size stays.
    ['XL', 'XL'],
    ['One Size', 'One Size'],
    ['', ''],
    // Any title holding the hoodie's name is called by it.
    ['Classic Hoodie - Black / XL', 'Classic Hoodie'],
    ['POGS classic hoodie (limited) - Cream', 'Classic Hoodie'],
  ])('%j → %j', (title, expected) => {
    expect(groupTitle(title)).toBe(expected);
  });

  it('takes a missing title as empty', () => {
    expect(groupTitle(null)).toBe('');
    expect(groupTitle(undefined)).toBe('');
  });
});

describe('inventoryGroups: a group is a Shopify product', () => {
  type Row = { id: string; productId: string; originalTitle: string; customTitle: string | null };
  const row = (id: string, productId: string, originalTitle: string, customTitle: string | null = null): Row => ({
    id,
    productId,
    originalTitle,
    customTitle,
  });

  it('groups by product whatever the variant titles, in first-seen order, named by the stripped shown title', () => {
    const groups = inventoryGroups([
      row('1', 'p-tube', 'Pog Tube'), // Clear
      row('2', 'p-tee', 'Pog Tee - XL'),
      row('3', 'p-tube', 'Pog Tube'), // Smoke
      row('4', 'p-hood', 'POGS Classic Hoodie (limited)'),
      row('5', 'p-tube', 'Pog Tube'), // Neon Green
      row('6', 'p-pack', 'Vintage pogs', 'Retro Pack - 50'),
    ]);
    expect(groups.map((g) => [g.productId, g.title, g.variants.map((v) => v.id), g.base.id])).toEqual([
      ['p-tube', 'Pog Tube', ['1', '3', '5'], '1'],
      ['p-tee', 'Pog Tee', ['2'], '2'],
      ['p-hood', 'Classic Hoodie', ['4'], '4'],
      ['p-pack', 'Retro Pack', ['6'], '6'],
    ]);
  });

  it('keeps two products apart even when their titles are the same (the hoodie’s included)', () => {
    const groups = inventoryGroups([
      row('1', 'a', 'Sticker Pack'),
      row('2', 'b', 'Sticker Pack'),
      row('3', 'c', 'Classic Hoodie'),
      row('4', 'd', 'Classic Hoodie Zip'),
    ]);
    expect(groups.map((g) => [g.productId, g.title, g.variants.length])).toEqual([
      ['a', 'Sticker Pack', 1],
      ['b', 'Sticker Pack', 1],
      ['c', 'Classic Hoodie', 1],
      ['d', 'Classic Hoodie', 1],
    ]);
  });

  it('makes no groups of no items', () => {
    expect(inventoryGroups([])).toEqual([]);
  });
});
