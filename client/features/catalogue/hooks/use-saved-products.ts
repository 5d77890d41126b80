import { useQueryClient, type Query } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import type { Product } from '../../../../common/api';
import { countProducts, findProduct } from '../../../lib/saved-catalogue';

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
