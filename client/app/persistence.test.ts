import { describe, expect, it } from 'vitest';
import { authSessionQueryKey } from '../features/auth';
import { orderHistoryQueryKey } from '../features/orders';
import type { PersistedClient } from '@tanstack/react-query-persist-client';
import type { OfflineSaveRecord } from '../lib/offline-save';
import { FALLBACK_BUDGET_CHARS, OFFLINE_BUDGET_CHARS } from './offline-keep';
import { createOfflinePersister, createOfflineStorage, PERSIST_STORAGE_KEY, shouldPersistQuery, type KeyValueStore } from './persistence';

const q = (queryKey: unknown[], status: 'success' | 'error' | 'pending' = 'success') =>
  ({ queryKey, state: { status } }) as unknown as Parameters<typeof shouldPersistQuery>[0];

describe('shouldPersistQuery', () => {
  it('keeps successful catalogue and config queries', () => {
    expect(shouldPersistQuery(q(['catalogue', 'products']))).toBe(true);
    expect(shouldPersistQuery(q(['catalogue', 'product', '42']))).toBe(true);
    expect(shouldPersistQuery(q(['config']))).toBe(true);
  });

  it('never keeps the cart, orders, the sign-in or failed queries', () => {
    expect(shouldPersistQuery(q(['cart']))).toBe(false);
    expect(shouldPersistQuery(q(['orders', '0xabc']))).toBe(false);
    expect(shouldPersistQuery(q([...orderHistoryQueryKey, '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc']))).toBe(false);
    expect(shouldPersistQuery(q([...authSessionQueryKey]))).toBe(false);
    // The admin's payments desk and orders view are never kept on the device.
    expect(shouldPersistQuery(q(['admin', 'payments', 'attention', 'all', 'open']))).toBe(false);
    expect(shouldPersistQuery(q(['admin', 'orders', 'list', '', '']))).toBe(false);
    expect(shouldPersistQuery(q(['catalogue', 'products'], 'error'))).toBe(false);
    expect(shouldPersistQuery(q(['config'], 'pending'))).toBe(false);
  });
});

