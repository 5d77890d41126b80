import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery, useQuery, type InfiniteData } from '@tanstack/react-query';
import type { Product } from '../../../../common/api';
import {
  CATALOGUE_PAGE_SIZE,
  filterToSearchParams,
  type CatalogueFacets,
  type CatalogueFilter,
  type CataloguePage,
} from '../../../../common/catalogue-view';
import { apiFetch } from '../../../lib/api-client';

/**
 * A view's pages live under `['catalogue', 'page', <the view's URL query>]` (the normalised query,
 * `filterToSearchParams`, so one view has one key whatever the URL's order or extra parameters);
 * keys starting with 'catalogue' are kept for offline browsing (app/persistence.ts).
 */
export const cataloguePageQueryKey = (filter: CatalogueFilter) => ['catalogue', 'page', filterToSearchParams(filter).toString()] as const;
export const catalogueFacetsQueryKey = ['catalogue', 'facets'] as const;

/** The infinite query's data as the server's first page seeds it (inline-data.ts). */
export function firstPageData(page: CataloguePage): InfiniteData<CataloguePage, string | null> {
  return { pages: [page], pageParams: [null] };
}

function getCataloguePage(filter: CatalogueFilter, cursor: string | null, signal?: AbortSignal): Promise<CataloguePage> {
  const params = filterToSearchParams(filter);
  params.set('limit', String(CATALOGUE_PAGE_SIZE));
  if (cursor) params.set('cursor', cursor);
  return apiFetch<CataloguePage>(`/api/catalogue/products?${params.toString()}`, { signal });
}

/**
 * The pages of a view loaded so far; the next with `fetchNextPage`. While another view's first
 * page loads, the previous view's pages stay shown (`isPlaceholderData`), so the grid does not
 * empty and jump as the shopper types.
 */
export function cataloguePagesQueryOptions(filter: CatalogueFilter) {
  return infiniteQueryOptions({
    queryKey: cataloguePageQueryKey(filter),
    queryFn: ({ pageParam, signal }) => getCataloguePage(filter, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
    // Run once even when the browser thinks it is offline: the service worker may answer.
    networkMode: 'offlineFirst',
  });
}

export function useCataloguePages(filter: CatalogueFilter) {
  return useInfiniteQuery(cataloguePagesQueryOptions(filter));
}

/** The filters' values (product types, vendors, tags) with their counts. */
export function useCatalogueFacets() {
  return useQuery({
    queryKey: catalogueFacetsQueryKey,
    queryFn: ({ signal }) => apiFetch<CatalogueFacets>('/api/catalogue/facets', { signal }),
    networkMode: 'offlineFirst',
    staleTime: 5 * 60_000,
  });
}

/**
 * The products of the pages loaded so far, each once: a product that moved from one page to a
 * later one while the catalogue changed (repriced, retitled) is shown where it was first seen.
 */
export function productsOfPages(pages: readonly Pick<CataloguePage, 'products'>[]): Product[] {
  const seen = new Set<string>();
  const products: Product[] = [];
  for (const page of pages) {
    for (const product of page.products) {
      if (seen.has(product.id)) continue;
      seen.add(product.id);
      products.push(product);
    }
  }
  return products;
}
