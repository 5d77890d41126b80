/**
 * An index made from an earlier version's (only the changed products worked out again) answers
 * every page exactly as one built from every product does, over rounds of random additions,
 * removals and changes of title, words, price and filters.
 */
import { describe, expect, it } from 'vitest';
import type { Product } from '../../../common/api';
import { cataloguePageQuerySchema } from '../../../common/catalogue-query';
import { CatalogueIndex, type IndexedProduct } from './product-query';

const pause = () => Promise.resolve();

/** A small deterministic random source. */
function random(seed: number) {
  let s = seed;
  return (n: number) => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s % n;
  };
}

const WORDS = ['cap', 'milk', 'slammer', 'chrome', 'skull', 'tube', 'binder', 'café', 'Yin', 'yang', 'series', 'pack'];
const TYPES = ['Pogs', 'Slammers', 'Accessories'];

function product(rank: number, pick: (n: number) => number): Product {
  const words = Array.from({ length: 1 + pick(3) }, () => WORDS[pick(WORDS.length)]!);
  const price = `${1 + pick(50)}.${pick(10)}0`;
  return {
    id: String(5000 + rank),
    title: `${words.join(' ')} ${rank}`,
    description: `<p>${WORDS[pick(WORDS.length)]} &amp; ${WORDS[pick(WORDS.length)]}</p>`,
    images: [],
    featuredImage: null,
    variants: [{ id: String(90000 + rank), title: 'Default', price, isSoldOut: false, availableStock: 3, sku: `SKU-${pick(5)}` }],
    vendor: pick(2) ? 'Pog Co' : 'Slam Inc',
    productType: TYPES[pick(TYPES.length)]!,
    tags: [WORDS[pick(WORDS.length)]!.toLowerCase()],
    updatedAt: '2026-11-01T00:00:00.000Z',
    price,
    priceRange: { minVariantPrice: { amount: price, currencyCode: 'POG' } },
  };
}

const QUERIES = [
  {},
  { q: 'ca' },
  { q: 'cafe' },
  { q: 'milk pack' },
  { q: 'sku' },
  { sort: 'price-asc' },
  { sort: 'price-desc', limit: 5 },
  { sort: 'newest', type: 'Pogs' },
  { vendor: 'slam inc', q: 'chrome' },
  { tag: 'yin', sort: 'price-asc' },
  { q: 'zzz' },
].map((q) => cataloguePageQuerySchema.parse({ limit: 60, ...q }));

/** Every page of every query, following the cursors. */
function everything(index: CatalogueIndex) {
  return QUERIES.map((query) => {
    const pages = [];
    for (let page = index.page(query); ; page = index.page({ ...query, cursor: page.nextCursor! })) {
      pages.push(page);
      if (!page.nextCursor) break;
    }
    return pages;
  });
}

describe('CatalogueIndex.derive', () => {
  it('gives the index a full build gives, round after round of changes', async () => {
    const pick = random(7);
    let listed: IndexedProduct[] = Array.from({ length: 150 }, (_, i) => ({ rank: i + 1, product: product(i + 1, pick) }));
    let index = await CatalogueIndex.build(listed, pause);
    let nextRank = listed.length + 1;
    for (let round = 0; round < 30; round++) {
      const changed = new Set<number>();
      const byRank = new Map(listed.map((p) => [p.rank, p]));
      for (let n = 0; n < 1 + pick(6); n++) {
        const what = pick(3);
        if (what === 0) {
          const rank = nextRank++;
          byRank.set(rank, { rank, product: product(rank, pick) });
          changed.add(rank);
        } else {
          const rank = listed[pick(listed.length)]!.rank;
          if (what === 1) byRank.delete(rank);
          else byRank.set(rank, { rank, product: product(rank, pick) });
          changed.add(rank);
        }
      }
      listed = [...byRank.values()].sort((a, b) => a.rank - b.rank);
      const derived = await CatalogueIndex.derive(index, listed, changed, pause);
      // A full build from the same products, their kept terms set aside.
      const built = await CatalogueIndex.build(
        listed.map(({ rank, product }) => ({ rank, product })),
        pause,
      );
      expect(everything(derived), `round ${round}`).toEqual(everything(built));
      expect(derived.facets()).toEqual(built.facets());
      index = derived;
    }
  });
});
