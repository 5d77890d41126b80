import { createSyncStoragePersister } from '@tanstack/query-sync-storage-persister';
import type { Query } from '@tanstack/react-query';
import { removeOldestQuery, type PersistQueryClientOptions } from '@tanstack/react-query-persist-client';
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
