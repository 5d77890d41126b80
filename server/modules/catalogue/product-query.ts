/**
 * Search, filters, sort and pages over one catalogue version, from memory.
 *
 * Built once per catalogue snapshot, in slices off the request path: every listed product's words
 * (title, plain description, vendor, type, tags, SKUs) in one sorted vocabulary with the products
 * each word appears in, so a search word is a binary search and a walk over the words it prefixes,
 * not a scan of every product; and the catalogue presorted in each order.
 *
 * Pages are keyset pages: the cursor holds the sort key of the page's last product (never an
 * offset), so a product added, removed or repriced between two page requests neither shifts
 * another product onto a second page nor off both. A cursor names the view it came from (a hash of
 * the search, filters and sort); given with another view it is refused.
 */
import { createHash } from 'node:crypto';
import type { Product } from '../../../common/api';
import type { CataloguePageQuery } from '../../../common/catalogue-query';
import { fold, searchedText, wordsOf } from '../../../common/catalogue-scan';
import type { CatalogueFacets, CatalogueFilter, CataloguePage, FacetValue } from '../../../common/catalogue-view';
import { ErrorCode } from '../../../common/errors';
import { parseUnits } from '../../../common/money';
import { AppError } from '../../lib/errors';

/** The most values a facet lists (the most common first). */
export const MAX_FACET_VALUES = 100;

/**
 * What the index keeps of one product, made from the product alone (its title's words, filters and
 * sort keys): a product that does not change keeps it from one catalogue version to the next. Its
 * words (in the postings) are not kept per product: a version made from the last one reads them
 * again only from the products that changed, their old and new forms.
 */
export interface IndexTerms {
  /** The words of its title, for ranking a search's matches. */
  titleWords: readonly string[];
  /** Its lowest price in wei. */
  price: bigint;
  /** Shopify's numeric id: larger is newer. */
  created: bigint;
  type: string;
  vendor: string;
  tags: readonly string[];
}

/** A listed product as the index takes it. */
export interface IndexedProduct {
  product: Product;
  /** Its place in the featured order: stable across versions (a new product comes last), unique. */
  rank: number;
  /** Its terms, when already made (by an earlier version's index); made and kept here otherwise. */
  terms?: IndexTerms;
}

type Entry = IndexedProduct & { terms: IndexTerms };

/** A page's position: the sort key of the last product shown, tie-broken by rank (unique). */
type Key = [primary: string, rank: number];

/** Products indexed between two yields to the event loop while an index is built. */
const BUILD_SLICE = 50;

/** Every distinct word of a product: its title, plain description, vendor, type, tags and SKUs. */
function productWords(product: Product): string[] {
  return [...new Set(wordsOf(searchedText(product)))];
}

/** A product's index terms, each of its title's words given by `word` (the index's own string for it). */
function indexTerms(product: Product, word: (w: string) => string): IndexTerms {
  return {
    titleWords: [...new Set(wordsOf(product.title))].map(word),
    price: parseUnits(product.price),
    created: BigInt(product.id),
    type: fold(product.productType),
    vendor: fold(product.vendor),
    tags: [...new Set(product.tags.map(fold))],
  };
}

export class CatalogueIndex {
  /** Every word, sorted; `postings[i]` are the entries (by rank) word i appears in. */
  private vocabulary: string[] = [];
  private postings: number[][] = [];
  private readonly orders = new Map<CatalogueFilter['sort'], readonly Entry[]>();
  private facetsCache: CatalogueFacets | null = null;

  private constructor(private readonly entries: readonly Entry[]) {}

  /**
   * Indexes `products` (in the featured order) a slice at a time, giving the event loop back between
   * slices (`pause`), so that no request waits behind the whole build. Each product's `rank` is its
   * place in the featured order: a number unique to the product and kept from one catalogue version
   * to the next (the catalogue's row id), so a cursor taken from one version finds its place in the
   * next. A product's terms are made once and kept on it (`terms`) for the next versions' indexes.
   */
  static async build(products: readonly IndexedProduct[], pause: () => Promise<void>): Promise<CatalogueIndex> {
    // Each word once, its string shared by every product's terms that have it (across versions too).
    const wordEntries = new Map<string, { word: string; ranks: number[] }>();
    const shared = (word: string) => {
      let entry = wordEntries.get(word);
      if (!entry) wordEntries.set(word, (entry = { word, ranks: [] }));
      return entry;
    };
    for (let start = 0; start < products.length; start += BUILD_SLICE) {
      for (const product of products.slice(start, start + BUILD_SLICE)) {
        for (const word of productWords(product.product)) shared(word).ranks.push(product.rank);
        // The title's words are among the product's words.
        product.terms ??= indexTerms(product.product, (word) => shared(word).word);
      }
      await pause();
    }
    const index = new CatalogueIndex(products as readonly Entry[]);
    index.vocabulary = [...wordEntries.keys()].sort();
    index.postings = index.vocabulary.map((word) => wordEntries.get(word)!.ranks);
    wordEntries.clear();
    await pause();
    // Every order presorted now, each sort key computed once per product (not per comparison).
    for (const sort of ['featured', 'newest', 'price-asc', 'price-desc'] as const) {
      const keyOf = sortKey(sort);
      const keys = index.entries.map(keyOf);
      const byKey = (a: number, b: number) => compareKeys(keys[a], keys[b]);
      const at = index.entries.map((_, i) => i);
      // The featured order is usually the rows' order already: then no sort at all.
      const sorted = at.every((i) => i === 0 || byKey(i - 1, i) < 0);
      index.orders.set(sort, sorted ? index.entries : at.sort(byKey).map((i) => index.entries[i]));
      await pause();
    }
    return index;
  }

