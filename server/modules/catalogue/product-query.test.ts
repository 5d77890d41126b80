import { describe, expect, it } from 'vitest';
import type { Product } from '../../../common/api';
import { countFacets, prepareScan, scanCatalogue } from '../../../common/catalogue-scan';
import { CATALOGUE_SORTS, MAX_CATALOGUE_PAGE_SIZE, type CatalogueFilter } from '../../../common/catalogue-view';
import { CatalogueIndex, MAX_FACET_VALUES } from './product-query';

// The index answers every view exactly as the plain scan of common/catalogue-scan.ts does (the
// scan the shop runs offline on the products a device saved): the same products in the same
// order, page after page through the cursors, on a generated catalogue with accents, repeated
// prices, tags, vendors and types in several cases, and SKUs.

/** A small seeded generator (mulberry32): the same catalogue every run. */
function random(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(values: readonly T[]): T => values[int(values.length)];
  return { int, pick };
}

const TITLE_WORDS = [
  'Café',
  'CAFE',
  'crème',
  'Creme',
  'brûlée',
  'Pokémon',
  'pog',
  'Pogs',
  'slammer',
  'Slammers',
  'Ñandú',
  'naïve',
  'ﬁre', // a ligature: "fire" once folded
  'Kit',
  'kitten',
  'cap',
  'Caps',
  'capsule',
  'gold',
  'Golden',
  '90s',
  '1994',
  'Édition',
  'édition',
  'holo',
  'Holographic',
  'straße',
  'tie-dye',
  'über',
  'Zebra',
];
const DESCRIPTION_WORDS = ['vintage', 'golden', 'mint', 'rare', 'café', 'collector&apos;s', 'sealed', 'Séries', 'cardboard', 'foil'];
const TYPES = ['Pogs', 'pogs', 'Slammers', 'Caps', 'Épingles', 'epingles', 'Accessoires', ''];
const VENDORS = ['World POG Federation', 'world pog federation', 'Crème Co', 'Creme Co', 'Ñandú & Sons', 'Acme'];
const TAGS = ['rare', 'Rare', 'holo', 'été', 'ete', 'sale', 'new', '90s', 'Édition limitée'];
/** Few prices (and the same price written two ways), so many products tie on price. */
const PRICES = ['1', '1.00', '1.5', '1.50', '2.25', '10', '0.000000000000000001', '99.99', '1000'];

function generateCatalogue(size: number): { products: Product[]; rowIds: Map<string, number> } {
  const { int, pick } = random(1994);
  const ids = new Set<string>();
  const products: Product[] = [];
  while (products.length < size) {
    // Ids in no order (newest is not the featured order).
    const id = String(7_000_000_000_000 + int(1_000_000_000));
    if (ids.has(id)) continue;
    ids.add(id);
    const title = Array.from({ length: 1 + int(4) }, () => pick(TITLE_WORDS)).join(' ');
    const description = `<p>${Array.from({ length: int(6) }, () => pick(DESCRIPTION_WORDS)).join(' ')}</p>`;
    const variants = Array.from({ length: 1 + int(3) }, (_, v) => ({
      id: `${id}${v}`,
      title: `Variant ${v}`,
      price: pick(PRICES),
      isSoldOut: false,
      availableStock: 1,
      sku: int(4) === 0 ? null : `SKU-${int(500)}-${pick(['ab', 'cd', 'éf'])}`,
    }));
    const lowest = variants.reduce((a, b) => (Number(b.price) < Number(a.price) ? b : a)).price;
    products.push({
      id,
      title,
      description,
      images: [],
      featuredImage: null,
      variants,
      vendor: pick(VENDORS),
      productType: pick(TYPES),
      tags: [...new Set(Array.from({ length: int(4) }, () => pick(TAGS)))],
      updatedAt: '2026-01-01T00:00:00Z',
      price: lowest,
      priceRange: { minVariantPrice: { amount: lowest, currencyCode: 'POG' } },
    });
  }
  // Row ids (the featured order) unique and not the list's order.
  const order = products.map((_, i) => i).sort(() => int(3) - 1);
  const rowIds = new Map(order.map((i, place) => [products[i].id, 1 + place * 3]));
  return { products, rowIds };
}

