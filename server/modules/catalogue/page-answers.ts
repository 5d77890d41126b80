/**
 * The answers of `GET /api/catalogue/products` (a page of a search, filters and a sort) and of
 * `GET /api/catalogue/facets`, stored per catalogue snapshot: a page is worked out (matched,
 * sorted, serialised, hashed) once per view and catalogue version, and compressed once, not once
 * per request. Every keystroke of every shopper asks this route, and most ask what someone asked
 * before: the first letters of a word, the default view, a common filter.
 *
 * Two maps per snapshot, both bounded:
 *  - answers by the normalised view (its words and filters folded as they are matched, the sort,
 *    the cursor and the page size), within a byte budget, the least recently used going first;
 *  - the request addresses (`/api/catalogue/products?…`, byte for byte) the app's route has answered
 *    with one of them. Only such an address is answered ahead of Koa (stored-reads.ts): the app
 *    read and checked that very address (its query, a NUL in it, each value) before.
 * A newer snapshot starts with empty maps; the old ones go with the old snapshot.
 */
import type { CataloguePageQuery } from '../../../common/catalogue-query';
import { fold, wordsOf } from '../../../common/catalogue-scan';
import type { Logger } from '../../lib/logger';
import { compressedOnce, etagOf, type Precompressed } from '../../lib/precompressed';
import type { ProductListSnapshot } from './snapshot';

/** The most bytes (plain and compressed forms) of page answers kept per snapshot. */
export const MAX_PAGE_BYTES = 16 * 1024 * 1024;
/** The most request addresses remembered per snapshot (each a short string and a key). */
export const MAX_PAGE_ADDRESSES = 4096;

/** What one stored page costs: its plain body and (about) its two compressed forms. */
const costOf = (answer: Precompressed) => Math.ceil(answer.body.length * 1.3);

interface SnapshotPages {
  answers: Map<string, Precompressed>;
  bytes: number;
  /** Request address → its view's key in `answers`. */
  addresses: Map<string, string>;
  facets?: Precompressed;
}

/** The view a page query names, as its page is worked out: equal keys, equal answers. */
export function pageKeyOf(query: CataloguePageQuery): string {
  return JSON.stringify([
    wordsOf(query.q).join(' '),
    fold(query.type),
    fold(query.vendor),
    fold(query.tag),
    query.sort,
    query.cursor ?? '',
    query.limit,
  ]);
}

/** Moves an entry to the end of a map's order (the most recently used). */
function touch<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.delete(key);
  map.set(key, value);
}

export class PageAnswers {
  private readonly bySnapshot = new WeakMap<ProductListSnapshot, SnapshotPages>();

  private readonly maxBytes: number;
  private readonly maxAddresses: number;

  constructor(
    private readonly logger?: Logger,
    limits: { maxBytes?: number; maxAddresses?: number } = {},
  ) {
    this.maxBytes = limits.maxBytes ?? MAX_PAGE_BYTES;
    this.maxAddresses = limits.maxAddresses ?? MAX_PAGE_ADDRESSES;
  }

  /** What is stored for `snap`: page answers, their cost in bytes, and addresses (for tests and metrics). */
  stored(snap: ProductListSnapshot): { answers: number; bytes: number; addresses: number } {
    const pages = this.bySnapshot.get(snap);
    return { answers: pages?.answers.size ?? 0, bytes: pages?.bytes ?? 0, addresses: pages?.addresses.size ?? 0 };
  }

  /** The stored answer of a page of `snap` (worked out now if it is not stored). Throws a 400 for a cursor not of this view. */
  async page(snap: ProductListSnapshot, query: CataloguePageQuery): Promise<Precompressed> {
    const pages = this.pagesOf(snap);
    const key = pageKeyOf(query);
    const stored = pages.answers.get(key);
    if (stored) {
      // Most recently used last: the budget lets the oldest go first.
      touch(pages.answers, key, stored);
      return stored;
    }
    const body = Buffer.from(JSON.stringify((await snap.index()).page(query)));
    const answer: Precompressed = {
      body,
      // The page follows from the list's content and the view alone.
      etag: etagOf(snap.etag, key),
      encoded: compressedOnce(body, (err, coding) =>
        this.logger?.warn({ err, coding }, 'catalogue: a page could not be compressed; answering it as it is'),
      ),
    };
    // Another request for the same view may have stored it while this one waited for the index.
    const raced = pages.answers.get(key);
    if (raced) return raced;
    pages.answers.set(key, answer);
    pages.bytes += costOf(answer);
    for (const [oldKey, old] of pages.answers) {
      if (pages.bytes <= this.maxBytes || oldKey === key) break;
      pages.answers.delete(oldKey);
      pages.bytes -= costOf(old);
    }
    return answer;
  }

  /** Remembers that the app answered `address` (the request's path and query) with this view's page. */
  remember(snap: ProductListSnapshot, address: string, query: CataloguePageQuery): void {
    const pages = this.pagesOf(snap);
    if (pages.addresses.has(address)) return;
    if (pages.addresses.size >= this.maxAddresses) pages.addresses.delete(pages.addresses.keys().next().value!);
    pages.addresses.set(address, pageKeyOf(query));
  }

  /** The stored page an address the app has answered names, when it is still stored. */
  find(snap: ProductListSnapshot, address: string): Precompressed | undefined {
    const pages = this.bySnapshot.get(snap);
    const key = pages?.addresses.get(address);
    const answer = key === undefined ? undefined : pages!.answers.get(key);
    if (answer) {
      // Most recently used last, in both maps: a flood of new addresses lets the busy ones stay.
      touch(pages!.answers, key!, answer);
      touch(pages!.addresses, address, key!);
    }
    return answer;
  }

  /** The filters' values with their counts, stored once per snapshot. */
  async facets(snap: ProductListSnapshot): Promise<Precompressed> {
    const pages = this.pagesOf(snap);
    if (pages.facets) return pages.facets;
    const body = Buffer.from(JSON.stringify((await snap.index()).facets()));
    const answer: Precompressed = {
      body,
      etag: etagOf(snap.etag, 'facets'),
      encoded: compressedOnce(body, (err, coding) =>
        this.logger?.warn({ err, coding }, 'catalogue: the facets could not be compressed; answering them as they are'),
      ),
    };
    return (pages.facets ??= answer);
  }

  /** The facets' stored answer when it is made for `snap`. */
  storedFacets(snap: ProductListSnapshot): Precompressed | undefined {
    return this.bySnapshot.get(snap)?.facets;
  }

  private pagesOf(snap: ProductListSnapshot): SnapshotPages {
    let pages = this.bySnapshot.get(snap);
    if (!pages) this.bySnapshot.set(snap, (pages = { answers: new Map(), bytes: 0, addresses: new Map() }));
    return pages;
  }
}
