import { describe, expect, it } from 'vitest';
import { countUnpriced, filterInventory, isUnpriced, type InventoryFilter } from './inventory-filter';

type Row = {
  id: string;
  title: string;
  originalTitle: string;
  customTitle: string | null;
  variantTitle: string;
  sku: string | null;
  isActive: boolean;
  pogPrice: string | null;
  inShop: { isSoldOut: boolean; availableStock: number; soldOutBy: 'admin' | 'shopify' | 'none-left' | null; stockFrom: null };
};
const soldOut = (soldOutBy: 'admin' | 'shopify' | 'none-left') => ({
  inShop: { isSoldOut: true, availableStock: 0, soldOutBy, stockFrom: null },
});
const row = (id: string, over: Partial<Row> = {}): Row => ({
  id,
  title: `Tee ${id}`,
  originalTitle: `Tee ${id}`,
  customTitle: null,
  variantTitle: 'Default Title',
  sku: null,
  isActive: true,
  pogPrice: '10.00',
  inShop: { isSoldOut: false, availableStock: 0, soldOutBy: null, stockFrom: null },
  ...over,
});

const items = [
  row('1', { title: 'Pog Tee - Black / M', originalTitle: 'Pog Tee', variantTitle: 'Black / M', sku: 'TEE-BLK-M' }),
  row('2', { title: 'Slammer Cap', isActive: false, pogPrice: null }),
  row('3', { title: 'Retro Pack', customTitle: 'Retro Pack', originalTitle: 'Vintage pogs', ...soldOut('admin') }),
  row('4', { title: 'Beanie', pogPrice: '  ', isActive: false, ...soldOut('shopify') }),
];
const ids = (search: string, filter: InventoryFilter) => filterInventory(items, search, filter).map((i) => i.id);

describe('filterInventory', () => {
  it('filters by active, inactive, unpriced and sold out in the shop (whoever says so)', () => {
    expect(ids('', 'all')).toEqual(['1', '2', '3', '4']);
    expect(ids('', 'active')).toEqual(['1', '3']);
    expect(ids('', 'inactive')).toEqual(['2', '4']);
    expect(ids('', 'unpriced')).toEqual(['2', '4']);
    expect(ids('', 'sold-out')).toEqual(['3', '4']);
  });

  it('searches titles (shown, Shopify, custom, variant) and SKU, case-insensitively, every word', () => {
    expect(ids('tee-blk', 'all')).toEqual(['1']);
    expect(ids('pog black', 'all')).toEqual(['1']);
    expect(ids('pog white', 'all')).toEqual([]);
    expect(ids('VINTAGE', 'all')).toEqual(['3']);
    expect(ids('  cap  ', 'all')).toEqual(['2']);
  });

  it('applies the search and the filter together', () => {
    expect(ids('e', 'sold-out')).toEqual(['3', '4']);
    expect(ids('beanie', 'active')).toEqual([]);
  });
});

describe('unpriced', () => {
  it('counts a missing or blank price as unpriced, 0 as priced', () => {
    expect(isUnpriced({ pogPrice: null })).toBe(true);
    expect(isUnpriced({ pogPrice: '' })).toBe(true);
    expect(isUnpriced({ pogPrice: '0.00' })).toBe(false);
    expect(countUnpriced(items)).toBe(2);
  });
});
