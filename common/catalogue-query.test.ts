import { describe, expect, it } from 'vitest';
import { cataloguePageQuerySchema } from './catalogue-query';
import {
  CATALOGUE_SORT_LABELS,
  CATALOGUE_SORTS,
  DEFAULT_CATALOGUE_FILTER,
  filterFromSearchParams,
  filterToSearchParams,
  isDefaultFilter,
} from './catalogue-view';

describe('a view of the catalogue in the URL', () => {
  it('round-trips every field, writing only what differs from the default in one order', () => {
    const filter = { q: 'red cap', type: 'Hats', vendor: 'POGS', tag: 'summer', sort: 'price-desc' } as const;
    const params = filterToSearchParams(filter);
    expect(params.toString()).toBe('q=red+cap&type=Hats&vendor=POGS&tag=summer&sort=price-desc');
    expect(filterFromSearchParams(params)).toEqual(filter);
    expect(filterToSearchParams(DEFAULT_CATALOGUE_FILTER).toString()).toBe('');
    expect(filterToSearchParams({ ...DEFAULT_CATALOGUE_FILTER, tag: 'x' }).toString()).toBe('tag=x');
  });

  it('opens a stale or hand-edited link on the defaults instead of failing', () => {
    const filter = filterFromSearchParams(new URLSearchParams(`sort=cheapest&q=${'a'.repeat(300)}&type=%20Hats%20&utm_source=x`));
    expect(filter.sort).toBe('featured');
    expect(filter.q).toHaveLength(100);
    expect(filter.type).toBe('Hats');
    expect(isDefaultFilter(filterFromSearchParams(new URLSearchParams('utm_source=x')))).toBe(true);
    expect(isDefaultFilter(filter)).toBe(false);
  });

  it('names every sort for shoppers', () => {
    for (const sort of CATALOGUE_SORTS) expect(CATALOGUE_SORT_LABELS[sort]).toMatch(/\w/);
  });
});

describe('the page route query', () => {
  it('defaults to the first page of 24 in the featured order and refuses what it cannot serve', () => {
    expect(cataloguePageQuerySchema.parse({})).toEqual({ ...DEFAULT_CATALOGUE_FILTER, limit: 24 });
    expect(cataloguePageQuerySchema.safeParse({ limit: '61' }).success).toBe(false);
    expect(cataloguePageQuerySchema.safeParse({ sort: 'cheapest' }).success).toBe(false);
    expect(cataloguePageQuerySchema.safeParse({ q: 'a'.repeat(101) }).success).toBe(false);
    expect(cataloguePageQuerySchema.parse({ q: '  cap ' }).q).toBe('cap');
  });
});
