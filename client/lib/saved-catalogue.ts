import type { Product } from '../../common/api';

/**
 * The catalogue's queries as the query cache holds them (and as they are saved on the device for
 * offline browsing, app/persistence.ts):
 * - `['catalogue', 'products']`: the whole list (Product[]);
 * - `['catalogue', 'page', <the view's URL query>]`: the pages of a view of the home's grid loaded
 *   so far ({pages: CataloguePage[], pageParams}), '' for the default view;
 * - `['catalogue', 'product', <id>]`: one product, as its own page loads it;
 * - anything else under 'catalogue' (the filters' facets) carries no product.
 */
export type CatalogueQueryKind = 'list' | 'pages' | 'product' | 'other';

export function catalogueQueryKind(queryKey: readonly unknown[]): CatalogueQueryKind | undefined {
  if (queryKey[0] !== 'catalogue') return undefined;
  switch (queryKey[1]) {
    case 'products':
      return 'list';
    case 'page':
      return 'pages';
    case 'product':
      return 'product';
    default:
      return 'other';
  }
}

const isProduct = (value: unknown): value is Product =>
  typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'string';

/** The products one catalogue query's data holds (none for another query or unexpected data). */
export function productsOfQuery(queryKey: readonly unknown[], data: unknown): readonly Product[] {
  switch (catalogueQueryKind(queryKey)) {
    case 'list':
      return Array.isArray(data) ? data.filter(isProduct) : [];
    case 'pages': {
      const pages = (data as { pages?: unknown } | undefined)?.pages;
      if (!Array.isArray(pages)) return [];
      return pages.flatMap((page: { products?: unknown } | null) => (Array.isArray(page?.products) ? page.products.filter(isProduct) : []));
    }
    case 'product':
      return isProduct(data) ? [data] : [];
    default:
      return [];
  }
}

interface CachedQuery {
  queryKey: readonly unknown[];
  state: { data: unknown; dataUpdatedAt: number };
}

/** How many different products the given queries hold. */
export function countProducts(queries: readonly CachedQuery[]): number {
  const ids = new Set<string>();
  for (const query of queries) for (const product of productsOfQuery(query.queryKey, query.state.data)) ids.add(product.id);
  return ids.size;
}

/**
 * The product with this id as any of the given queries holds it, the most recently updated
 * query first (its own query, a page of the grid or the whole list: they carry the same shape).
 */
export function findProduct(queries: readonly CachedQuery[], id: string): Product | undefined {
  const newestFirst = [...queries].sort((a, b) => b.state.dataUpdatedAt - a.state.dataUpdatedAt);
  for (const query of newestFirst) {
    const product = productsOfQuery(query.queryKey, query.state.data).find((p) => p.id === id);
    if (product) return product;
  }
  return undefined;
}
