import { describe, expect, it } from 'vitest';
import { countUnpriced, INVENTORY_FILTERS, isUnpriced, noMatchText, parseFilter } from './inventory-filter';

describe('the list filters', () => {
  it('offers every filter the server takes, each with a label', () => {
    expect(INVENTORY_FILTERS.map((f) => [f.id, f.label])).toEqual([
      ['all', 'All'],
      ['active', 'Active'],
      ['inactive', 'Inactive'],
      ['unpriced', 'Unpriced'],
      ['sold-out', 'Sold out'],
    ]);
  });

  it('reads the filter from the address, anything unknown being all', () => {
    expect(parseFilter('inactive')).toBe('inactive');
    expect(parseFilter('sold-out')).toBe('sold-out');
    expect(parseFilter(null)).toBe('all');
    expect(parseFilter('SOLD-OUT')).toBe('all');
    expect(parseFilter('constructor')).toBe('all');
  });

  it('counts a variant without a POG price (or a blank one) as unpriced', () => {
    const items = [{ pogPrice: '10.00' }, { pogPrice: null }, { pogPrice: '  ' }, { pogPrice: '0.00' }];
    expect(items.map(isUnpriced)).toEqual([false, true, true, false]);
    expect(countUnpriced(items)).toBe(2);
  });

  it('says what matched nothing: the search in quotes, with the filter when one is on', () => {
    expect(noMatchText(' hoodie ', 'all')).toBe('No products match “hoodie”');
    expect(noMatchText('cap', 'sold-out')).toBe('No sold out products match “cap”');
    expect(noMatchText('', 'inactive')).toBe('No inactive products');
  });
});