  /**
   * The index of `products` (in the featured order) made from `base`, an earlier version's index,
   * when only the products whose rank is in `changed` differ (added, removed or changed): only their
   * words' postings and their places in each order are worked out again, every other product's
   * terms, postings and places taken as they are. Gives the index `build` gives.
   */
  static async derive(
    base: CatalogueIndex,
    products: readonly IndexedProduct[],
    changed: ReadonlySet<number>,
    pause: () => Promise<void>,
  ): Promise<CatalogueIndex> {
    const removed = [...changed].flatMap((rank) => byRank(base.entries, rank) ?? []);
    const added = [...changed].flatMap((rank) => byRank(products, rank) ?? []);
    // A word the base has keeps its string; a new one is the first product's that has it.
    const fresh = new Map<string, number[]>();
    const strings = new Map<string, string>();
    const shared = (word: string) => {
      const at = lowerBound(base.vocabulary, word);
      if (base.vocabulary[at] === word) return base.vocabulary[at];
      const known = strings.get(word);
      if (known !== undefined) return known;
      strings.set(word, word);
      return word;
    };
    for (const product of added) {
      product.terms ??= indexTerms(product.product, shared);
      for (const word of productWords(product.product)) {
        const list = fresh.get(word);
        if (list) list.push(product.rank);
        else fresh.set(word, [product.rank]);
      }
    }
    const touched = new Set([...removed.flatMap((e) => productWords(e.product)), ...fresh.keys()]);
    const newWords = [...fresh.keys()].filter((word) => base.vocabulary[lowerBound(base.vocabulary, word)] !== word).sort();
    const index = new CatalogueIndex(products as readonly Entry[]);
    // The vocabulary merged with the new words, in order; a word no product has any more left out.
    const keep = (word: string, ranks: number[]) => {
      if (ranks.length === 0) return;
      index.vocabulary.push(word);
      index.postings.push(ranks);
    };
    for (let i = 0, j = 0; i < base.vocabulary.length || j < newWords.length;) {
      const word = base.vocabulary[i];
      if (j < newWords.length && (word === undefined || newWords[j] < word)) {
        keep(newWords[j], fresh.get(newWords[j++])!);
        continue;
      }
      const ranks = base.postings[i++];
      keep(word, touched.has(word) ? [...ranks.filter((rank) => !changed.has(rank)), ...(fresh.get(word) ?? [])] : ranks);
    }
    await pause();
    for (const [sort, order] of base.orders) {
      if (order === base.entries) {
        index.orders.set(sort, index.entries);
        continue;
      }
      const keyOf = sortKey(sort);
      const next = order.filter((e) => !changed.has(e.rank));
      for (const entry of added as Entry[]) {
        const key = keyOf(entry);
        let lo = 0;
        let hi = next.length;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (compareKeys(keyOf(next[mid]), key) < 0) lo = mid + 1;
          else hi = mid;
        }
        next.splice(lo, 0, entry);
      }
      index.orders.set(sort, next);
    }
    return index;
  }

  get size(): number {
    return this.entries.length;
  }

  /** One page of a view. Throws a 400 for a cursor that is not this view's. */
  page(query: CataloguePageQuery): CataloguePage {
    const viewId = viewIdOf(query);
    const after = query.cursor === undefined ? null : decodeCursor(query.cursor, viewId);
    const { matches, keyOf } = this.view(query);
    let start = 0;
    if (after) {
      // The first product past the cursor's key (matches are in key order).
      let lo = 0;
      let hi = matches.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (compareKeys(keyOf(matches[mid]), after) <= 0) lo = mid + 1;
        else hi = mid;
      }
      start = lo;
    }
    const slice = matches.slice(start, start + query.limit);
    const last = slice.at(-1);
    const more = start + query.limit < matches.length;
    return {
      products: slice.map((e) => e.product),
      total: matches.length,
      nextCursor: more && last ? encodeCursor(viewId, keyOf(last)) : null,
    };
  }

  /** The filter values with how many listed products have each (most first, then by name). */
  facets(): CatalogueFacets {
    if (this.facetsCache) return this.facetsCache;
    const count = (values: (e: Entry) => string[]): FacetValue[] => {
      const counts = new Map<string, number>();
      for (const e of this.entries) for (const v of new Set(values(e))) if (v.trim()) counts.set(v, (counts.get(v) ?? 0) + 1);
      return [...counts]
        .map(([value, n]) => ({ value, count: n }))
        .sort((a, b) => b.count - a.count || a.value.localeCompare(b.value))
        .slice(0, MAX_FACET_VALUES);
    };
    this.facetsCache = {
      productTypes: count((e) => [e.product.productType]),
      vendors: count((e) => [e.product.vendor]),
      tags: count((e) => e.product.tags),
    };
    return this.facetsCache;
  }

  /** The view's products in its order, and each one's key in that order. */
  private view(filter: CatalogueFilter): { matches: Entry[]; keyOf: (e: Entry) => Key } {
    const words = wordsOf(filter.q);
    const type = fold(filter.type);
    const vendor = fold(filter.vendor);
    const tag = fold(filter.tag);
    const keep = ({ terms: t }: Entry) => (!type || t.type === type) && (!vendor || t.vendor === vendor) && (!tag || t.tags.includes(tag));
    if (words.length === 0) {
      return { matches: this.ordered(filter.sort).filter(keep), keyOf: sortKey(filter.sort) };
    }
    const found = this.search(words);
    const matches = this.ordered(filter.sort).filter((e) => found.has(e.rank) && keep(e));
    if (filter.sort !== 'featured') return { matches, keyOf: sortKey(filter.sort) };
    // Featured with a search: the products whose title has more of the words first.
    const relevance = (e: Entry) => words.filter((w) => e.terms.titleWords.some((t) => t.startsWith(w))).length;
    const scored = new Map(matches.map((e) => [e, relevance(e)]));
    matches.sort((a, b) => scored.get(b)! - scored.get(a)! || a.rank - b.rank);
    // Relevance is at most the number of words (< 100): a fixed-width inverted number sorts as text.
    return { matches, keyOf: (e) => [String(999 - scored.get(e)!).padStart(3, '0'), e.rank] };
  }

  /** The entries (by rank) that have every word (each as a prefix of one of theirs). */
  private search(words: string[]): Set<number> {
    let result: Set<number> | null = null;
    for (const word of new Set(words)) {
      const hits = new Set<number>();
      for (let i = lowerBound(this.vocabulary, word); i < this.vocabulary.length && this.vocabulary[i].startsWith(word); i++) {
        for (const index of this.postings[i]) if (!result || result.has(index)) hits.add(index);
      }
      result = hits;
      if (result.size === 0) break;
    }
    return result ?? new Set();
  }

  private ordered(sort: CatalogueFilter['sort']): readonly Entry[] {
    return this.orders.get(sort)!;
  }
}

