import { createAsyncStoragePersister } from '@tanstack/query-async-storage-persister';
import type { Query, QueryClient } from '@tanstack/react-query';
import { persistQueryClientSave, type PersistedClient, type PersistQueryClientOptions } from '@tanstack/react-query-persist-client';
import { createStore, del, get, set } from 'idb-keyval';
import { PERSIST_MAX_AGE_MS } from '../lib/query-client';
import { recordOfflineSave, type OfflineStorageKind } from '../lib/offline-save';
import { FALLBACK_BUDGET_CHARS, memoizedMeasure, OFFLINE_BUDGET_CHARS, selectOfflineQueries, type OfflineSelection } from './offline-keep';

/** The key the saved cache has in IndexedDB, and had in localStorage before (where it is removed from). */
export const PERSIST_STORAGE_KEY = 'pogs-shop:query-cache';

/** Only the catalogue and the public config are kept for offline browsing; never the cart, orders or the sign-in. */
export function shouldPersistQuery(query: Pick<Query, 'queryKey' | 'state'>): boolean {
  const domain = query.queryKey[0];
  return query.state.status === 'success' && (domain === 'catalogue' || domain === 'config');
}

/** The little of a key-value store the saved cache needs: IndexedDB's, through idb-keyval. */
export interface KeyValueStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  del(key: string): Promise<void>;
}

/** IndexedDB (database 'pogs-shop', store 'query-cache'), opened on first use; undefined where there is none. */
function indexedDbStore(): KeyValueStore | undefined {
  if (typeof indexedDB === 'undefined') return undefined;
  let store: ReturnType<typeof createStore> | undefined;
  const idbStore = () => (store ??= createStore('pogs-shop', 'query-cache'));
  // async: a browser that throws at once (indexedDB.open refused) rejects like one that fails later.
  return {
    get: async (key) => get<string>(key, idbStore()),
    set: async (key, value) => set(key, value, idbStore()),
    del: async (key) => del(key, idbStore()),
  };
}

function browserLocalStorage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined; // storage blocked
  }
}

const isQuotaError = (error: unknown) => error instanceof Error && error.name === 'QuotaExceededError';

/**
 * Where the saved cache lives: IndexedDB, which holds a big catalogue; localStorage (a smaller
 * set) only while IndexedDB cannot be used (refused to open, as in some private windows).
 * - Restoring reads IndexedDB, else localStorage: an older build's entry is restored once.
 * - The first save that IndexedDB takes removes the localStorage entry, freeing its space.
 * - IndexedDB failing for another reason than a full quota sends later saves to localStorage.
 */
export function createOfflineStorage(idb: KeyValueStore | undefined, local: Storage | undefined) {
  let idbUsable = idb !== undefined;
  let legacyRemoved = false;
  const where = (): OfflineStorageKind => (idbUsable ? 'indexeddb' : local ? 'localstorage' : 'none');
  return {
    where,
    /** The characters a save may take where it goes now. */
    budget: () => (where() === 'indexeddb' ? OFFLINE_BUDGET_CHARS : FALLBACK_BUDGET_CHARS),
    async getItem(key: string): Promise<string | undefined> {
      if (idb && idbUsable) {
        try {
          const value = await idb.get(key);
          if (value !== undefined) return value;
        } catch {
          idbUsable = false;
        }
      }
      try {
        return local?.getItem(key) ?? undefined;
      } catch {
        return undefined;
      }
    },
    /** Saves, and answers where; throws what the browser threw. */
    async setItem(key: string, value: string): Promise<OfflineStorageKind> {
      if (idb && idbUsable) {
        try {
          await idb.set(key, value);
        } catch (error) {
          if (!isQuotaError(error)) idbUsable = false;
          throw error;
        }
        if (!legacyRemoved) {
          legacyRemoved = true;
          try {
            local?.removeItem(key);
          } catch {
            // blocked: nothing to free
          }
        }
        return 'indexeddb';
      }
      if (!local) throw new Error('this browser lets the shop store nothing');
      local.setItem(key, value);
      return 'localstorage';
    },
    async removeItem(key: string): Promise<void> {
      await idb?.del(key).catch(() => undefined);
      try {
        local?.removeItem(key);
      } catch {
        // blocked: nothing stored there
      }
    },
  };
}

const errorText = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

/**
 * The persister: the cache's catalogue and config (as `shouldPersistQuery` chose them), cut to
 * the budget by `selectOfflineQueries`, saved at most once a second. When the browser refuses a
 * save it tries once more with the smaller fallback set; each outcome is recorded
 * (lib/offline-save.ts), so the shop can say offline what it has instead of failing silently.
 */
export function createOfflinePersister(
  storage: ReturnType<typeof createOfflineStorage>,
  { throttleTime = 1000, record = recordOfflineSave }: { throttleTime?: number; record?: typeof recordOfflineSave } = {},
) {
  const measure = memoizedMeasure();
  let selection: OfflineSelection | undefined;
  let reduced = false;
  const withQueries = (client: PersistedClient, queries: PersistedClient['clientState']['queries']): PersistedClient => ({
    ...client,
    clientState: { ...client.clientState, queries },
  });
  return createAsyncStoragePersister({
    storage: {
      getItem: (key) => storage.getItem(key),
      setItem: async (key, value: string) => {
        const where = await storage.setItem(key, value);
        record({
          at: Date.now(),
          storage: where,
          products: selection?.products ?? 0,
          chars: value.length,
          reduced: reduced || where !== 'indexeddb',
        });
        reduced = false;
      },
      removeItem: (key) => storage.removeItem(key),
    },
    key: PERSIST_STORAGE_KEY,
    throttleTime,
    serialize: (client) => {
      if (storage.where() === 'none') throw new Error('this browser lets the shop store nothing');
      selection = selectOfflineQueries(client.clientState.queries, storage.budget(), measure);
      return JSON.stringify(withQueries(client, selection.queries));
    },
    retry: ({ persistedClient, error, errorCount }) => {
      if (errorCount > 1) {
        record({ at: Date.now(), storage: storage.where(), products: 0, chars: 0, reduced: true, error: errorText(error) });
        reduced = false;
        return undefined;
      }
      // Keep less and try once more (in localStorage if IndexedDB just proved unusable).
      reduced = true;
      const smaller = selectOfflineQueries(persistedClient.clientState.queries, Math.min(storage.budget(), FALLBACK_BUDGET_CHARS), measure);
      return withQueries(persistedClient, smaller.queries);
    },
  });
}

export function createPersistOptions(): Omit<PersistQueryClientOptions, 'queryClient'> {
  return {
    persister: createOfflinePersister(createOfflineStorage(indexedDbStore(), browserLocalStorage())),
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
