import { useSyncExternalStore } from 'react';

/** Where the catalogue for offline browsing was saved: IndexedDB, localStorage (IndexedDB unavailable) or nowhere. */
export type OfflineStorageKind = 'indexeddb' | 'localstorage' | 'none';

/** The outcome of the last save of the catalogue for offline browsing (app/persistence.ts). */
export interface OfflineSaveRecord {
  /** When it was saved (or refused), ms since the epoch. */
  at: number;
  storage: OfflineStorageKind;
  /** Different products saved (0 when the save failed). */
  products: number;
  /** The saved data's length in characters. */
  chars: number;
  /** Fewer than the usual budget allows were kept: the browser refused the first try, or only localStorage is there. */
  reduced: boolean;
  /** Why the browser refused, when it refused even the smaller set (then nothing new was saved). */
  error?: string;
}

const RECORD_KEY = 'pogs-shop:offline-save';

let current: OfflineSaveRecord | undefined;
let loaded = false;
const listeners = new Set<() => void>();

function load(): OfflineSaveRecord | undefined {
  if (loaded) return current;
  loaded = true;
  try {
    const text = typeof localStorage === 'undefined' ? null : localStorage.getItem(RECORD_KEY);
    current = text ? (JSON.parse(text) as OfflineSaveRecord) : undefined;
  } catch {
    current = undefined; // storage blocked or a broken record: as if none
  }
  return current;
}

/**
 * Keeps the outcome of a save (in memory, and in localStorage when it can, so an offline visit
 * later knows it) and tells the page. A refusal is also written to the console: never silent.
 */
export function recordOfflineSave(record: OfflineSaveRecord): void {
  const previous = load();
  current = record;
  try {
    localStorage.setItem(RECORD_KEY, JSON.stringify(record));
  } catch {
    // localStorage blocked or full: the record lives in memory for this visit
  }
  // Once per change of outcome, not at every save.
  const changed =
    !previous || previous.storage !== record.storage || previous.reduced !== record.reduced || previous.error !== record.error;
  if (changed && record.error) console.warn(`Could not save the catalogue for offline browsing (${record.error})`);
  else if (changed && record.reduced)
    console.warn(`Saved ${record.products} products for offline browsing (${record.storage}): fewer than usual`);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The last save's outcome (undefined before any), re-rendering on change. */
export function useOfflineSave(): OfflineSaveRecord | undefined {
  return useSyncExternalStore(subscribe, load, () => undefined);
}
