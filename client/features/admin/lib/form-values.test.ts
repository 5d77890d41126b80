import { describe, expect, it } from 'vitest';
import { parsePriceInput, parseStockInput, variantFormKey } from './form-values';

describe('parsePriceInput', () => {
  it('keeps the typed decimal text, at most 2 decimals', () => {
    expect(parsePriceInput('12')).toBe('12');
    expect(parsePriceInput(' 12.5 ')).toBe('12.5');
    expect(parsePriceInput('0.10')).toBe('0.10');
    expect(parsePriceInput('.5')).toBe('0.5');
    expect(parsePriceInput('123456789012.99')).toBe('123456789012.99');
  });

  it('reads a blank field as unpriced', () => {
    expect(parsePriceInput('')).toBeNull();
    expect(parsePriceInput('   ')).toBeNull();
  });

  it('refuses negatives, 3 decimals and non-numbers', () => {
    for (const bad of ['-1', '1.234', 'abc', '1e3', '1,5', '12.']) expect(parsePriceInput(bad), bad).toBe('invalid');
  });
});

describe('parseStockInput', () => {
  it('reads a whole number; anything non-numeric or negative becomes 0', () => {
    expect(parseStockInput('7')).toBe(7);
    expect(parseStockInput(' 12 ')).toBe(12);
    expect(parseStockInput('3.9')).toBe(3);
    expect(parseStockInput('')).toBe(0);
    expect(parseStockInput('abc')).toBe(0);
    expect(parseStockInput('-4')).toBe(0);
  });
});

describe('variantFormKey', () => {
  const item = { id: 'v1', pogPrice: '12.50', isActive: true, availableStock: null, isSoldOut: false };

  it('stays the same when only what the form does not edit changes (a sync of Shopify fields)', () => {
    const synced = { ...item, updatedAt: '2026-11-26T12:00:00.000Z', title: 'Renamed in Shopify' };
    expect(variantFormKey(synced)).toBe(variantFormKey(item));
  });

  it('changes with each value the form edits, and with the variant', () => {
    const keys = [
      item,
      { ...item, pogPrice: '12.5' },
      { ...item, pogPrice: null },
      { ...item, isActive: false },
      { ...item, availableStock: 0 },
      { ...item, isSoldOut: true },
      { ...item, id: 'v2' },
    ].map(variantFormKey);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
