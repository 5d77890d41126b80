import { describe, expect, it } from 'vitest';
import type { Product } from '../../../../common/api';
import { DEFAULT_CATALOGUE_FILTER, filterFromSearchParams } from '../../../../common/catalogue-view';
import { cataloguePageQueryKey, productsOfPages } from './get-catalogue-page';

const product = (id: string, title = `Product ${id}`) => ({ id, title }) as unknown as Product;

describe('productsOfPages', () => {
  it('lists the pages’ products in order', () => {
    const pages = [{ products: [product('1'), product('2')] }, { products: [product('3')] }];
    expect(productsOfPages(pages).map((p) => p.id)).toEqual(['1', '2', '3']);
  });

  it('shows a product that moved to a later page (the catalogue changed between pages) once, where it was first seen', () => {
    const pages = [{ products: [product('1'), product('2', 'Before')] }, { products: [product('2', 'After'), product('3')] }];
    const products = productsOfPages(pages);
    expect(products.map((p) => p.id)).toEqual(['1', '2', '3']);
    expect(products[1].title).toBe('Before');
  });

  it('no pages, no products', () => {
    expect(productsOfPages([])).toEqual([]);
  });
});

describe('cataloguePageQueryKey', () => {
  it('one key per view, whatever the URL’s order, blanks or other parameters', () => {
    const a = filterFromSearchParams(new URLSearchParams('sort=price-asc&q=cap&type=Hats'));
    const b = filterFromSearchParams(new URLSearchParams('type=Hats&utm=1&q=%20cap%20&sort=price-asc&vendor='));
    expect(cataloguePageQueryKey(a)).toEqual(['catalogue', 'page', 'q=cap&type=Hats&sort=price-asc']);
    expect(cataloguePageQueryKey(b)).toEqual(cataloguePageQueryKey(a));
  });

  it('the default view, and a URL with unknown values, is the empty query', () => {
    expect(cataloguePageQueryKey(DEFAULT_CATALOGUE_FILTER)).toEqual(['catalogue', 'page', '']);
    expect(cataloguePageQueryKey(filterFromSearchParams(new URLSearchParams('sort=cheapest&q=')))).toEqual(['catalogue', 'page', '']);
  });

  it('different views, different keys', () => {
    const key = (query: string) => cataloguePageQueryKey(filterFromSearchParams(new URLSearchParams(query)))[2];
    expect(new Set([key('q=cap'), key('q=caps'), key('tag=cap'), key('q=cap&sort=newest')]).size).toBe(4);
  });
});
