import type { DehydratedState } from '@tanstack/react-query';
import { catalogueQueryKind, countProducts } from '../lib/saved-catalogue';

type DehydratedQuery = DehydratedState['queries'][number];

/**
 * How much of the catalogue is saved on the device for offline browsing, in characters of JSON
 * (about bytes: product data is mostly ASCII). 4 MiB: far below what IndexedDB grants any origin
 * (a share of the disk, hundreds of MB and more in Chrome, Firefox and Safari), and small enough
 * that reading it back before the first screen (one JSON.parse) and writing it (at most once a
 * second, only when the cache changed) stay in the tens of milliseconds on a mid-range phone. A
 * product is about 1 KB of JSON, so the whole list is kept up to roughly 3,500 products; past that
 * the home's first pages and the products last opened are kept, and the list is left out.
 */
export const OFFLINE_BUDGET_CHARS = 4 * 1024 * 1024;
/**
 * The smaller set kept when the browser refused a save (its storage full) or when only
 * localStorage is there (IndexedDB unavailable, as in some private windows): about 500 products'
 * worth, well inside localStorage's 5 MB, which other sites' data does not share.
 */
export const FALLBACK_BUDGET_CHARS = 512 * 1024;
/** The products opened on their own page that are kept, the most recently loaded first. */
export const MAX_SAVED_PRODUCTS = 100;

/** What was chosen to be kept, and what it holds. */
export interface OfflineSelection {
  queries: DehydratedQuery[];
  /** The kept queries' size as measured (about their JSON's length). */
  chars: number;
  /** Different products in the kept queries: what the shop can show offline. */
  products: number;
  /** Queries of the cache that were not kept at all (over the budget or the product limit). */
  leftOut: number;
}

/** A value's size: its JSON's length. */
export const jsonLength = (value: unknown): number => JSON.stringify(value)?.length ?? 0;

interface InfiniteData {
  pages: unknown[];
  pageParams: unknown[];
}

const isInfinite = (data: unknown): data is InfiniteData =>
  typeof data === 'object' &&
  data !== null &&
  Array.isArray((data as InfiniteData).pages) &&
  Array.isArray((data as InfiniteData).pageParams);

/** The default view of the home's grid: no search, no filter, the featured order (its URL query is empty). */
const isDefaultView = (query: DehydratedQuery) => (query.queryKey[2] ?? '') === '';

const withData = (query: DehydratedQuery, data: unknown): DehydratedQuery => ({ ...query, state: { ...query.state, data } });

/**
 * Which of the cache's persistable queries (the catalogue's and the config, already chosen by
 * `shouldPersistQuery`) are saved for offline browsing within `budget` characters, in this order:
 * 1. the config and the catalogue's small queries (the filters' facets);
 * 2. the first page of the home's default view;
 * 3. the products opened on their own page, the most recently loaded first, up to MAX_SAVED_PRODUCTS;
 * 4. the views' further pages in order (the default view's first, then the other views', the most
 *    recently loaded first), each view as far as the budget allows (a view keeps its first pages);
 * 5. the whole product list, only if it fits in what is left.
 * `measure` gives a value's size (a memoizing one saves measuring the same data again).
 */
export function selectOfflineQueries(
  queries: readonly DehydratedQuery[],
  budget: number,
  measure: (value: unknown) => number = jsonLength,
): OfflineSelection {
  let used = 0;
  let leftOut = 0;
  const kept: DehydratedQuery[] = [];
  const take = (query: DehydratedQuery, size: number): boolean => {
    if (used + size > budget) return false;
    used += size;
    kept.push(query);
    return true;
  };
  const sizeOf = (query: DehydratedQuery) => measure(withData(query, null)) + measure(query.state.data);
  const newestFirst = (a: DehydratedQuery, b: DehydratedQuery) => b.state.dataUpdatedAt - a.state.dataUpdatedAt;

  const small: DehydratedQuery[] = [];
  const products: DehydratedQuery[] = [];
  const lists: DehydratedQuery[] = [];
  const views: { query: DehydratedQuery; data: InfiniteData; base: number; pageSizes: number[]; pages: number }[] = [];
  for (const query of queries) {
    const kind = catalogueQueryKind(query.queryKey);
    if (kind === 'product') products.push(query);
    else if (kind === 'list') lists.push(query);
    else if (kind === 'pages' && isInfinite(query.state.data)) {
      const data = query.state.data;
      views.push({
        query,
        data,
        base: measure(withData(query, { pages: [], pageParams: [] })),
        pageSizes: data.pages.map((page, i) => measure(page) + measure(data.pageParams[i] ?? null) + 2),
        pages: 0,
      });
    } else if (kind === 'pages')
      leftOut++; // not the shape the grid keeps: nothing to show from it
    else small.push(query);
  }
  views.sort((a, b) => Number(isDefaultView(b.query)) - Number(isDefaultView(a.query)) || newestFirst(a.query, b.query));

  /** Adds the view's next page if it fits (with the query around it, for its first page). */
  const nextPage = (view: (typeof views)[number]): boolean => {
    if (view.pages >= view.data.pages.length) return false;
    const size = view.pageSizes[view.pages] + (view.pages === 0 ? view.base : 0);
    if (used + size > budget) return false;
    used += size;
    view.pages++;
    return true;
  };

  for (const query of small) if (!take(query, sizeOf(query))) leftOut++;
  const defaultView = views.find((view) => isDefaultView(view.query));
  if (defaultView) nextPage(defaultView);
  products.sort(newestFirst);
  products.forEach((query, i) => {
    if (i >= MAX_SAVED_PRODUCTS || !take(query, sizeOf(query))) leftOut++;
  });
  for (const view of views) while (nextPage(view));
  for (const view of views) {
    if (view.pages === 0) leftOut++;
    else if (view.pages === view.data.pages.length) kept.push(view.query);
    else {
      const { pages, pageParams } = view.data;
      kept.push(withData(view.query, { pages: pages.slice(0, view.pages), pageParams: pageParams.slice(0, view.pages) }));
    }
  }
  for (const query of lists) {
    // Measured product by product, stopping at what is left: a list too big is never serialized whole.
    const data = query.state.data;
    let size = measure(withData(query, [])) + (Array.isArray(data) ? 0 : measure(data));
    if (Array.isArray(data)) {
      for (const item of data) {
        size += measure(item) + 1;
        if (used + size > budget) break;
      }
    }
    if (!take(query, size)) leftOut++;
  }

  return { queries: kept, chars: used, products: countProducts(kept), leftOut };
}

/**
 * `measure` that remembers each object's size while the object lives: the cache's data keeps its
 * identity until it changes, so a save after a small change measures only what changed.
 */
export function memoizedMeasure(): (value: unknown) => number {
  const sizes = new WeakMap<object, number>();
  return (value) => {
    if (typeof value !== 'object' || value === null) return jsonLength(value);
    let size = sizes.get(value);
    if (size === undefined) {
      size = jsonLength(value);
      sizes.set(value, size);
    }
    return size;
  };
}