const SEARCHES = [
  '',
  'cafe',
  'Café',
  'CAFÉ',
  'caf',
  'c',
  'creme brulee',
  'crème',
  'pog',
  'pogs',
  'po',
  'slammer gold',
  'gold slammer',
  'cap cap',
  'cap cap gold',
  'caps',
  'nandu',
  'naive',
  'fire',
  'strasse',
  'straße',
  'tie',
  'dye',
  '90',
  '1994 holo',
  'edition',
  'vintage',
  'collector',
  'apos',
  'mint rare',
  'sku',
  'sku 12',
  'ef',
  'world federation',
  'accessoires',
  'zzqx',
  'cafe zzqx',
  '  Pokémon   KIT  ',
  '!!!',
];
const FILTERS: Pick<CatalogueFilter, 'type' | 'vendor' | 'tag'>[] = [
  { type: '', vendor: '', tag: '' },
  { type: 'pogs', vendor: '', tag: '' },
  { type: 'EPINGLES', vendor: '', tag: '' },
  { type: '', vendor: 'World POG Federation', tag: '' },
  { type: '', vendor: 'creme co', tag: '' },
  { type: '', vendor: '', tag: 'Ete' },
  { type: '', vendor: '', tag: 'édition limitée' },
  { type: 'Slammers', vendor: 'nandu & sons', tag: 'rare' },
  { type: 'Nothing', vendor: '', tag: '' },
];

/** Every product of a view, as the index pages it, following its cursors. */
function walk(index: CatalogueIndex, filter: CatalogueFilter, limit: number): string[] {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 10_000; pages++) {
    const page = index.page({ ...filter, cursor, limit });
    ids.push(...page.products.map((p) => p.id));
    expect(page.total).toBeGreaterThanOrEqual(ids.length);
    if (!page.nextCursor) {
      expect(page.total).toBe(ids.length);
      return ids;
    }
    cursor = page.nextCursor;
  }
  throw new Error('the pages never ended');
}

describe('CatalogueIndex and the plain scan', () => {
  const { products, rowIds } = generateCatalogue(2000);
  const placeOf = (p: Product) => rowIds.get(p.id)!;

  it('give the same products in the same order, page after page, for every search, filter and sort', async () => {
    const index = await CatalogueIndex.build(products, placeOf, () => Promise.resolve());
    const scanned = prepareScan(products, placeOf);
    let views = 0;
    let nonEmpty = 0;
    for (const q of SEARCHES) {
      for (const filter of FILTERS) {
        for (const sort of CATALOGUE_SORTS) {
          const view: CatalogueFilter = { q, ...filter, sort };
          const expected = scanCatalogue(scanned, view).map((p) => p.id);
          expect(walk(index, view, MAX_CATALOGUE_PAGE_SIZE), JSON.stringify(view)).toEqual(expected);
          views++;
          if (expected.length > 0) nonEmpty++;
        }
      }
    }
    // The views are neither all empty nor all the whole catalogue.
    expect(views).toBe(SEARCHES.length * FILTERS.length * CATALOGUE_SORTS.length);
    expect(nonEmpty).toBeGreaterThan(views / 3);
    expect(nonEmpty).toBeLessThan(views);
  }, 60_000);

  it("count the filters' values alike", async () => {
    const index = await CatalogueIndex.build(products, placeOf, () => Promise.resolve());
    const facets = countFacets(products, MAX_FACET_VALUES);
    expect(facets).toEqual(index.facets());
    // Values that differ only in case or accents are separate values (the filter then matches both).
    expect(facets.productTypes.map((f) => f.value)).toEqual(expect.arrayContaining(['Pogs', 'pogs', 'Épingles', 'epingles']));
    expect(countFacets(products, 2).tags).toEqual(facets.tags.slice(0, 2));
  });

  it('the catalogue exercises the rules: accents, ties and relevance change the answer', () => {
    const scanned = prepareScan(products, placeOf);
    const ids = (view: Partial<CatalogueFilter>) =>
      scanCatalogue(scanned, { q: '', type: '', vendor: '', tag: '', sort: 'featured', ...view }).map((p) => p.id);
    // Folded: the accented and plain forms are one word, and a ligature is its letters.
    expect(ids({ q: 'CAFÉ' })).toEqual(ids({ q: 'cafe' }));
    expect(ids({ q: 'fire' }).length).toBeGreaterThan(0);
    expect(ids({ tag: 'ete' })).toEqual(ids({ tag: 'Été' }));
    // A search's featured order is not the plain featured order (relevance ranks the title's words).
    const searched = ids({ q: 'cafe' });
    const placed = [...searched].sort((a, b) => rowIds.get(a)! - rowIds.get(b)!);
    expect(searched).not.toEqual(placed);
    // Prices tie ("1" and "1.00"): the tie goes by featured place.
    const byPrice = scanCatalogue(scanned, { q: '', type: '', vendor: '', tag: '', sort: 'price-asc' });
    const ones = byPrice.filter((p) => p.price === '1' || p.price === '1.00');
    expect(new Set(ones.map((p) => p.price)).size).toBe(2);
    expect(ones.map((p) => rowIds.get(p.id)!)).toEqual(ones.map((p) => rowIds.get(p.id)!).sort((a, b) => a - b));
  });
});
