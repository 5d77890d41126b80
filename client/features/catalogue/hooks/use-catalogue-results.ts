import { useIsRestoring } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { Product } from '../../../../common/api';
import { CATALOGUE_PAGE_SIZE, filterToSearchParams, type CatalogueFacets, type CatalogueFilter } from '../../../../common/catalogue-view';
import { ApiError, apiErrorText } from '../../../lib/api-client';
import { useConnection, type Connection } from '../../../lib/online-status';
import { useHydrated } from '../../../lib/use-hydrated';
import { productsOfPages, useCatalogueFacets, useCataloguePages } from '../api/get-catalogue-page';
import type { MoreProducts } from '../components/product-grid';
import { useSavedSearch } from './use-saved-products';

/** The home's grid for a view: its products, their count, and where they come from. */
export interface CatalogueResults {
  /** The products to show; undefined while there are none yet (loading, or failed). */
  products: Product[] | undefined;
  /** How many products the view has in all: the server's count, or offline how many saved products match. */
  total: number;
  /** The view (its URL query) whose products are shown: the previous one while the next one's first page loads. */
  shownView: string;
  /** The products shown are the previous view's, while this one's first page loads. */
  placeholder: boolean;
  /** A new view's first page is on its way. */
  loading: boolean;
  more: MoreProducts;
  facets: CatalogueFacets | undefined;
  /** Offline (or the server out of reach): the products are the saved ones that match, searched on the device. */
  saved: { connection: Exclude<Connection, 'online'>; count: number } | null;
  /** Why the first page failed (no products to show). */
  error: Error | null;
  retry: () => void;
  retrying: boolean;
  /** The first answer (or the device's) is still to come. */
  pending: boolean;
}

/** A request that got no HTTP answer (the device offline, the network failing), not an answer with an error status. */
const isNetworkFailure = (error: Error | null) => error instanceof ApiError && error.status === 0;

const errorText = (error: Error) => (error instanceof ApiError ? apiErrorText(error) : error.message);

/**
 * The home's grid for a view. From the server, a page at a time; without the server (the device
 * offline, or the view's request got no answer) and with products saved on the device, the view's
 * search, filters and sort are applied on the device to every product it saved, shown a page at a
 * time the same way, and counted as what can be shown. Once the server answers again, TanStack
 * Query refetches the view and its answers replace the device's.
 */
export function useCatalogueResults(view: CatalogueFilter): CatalogueResults {
  const viewKey = filterToSearchParams(view).toString();
  const pages = useCataloguePages(view);
  const facets = useCatalogueFacets();
  // The server renders the filters without their values (the page carries none). The saved cache
  // is restored once the page's frame has hydrated, while the grid's part may still be hydrating:
  // its restored values must wait for that, or the filters would not match the server's markup.
  const hydrated = useHydrated();
  const connection = useConnection();
  const restoring = useIsRestoring();
  const unanswered = !restoring && (connection !== 'online' || isNetworkFailure(pages.error));
  const device = useSavedSearch(unanswered);
  const local = device && device.saved.count > 0 ? device : null;
  const matches = useMemo(() => (local ? local.search(view) : null), [local, view]);
  // The saved matches shown: a page more at each "Load more", the first page again for another view.
  const [shown, setShown] = useState({ view: viewKey, count: CATALOGUE_PAGE_SIZE });
  if (shown.view !== viewKey) setShown({ view: viewKey, count: CATALOGUE_PAGE_SIZE });
  const serverProducts = useMemo(() => (pages.data ? productsOfPages(pages.data.pages) : undefined), [pages.data]);
  // The server's view whose products are on screen (the previous one while the next one's first page loads).
  const [serverView, setServerView] = useState(viewKey);
  if (pages.data && !pages.isPlaceholderData && serverView !== viewKey) setServerView(viewKey);
  const retry = () => void pages.refetch();

  if (local && matches) {
    const count = shown.view === viewKey ? shown.count : CATALOGUE_PAGE_SIZE;
    return {
      products: matches.slice(0, count),
      total: matches.length,
      shownView: viewKey,
      placeholder: false,
      loading: false,
      more: {
        hasMore: count < matches.length,
        loading: false,
        error: null,
        onLoadMore: () => setShown({ view: viewKey, count: count + CATALOGUE_PAGE_SIZE }),
      },
      facets: local.saved.facets,
      saved: { connection: connection === 'online' ? 'unreachable' : connection, count: local.saved.count },
      error: null,
      retry,
      retrying: false,
      pending: false,
    };
  }
  // The device's search code is on its way (a moment, from the service worker): not a failure yet.
  const waiting = device === undefined && !serverProducts;
  return {
    products: serverProducts,
    // The total of the freshest page: the catalogue may have changed since the first.
    total: pages.data?.pages.at(-1)?.total ?? 0,
    shownView: serverView,
    placeholder: pages.isPlaceholderData,
    loading: pages.isPlaceholderData && pages.isFetching,
    more: {
      hasMore: pages.hasNextPage,
      loading: pages.isFetchingNextPage,
      error: pages.isFetchNextPageError && pages.error ? errorText(pages.error) : null,
      onLoadMore: () => void pages.fetchNextPage({ cancelRefetch: false }),
    },
    facets: hydrated ? facets.data : undefined,
    saved: null,
    error: waiting ? null : pages.error,
    retry,
    retrying: pages.isFetching,
    pending: pages.isPending || waiting,
  };
}