/** localStorage as the browser gives it, in memory, with a quota in characters. */
class MemoryStorage implements Storage {
  readonly items = new Map<string, string>();
  constructor(private readonly quota = Infinity) {}
  get length() {
    return this.items.size;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    const used = [...this.items].reduce((n, [k, v]) => n + (k === key ? 0 : k.length + v.length), 0);
    if (used + key.length + value.length > this.quota) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    this.items.set(key, value);
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  clear() {
    this.items.clear();
  }
}

/** IndexedDB's key-value store as idb-keyval gives it, in memory: `fail` makes every call reject like a browser that refuses. */
function memoryIdb(fail?: () => Error): KeyValueStore & { items: Map<string, string> } {
  const items = new Map<string, string>();
  const run = async <T>(f: () => T) => {
    if (fail) throw fail();
    return f();
  };
  return {
    items,
    get: (key) => run(() => items.get(key)),
    set: (key, value) => run(() => void items.set(key, value)),
    del: (key) => run(() => void items.delete(key)),
  };
}

const legacyEntry = JSON.stringify({ timestamp: 1, buster: 'old', clientState: { mutations: [], queries: [] } });

describe('createOfflineStorage', () => {
  it('restores an entry localStorage kept before IndexedDB, and removes it after the first save in IndexedDB', async () => {
    const local = new MemoryStorage();
    local.setItem(PERSIST_STORAGE_KEY, legacyEntry);
    local.setItem('other-key', 'stays');
    const idb = memoryIdb();
    const storage = createOfflineStorage(idb, local);

    expect(await storage.getItem(PERSIST_STORAGE_KEY)).toBe(legacyEntry);
    expect(await storage.setItem(PERSIST_STORAGE_KEY, 'new')).toBe('indexeddb');
    expect(idb.items.get(PERSIST_STORAGE_KEY)).toBe('new');
    expect(local.getItem(PERSIST_STORAGE_KEY)).toBeNull();
    expect(local.getItem('other-key')).toBe('stays');
    // From now on IndexedDB answers.
    expect(await storage.getItem(PERSIST_STORAGE_KEY)).toBe('new');
    expect(storage.budget()).toBe(OFFLINE_BUDGET_CHARS);
  });

  it('keeps the localStorage entry while IndexedDB refuses the save', async () => {
    const local = new MemoryStorage();
    local.setItem(PERSIST_STORAGE_KEY, legacyEntry);
    const storage = createOfflineStorage(
      memoryIdb(() => new DOMException('full', 'QuotaExceededError')),
      local,
    );
    await expect(storage.setItem(PERSIST_STORAGE_KEY, 'new')).rejects.toThrow('full');
    expect(local.getItem(PERSIST_STORAGE_KEY)).toBe(legacyEntry);
    // A full quota is not IndexedDB gone: the next save tries it again.
    expect(storage.where()).toBe('indexeddb');
  });

  it('goes to localStorage, with the smaller budget, once IndexedDB cannot be opened', async () => {
    const local = new MemoryStorage();
    const storage = createOfflineStorage(
      memoryIdb(() => new DOMException('refused', 'InvalidStateError')),
      local,
    );
    expect(await storage.getItem(PERSIST_STORAGE_KEY)).toBeUndefined();
    expect(storage.where()).toBe('localstorage');
    expect(storage.budget()).toBe(FALLBACK_BUDGET_CHARS);
    expect(await storage.setItem(PERSIST_STORAGE_KEY, 'kept')).toBe('localstorage');
    expect(await storage.getItem(PERSIST_STORAGE_KEY)).toBe('kept');
  });

  it('stores nothing, and says where, without IndexedDB or localStorage', async () => {
    const storage = createOfflineStorage(undefined, undefined);
    expect(storage.where()).toBe('none');
    await expect(storage.setItem(PERSIST_STORAGE_KEY, 'x')).rejects.toThrow('store nothing');
  });
});

const product = (id: string) => ({ id, title: `Product ${id}`, description: 'x'.repeat(1000) });

/** A cache with the default view's first page, 20 opened products and a 600-product list (~600 KB). */
function persistedClient(): PersistedClient {
  const q = (queryKey: unknown[], data: unknown, dataUpdatedAt = 1) => ({
    queryKey,
    queryHash: JSON.stringify(queryKey),
    state: { data, dataUpdatedAt, status: 'success', error: null, fetchStatus: 'idle' },
  });
  const list = Array.from({ length: 600 }, (_, i) => product(String(i)));
  return {
    timestamp: 1,
    buster: 'test',
    clientState: {
      mutations: [],
      queries: [
        q(['config'], { shopName: 'POGS' }),
        q(['catalogue', 'page', ''], { pages: [{ products: list.slice(0, 24), total: 600, nextCursor: 'c' }], pageParams: [null] }),
        ...Array.from({ length: 20 }, (_, i) => q(['catalogue', 'product', `p${i}`], product(`p${i}`), 10 + i)),
        q(['catalogue', 'products'], list),
      ],
    },
  } as unknown as PersistedClient;
}

describe('createOfflinePersister', () => {
  const saved = (text: string | null | undefined) => (JSON.parse(text!) as PersistedClient).clientState.queries.map((q) => q.queryKey);

  it('saves everything in IndexedDB when it fits, records it, and frees the old localStorage entry', async () => {
    const local = new MemoryStorage();
    local.setItem(PERSIST_STORAGE_KEY, legacyEntry);
    const idb = memoryIdb();
    const records: OfflineSaveRecord[] = [];
    const persister = createOfflinePersister(createOfflineStorage(idb, local), { throttleTime: 0, record: (r) => records.push(r) });
    await persister.persistClient(persistedClient());

    expect(saved(idb.items.get(PERSIST_STORAGE_KEY))).toHaveLength(23);
    expect(local.getItem(PERSIST_STORAGE_KEY)).toBeNull();
    expect(records).toEqual([expect.objectContaining({ storage: 'indexeddb', products: 620, reduced: false })]);
    expect(records[0].chars).toBe(idb.items.get(PERSIST_STORAGE_KEY)!.length);
    expect((await persister.restoreClient())?.buster).toBe('test');
  });

  it('keeps less and tries once more when IndexedDB refuses (quota), recording what was kept', async () => {
    let refusals = 1;
    const idb = memoryIdb();
    const set = idb.set;
    idb.set = (key, value) => (refusals-- > 0 ? Promise.reject(new DOMException('full', 'QuotaExceededError')) : set(key, value));
    const records: OfflineSaveRecord[] = [];
    const persister = createOfflinePersister(createOfflineStorage(idb, new MemoryStorage()), {
      throttleTime: 0,
      record: (r) => records.push(r),
    });
    await persister.persistClient(persistedClient());

    const keys = saved(idb.items.get(PERSIST_STORAGE_KEY));
    // The 600-product list (~600 KB) is over the smaller budget: the page and the products stay.
    expect(keys).not.toContainEqual(['catalogue', 'products']);
    expect(keys).toContainEqual(['catalogue', 'page', '']);
    expect(keys).toContainEqual(['catalogue', 'product', 'p19']);
    expect(records).toEqual([expect.objectContaining({ storage: 'indexeddb', products: 44, reduced: true })]);
  });

  it('without IndexedDB, keeps the smaller set in localStorage', async () => {
    const local = new MemoryStorage(2 * 1024 * 1024);
    const records: OfflineSaveRecord[] = [];
    const idb = memoryIdb(() => new DOMException('refused', 'UnknownError'));
    const persister = createOfflinePersister(createOfflineStorage(idb, local), { throttleTime: 0, record: (r) => records.push(r) });
    await persister.persistClient(persistedClient());

    expect(saved(local.getItem(PERSIST_STORAGE_KEY))).not.toContainEqual(['catalogue', 'products']);
    expect(local.getItem(PERSIST_STORAGE_KEY)!.length).toBeLessThanOrEqual(FALLBACK_BUDGET_CHARS);
    expect(records).toEqual([expect.objectContaining({ storage: 'localstorage', products: 44, reduced: true })]);
  });

  it('records a refusal of even the smaller set: nothing is dropped silently', async () => {
    const records: OfflineSaveRecord[] = [];
    const idb = memoryIdb(() => new DOMException('refused', 'UnknownError'));
    const persister = createOfflinePersister(createOfflineStorage(idb, new MemoryStorage(1000)), {
      throttleTime: 0,
      record: (r) => records.push(r),
    });
    await persister.persistClient(persistedClient());
    expect(records).toEqual([
      expect.objectContaining({ storage: 'localstorage', products: 0, error: expect.stringContaining('QuotaExceededError') }),
    ]);
  });
});
