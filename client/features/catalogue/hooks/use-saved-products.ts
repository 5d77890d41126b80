import { useQueryClient, type Query } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { Product } from '../../../../common/api';
import type { CatalogueFilter } from '../../../../common/catalogue-view';
import { countProducts, findProduct } from '../../../lib/saved-catalogue';
import type { SavedSearch } from '../lib/saved-search';

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

type SavedSearchCode = Pick<typeof import('../lib/saved-search'), 'prepareSavedSearch' | 'searchSaved'>;

/**
 * The device's search code, loaded the first time it is `active` (the shop cannot answer): online
 * it is never needed, so the first screen does not carry it. The service worker keeps it for offline.
 */
function useSavedSearchCode(active: boolean): SavedSearchCode | 'unavailable' | null {
  const [code, setCode] = useState<SavedSearchCode | 'unavailable' | null>(null);
  useEffect(() => {
    if (!active || code) return;
    let live = true;
    import('../lib/saved-search').then(
      ({ prepareSavedSearch, searchSaved }) => live && setCode({ prepareSavedSearch, searchSaved }),
      // Not loaded (offline before the service worker kept it): the device's search stays off, and
      // the grid says what the server's request said rather than waiting for it.
      () => live && setCode('unavailable'),
    );
    return () => {
      live = false;
    };
  }, [active, code]);
  return code;
}

/** The saved products ready to search, and the search itself (the server's matching rules). */
export interface DeviceSearch {
  saved: SavedSearch;
  search: (filter: CatalogueFilter) => Product[];
}

/**
 * The products the catalogue's queries hold, ready to search on the device, while `active`: null
 * when not active, undefined while the search code loads. Read again only when one of those
 * queries gets new data, not at each keystroke.
 */
export function useSavedSearch(active: boolean): DeviceSearch | null | undefined {
  const cache = useQueryClient().getQueryCache();
  const code = useSavedSearchCode(active);
  const subscribe = useCallback((onChange: () => void) => (active ? cache.subscribe(onChange) : () => undefined), [active, cache]);
  const version = useSyncExternalStore(
    subscribe,
    () => (active ? versionOf(catalogueQueries(cache.getAll())) : null),
    () => null,
  );
  return useMemo(() => {
    if (version === null) return null;
    if (!code) return undefined;
    if (code === 'unavailable') return null;
    const saved = code.prepareSavedSearch(catalogueQueries(cache.getAll()));
    return { saved, search: (filter: CatalogueFilter) => code.searchSaved(saved, filter) };
  }, [cache, code, version]);
}
