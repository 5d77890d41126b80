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

export interface CachedQuery {
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

/** What the device has saved of the catalogue, as one list to search offline. */
export interface SavedCatalogue {
  /** Every product the queries hold, once: its copy from the most recently updated query that has it. */
  products: Product[];
  /** A product's place in the featured order as far as the device knows it (lower first, unique). */
  placeOf: (product: Product) => number;
}

/** The home's default view (no search, no filter, featured): its URL query is empty. */
const isDefaultViewPages = (query: CachedQuery) => catalogueQueryKind(query.queryKey) === 'pages' && (query.queryKey[2] ?? '') === '';

/**
 * The products the given queries hold, each once, with their featured places. The device does not
 * know the server's featured order (its row ids), only lists in it: the featured place is the
 * order in which the saved featured lists give the products (the default view's pages, then the
 * whole list, both in the server's featured order); the products only other queries hold (a
 * search's pages, a product opened) come after, in the order the most recently updated query
 * lists them.
 */
export function savedCatalogue(queries: readonly CachedQuery[]): SavedCatalogue {
  const newestFirst = [...queries].sort((a, b) => b.state.dataUpdatedAt - a.state.dataUpdatedAt);
  const copies = new Map<string, Product>();
  for (const query of newestFirst) {
    for (const product of productsOfQuery(query.queryKey, query.state.data)) if (!copies.has(product.id)) copies.set(product.id, product);
  }
  const places = new Map<string, number>();
  const featuredLists = [
    ...newestFirst.filter(isDefaultViewPages),
    ...newestFirst.filter((query) => catalogueQueryKind(query.queryKey) === 'list'),
  ];
  for (const query of [...featuredLists, ...newestFirst]) {
    for (const product of productsOfQuery(query.queryKey, query.state.data))
      if (!places.has(product.id)) places.set(product.id, places.size);
  }
  const products = [...copies.values()].sort((a, b) => places.get(a.id)! - places.get(b.id)!);
  return { products, placeOf: (product) => places.get(product.id) ?? places.size };
}
