import { describe, expect, it } from 'vitest';
import type { Product } from '../../../common/api';
import { countFacets, prepareScan, scanCatalogue } from '../../../common/catalogue-scan';
import { CATALOGUE_SORTS, MAX_CATALOGUE_PAGE_SIZE, type CatalogueFilter } from '../../../common/catalogue-view';
import { generateCatalogue } from '../../test/generated-catalogue';
import { CatalogueIndex, MAX_FACET_VALUES } from './product-query';

// The index answers every view exactly as the plain scan of common/catalogue-scan.ts does (the
// scan the shop runs offline on the products a device saved): the same products in the same
// order, page after page through the cursors, on a generated catalogue with accents, repeated
// prices, tags, vendors and types in several cases, and SKUs.

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
    const index = await CatalogueIndex.build(
      products.map((product) => ({ product, rank: placeOf(product) })),
      () => Promise.resolve(),
    );
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
    const index = await CatalogueIndex.build(
      products.map((product) => ({ product, rank: placeOf(product) })),
      () => Promise.resolve(),
    );
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
