import { describe, expect, it } from 'vitest';
import type { Product } from '../../../../common/api';
import { DEFAULT_CATALOGUE_FILTER, type CatalogueFilter } from '../../../../common/catalogue-view';
import { prepareSavedSearch, searchSaved } from './saved-search';

function product(id: string, title: string, more: Partial<Product> = {}): Product {
  const price = more.price ?? '10';
  return {
    id,
    title,
    description: '',
    images: [],
    featuredImage: null,
    variants: [{ id: `${id}1`, title: 'Default', price, isSoldOut: false, availableStock: 1, sku: null }],
    vendor: 'POG Co',
    productType: 'Pogs',
    tags: [],
    updatedAt: '2026-01-01T00:00:00Z',
    priceRange: { minVariantPrice: { amount: price, currencyCode: 'POG' } },
    ...more,
    price,
  };
}
const q = (queryKey: unknown[], data: unknown, dataUpdatedAt = 1) => ({ queryKey, state: { data, dataUpdatedAt } });
const pagesOf = (...pages: Product[][]) => ({
  pages: pages.map((products) => ({ products, total: 4999, nextCursor: 'more' })),
  pageParams: pages.map(() => null),
});
const view = (filter: Partial<CatalogueFilter>): CatalogueFilter => ({ ...DEFAULT_CATALOGUE_FILTER, ...filter });
const ids = (products: Product[]) => products.map((p) => p.id);

const cap = product('10', 'Gold Cap', { productType: 'Caps', tags: ['holo'], price: '5' });
const slammer = product('20', 'Café Slammer', { vendor: 'Crème Co', price: '2' });
const kit = product('30', 'Slammer Kit', { productType: 'Kits', tags: ['holo', 'rare'], price: '2' });
const opened = product('40', 'Golden Pog', { price: '1' });

describe('the saved products, searched on the device', () => {
  // The default view's two pages, a search's page (one product also on the default view, a newer
  // copy), and one product opened on its own page.
  const saved = prepareSavedSearch([
    q(['catalogue', 'page', ''], pagesOf([cap, slammer], [kit]), 10),
    q(['catalogue', 'page', 'q=golden'], pagesOf([opened, { ...cap, title: 'Gold Cap, renamed' }]), 30),
    q(['catalogue', 'product', '40'], opened, 20),
    q(['catalogue', 'facets'], { productTypes: [{ value: 'Pogs', count: 4000 }], vendors: [], tags: [] }, 5),
  ]);

  it('holds each product once, whichever queries hold it, and counts them so', () => {
    expect(saved.count).toBe(4);
    expect(searchSaved(saved, view({}))).toHaveLength(4);
    // The newest query's copy.
    expect(searchSaved(saved, view({ q: 'renamed' })).map((p) => p.title)).toEqual(['Gold Cap, renamed']);
  });

  it('orders the featured view as the saved featured pages do, then the rest', () => {
    expect(ids(searchSaved(saved, view({})))).toEqual(['10', '20', '30', '40']);
  });

  it("applies the search, filters and sort by the server's rules", () => {
    // Every word a prefix of one of the product's words, accents folded.
    expect(ids(searchSaved(saved, view({ q: 'slam' })))).toEqual(['20', '30']);
    expect(ids(searchSaved(saved, view({ q: 'CAFE slam' })))).toEqual(['20']);
    expect(ids(searchSaved(saved, view({ q: 'gold' })))).toEqual(['10', '40']);
    expect(searchSaved(saved, view({ q: 'zzqx' }))).toEqual([]);
    // Filters: folded, exact; a tag is any of the product's tags.
    expect(ids(searchSaved(saved, view({ vendor: 'creme co' })))).toEqual(['20']);
    expect(ids(searchSaved(saved, view({ tag: 'HOLO' })))).toEqual(['10', '30']);
    expect(ids(searchSaved(saved, view({ type: 'caps', q: 'gold' })))).toEqual(['10']);
    // Sorts: the tie (20 and 30 both at 2) goes by featured place.
    expect(ids(searchSaved(saved, view({ sort: 'price-asc' })))).toEqual(['40', '20', '30', '10']);
    expect(ids(searchSaved(saved, view({ sort: 'price-desc' })))).toEqual(['10', '20', '30', '40']);
    expect(ids(searchSaved(saved, view({ sort: 'newest' })))).toEqual(['40', '30', '20', '10']);
  });

  it("offers the saved products' filter values, counted among them (not the server's counts)", () => {
    expect(saved.facets.productTypes).toEqual([
      { value: 'Pogs', count: 2 },
      { value: 'Caps', count: 1 },
      { value: 'Kits', count: 1 },
    ]);
    expect(saved.facets.tags).toEqual([
      { value: 'holo', count: 2 },
      { value: 'rare', count: 1 },
    ]);
  });

  it('is empty when nothing is saved', () => {
    const none = prepareSavedSearch([q(['catalogue', 'facets'], { productTypes: [], vendors: [], tags: [] })]);
    expect(none.count).toBe(0);
    expect(searchSaved(none, view({}))).toEqual([]);
  });
});
