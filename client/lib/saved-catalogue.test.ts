import { describe, expect, it } from 'vitest';
import { countProducts, findProduct, productsOfQuery, savedCatalogue } from './saved-catalogue';

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

  it('lists each product once, its newest copy, in the featured order the saved featured lists give', () => {
    const saved = savedCatalogue([
      // A search's page, the newest: its order is not the featured order.
      q(['catalogue', 'page', 'q=cap'], pagesOf([p('7', 'cap, newest'), p('2')]), 40),
      q(['catalogue', 'product', '9'], p('9'), 30),
      // The whole list (featured order), then the default view's pages, which come first.
      q(['catalogue', 'products'], [p('1'), p('2'), p('5'), p('7')], 10),
      q(['catalogue', 'page', ''], pagesOf([p('2'), p('1')], [p('3')]), 20),
      q(['catalogue', 'facets'], { productTypes: [] }, 50),
    ]);
    expect(saved.products.map((x) => x.id)).toEqual(['2', '1', '3', '5', '7', '9']);
    expect(saved.products.find((x) => x.id === '7')?.title).toBe('cap, newest');
    expect(saved.products.map((x) => saved.placeOf(x))).toEqual([0, 1, 2, 3, 4, 5]);
    // A product the device never saw comes after all of them.
    expect(saved.placeOf({ ...saved.products[0], id: '404' })).toBe(6);
    expect(savedCatalogue([]).products).toEqual([]);
  });
});
