import { describe, expect, it } from 'vitest';
import { countProducts, findProduct, productsOfQuery } from './saved-catalogue';

const p = (id: string, title = `Product ${id}`) => ({ id, title });
const q = (queryKey: unknown[], data: unknown, dataUpdatedAt = 1) => ({ queryKey, state: { data, dataUpdatedAt } });
const pagesOf = (...pages: { id: string }[][]) => ({
  pages: pages.map((products) => ({ products, total: 99, nextCursor: null })),
  pageParams: pages.map(() => null),
});

describe('saved catalogue', () => {
  it("reads the products of the list, a view's pages and one product; none of other queries", () => {
    expect(productsOfQuery(['catalogue', 'products'], [p('1'), p('2')]).map((x) => x.id)).toEqual(['1', '2']);
    expect(productsOfQuery(['catalogue', 'page', ''], pagesOf([p('1')], [p('3')])).map((x) => x.id)).toEqual(['1', '3']);
    expect(productsOfQuery(['catalogue', 'product', '5'], p('5')).map((x) => x.id)).toEqual(['5']);
    expect(productsOfQuery(['catalogue', 'facets'], { productTypes: [] })).toEqual([]);
    expect(productsOfQuery(['cart'], [p('1')])).toEqual([]);
    expect(productsOfQuery(['catalogue', 'page', ''], { unexpected: true })).toEqual([]);
  });

  it('counts each product once, wherever it is', () => {
    const queries = [
      q(['catalogue', 'page', ''], pagesOf([p('1'), p('2')])),
      q(['catalogue', 'product', '2'], p('2')),
      q(['catalogue', 'product', '9'], p('9')),
    ];
    expect(countProducts(queries)).toBe(3);
    expect(countProducts([])).toBe(0);
  });

  it('finds a product in the newest query that has it', () => {
    const queries = [q(['catalogue', 'products'], [p('1', 'old')], 10), q(['catalogue', 'page', 'q=cap'], pagesOf([p('1', 'new')]), 20)];
    expect(findProduct(queries, '1')?.title).toBe('new');
    expect(findProduct(queries, '404')).toBeUndefined();
  });
});
