import { createSyncStoragePersister } from '@tanstack/query-sync-storage-persister';
import type { Query, QueryClient } from '@tanstack/react-query';
import { persistQueryClientSave, removeOldestQuery, type PersistQueryClientOptions } from '@tanstack/react-query-persist-client';
import { PERSIST_MAX_AGE_MS } from '../lib/query-client';

export const PERSIST_STORAGE_KEY = 'pogs-shop:query-cache';

/** Only the catalogue and the public config are kept for offline browsing; never the cart, orders or the sign-in. */
export function shouldPersistQuery(query: Pick<Query, 'queryKey' | 'state'>): boolean {
  const domain = query.queryKey[0];
  return query.state.status === 'success' && (domain === 'catalogue' || domain === 'config');
}

function browserStorage(): Storage | undefined {
  try {
    const storage = window.localStorage;
    const probe = '__pogs_probe__';
    storage.setItem(probe, probe);
    storage.removeItem(probe);
    return storage;
  } catch {
    return undefined; // storage blocked or full: run without persistence
  }
}

export function createPersistOptions(): Omit<PersistQueryClientOptions, 'queryClient'> {
  return {
    persister: createSyncStoragePersister({
      storage: browserStorage(),
      key: PERSIST_STORAGE_KEY,
      throttleTime: 1000,
      retry: removeOldestQuery,
    }),
    maxAge: PERSIST_MAX_AGE_MS,
    // A new build discards what an older one saved.
    buster: __APP_VERSION__,
    dehydrateOptions: { shouldDehydrateQuery: shouldPersistQuery },
  };
}

/**
 * Once the persisted cache is restored: save what the cache holds now. The page's inline data
 * (seeded before the first render, newer than anything restored, which therefore does not replace
 * it) is never fetched, so no cache change would save it otherwise; saved now, the shop still
 * browses offline, from the service worker's plain index.html, after a first visit.
 */
export function saveAfterRestore(queryClient: QueryClient, options: Omit<PersistQueryClientOptions, 'queryClient'>): Promise<void> {
  // The persister's own copy of query-core types its QueryClient apart; the provider hands it ours the same way.
  return persistQueryClientSave({ ...options, queryClient: queryClient as unknown as PersistQueryClientOptions['queryClient'] });
}