/** Wei amounts and ids as fixed-width text, so keys compare as strings in the view's order. */
const WIDTH = 40;
const pad = (n: bigint) => n.toString().padStart(WIDTH, '0');
/** For a descending order: the complement, so larger values sort first. */
const MAX = 10n ** BigInt(WIDTH) - 1n;

function sortKey(sort: CatalogueFilter['sort']): (e: Entry) => Key {
  switch (sort) {
    case 'featured':
      return (e) => ['', e.rank];
    case 'newest':
      return (e) => [pad(MAX - e.terms.created), e.rank];
    case 'price-asc':
      return (e) => [pad(e.terms.price), e.rank];
    case 'price-desc':
      return (e) => [pad(MAX - e.terms.price), e.rank];
  }
}

function compareKeys(a: Key, b: Key): number {
  return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1];
}

/** The product of `rank` in `products` (in rank order), if there is one. */
export function byRank<T extends IndexedProduct>(products: readonly T[], rank: number): T | undefined {
  let lo = 0;
  let hi = products.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (products[mid].rank < rank) lo = mid + 1;
    else hi = mid;
  }
  return products[lo]?.rank === rank ? products[lo] : undefined;
}

function lowerBound(sorted: string[], value: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The view a query shows (its search, filters and sort, folded as they are matched). */
function viewIdOf(filter: CatalogueFilter): string {
  const view = [wordsOf(filter.q).join(' '), fold(filter.type), fold(filter.vendor), fold(filter.tag), filter.sort];
  return createHash('sha256').update(JSON.stringify(view)).digest('base64url').slice(0, 12);
}

function encodeCursor(viewId: string, [primary, rank]: Key): string {
  return Buffer.from(JSON.stringify([viewId, primary, rank])).toString('base64url');
}

const INVALID_CURSOR = 'This page link is not one the shop gave for this search; start again from the first page';

function decodeCursor(cursor: string, viewId: string): Key {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new AppError(ErrorCode.badRequest, `cursor: ${INVALID_CURSOR}`);
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 3 ||
    typeof parsed[1] !== 'string' ||
    parsed[1].length > WIDTH ||
    !Number.isSafeInteger(parsed[2]) ||
    (parsed[2] as number) < 0
  ) {
    throw new AppError(ErrorCode.badRequest, `cursor: ${INVALID_CURSOR}`);
  }
  if (parsed[0] !== viewId) {
    throw new AppError(
      ErrorCode.badRequest,
      'cursor: this page link belongs to another search, filter or sort; start again from the first page',
    );
  }
  return [parsed[1], parsed[2] as number];
}
