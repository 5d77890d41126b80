import { useQueryClient, type Query } from '@tanstack/react-query';
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import type { Product } from '../../../../common/api';
import { countProducts, findProduct } from '../../../lib/saved-catalogue';
import { prepareSavedSearch, type SavedSearch } from '../lib/saved-search';

const catalogueQueries = (queries: Query[]) => queries.filter((q) => q.queryKey[0] === 'catalogue' && q.state.data !== undefined);

/**
 * How many different products the catalogue's queries hold: what the device has to show offline
 * (restored from what it saved, and what this visit loaded). Followed only while `active`.
 */
export function useSavedProductCount(active: boolean): number {
  const cache = useQueryClient().getQueryCache();
  const subscribe = useCallback((onChange: () => void) => (active ? cache.subscribe(onChange) : () => undefined), [active, cache]);
  return useSyncExternalStore(
    subscribe,
    () => (active ? countProducts(catalogueQueries(cache.getAll())) : 0),
    () => 0,
  );
}

/** The product as a saved catalogue query holds it (a page of the grid, the list, its own), when `active`. */
export function useSavedProduct(id: string, active: boolean): Product | undefined {
  const queryClient = useQueryClient();
  return active ? findProduct(catalogueQueries(queryClient.getQueryCache().getAll()), id) : undefined;
}

/** What the catalogue's queries hold, as a text that changes when any of them gets new data. */
const versionOf = (queries: Query[]) => queries.map((q) => `${q.queryHash}@${q.state.dataUpdatedAt}`).join('\n');

/**
 * The products the catalogue's queries hold, ready to search on the device, while `active` (null
 * otherwise): read again only when one of those queries gets new data, not at each keystroke.
 */
export function useSavedSearch(active: boolean): SavedSearch | null {
  const cache = useQueryClient().getQueryCache();
  const subscribe = useCallback((onChange: () => void) => (active ? cache.subscribe(onChange) : () => undefined), [active, cache]);
  const version = useSyncExternalStore(
    subscribe,
    () => (active ? versionOf(catalogueQueries(cache.getAll())) : null),
    () => null,
  );
  return useMemo(() => (version === null ? null : prepareSavedSearch(catalogueQueries(cache.getAll()))), [cache, version]);
}
