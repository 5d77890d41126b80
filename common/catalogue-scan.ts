/**
 * The catalogue's matching rules as one plain scan over a list of products: the words a product
 * is found by, what a search and the filters keep, and the orders of the sorts.
 *
 * The server answers from an index built for speed (server/modules/catalogue/product-query.ts);
 * this is the same answer computed the slow, obvious way. The shop uses it offline, on the
 * products the device saved, and the server's tests check the index against it, so the two agree
 * on every search, filter and sort.
 *
 * - Text is folded: NFKD, combining marks removed, lower case ("Café" reads as "cafe").
 * - A product's words are the runs of letters and digits of its title, its description as plain
 *   text, its vendor, product type, tags and variants' SKUs.
 * - A product matches a search when every word of the search is the start of one of its words.
 * - The type and vendor filters compare folded values exactly; the tag filter keeps a product when
 *   any of its tags is the value.
 * - Sorts: featured (the featured place), newest (the larger Shopify id first), price low to high
 *   and high to low (the lowest variant's price, exact, in wei); ties by featured place. Featured
 *   with a search puts first the products whose title has more of the search's words (each as the
 *   start of a title word), then by featured place.
 * - The filters' values are counted over the products, the most common first.
 */
import type { Product } from './api';
import type { CatalogueFacets, CatalogueFilter, FacetValue } from './catalogue-view';
import { parseUnits } from './money';

/** Accents off and lower case: how every text is compared. */
export function fold(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/** The words of a text: letters and digits, folded (accents off, lower case). */
export function wordsOf(text: string): string[] {
  return fold(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Shopify's description HTML as text: tags and entities out. */
export function plainText(html: string): string {
  return html.replace(/<[^>]*>/g, ' ').replace(/&[#\w]+;/g, ' ');
}

/** The text a product is found by: title, description as plain text, vendor, type, tags and SKUs. */
export function searchedText(product: Product): string {
  return [
    product.title,
    plainText(product.description),
    product.vendor,
    product.productType,
    ...product.tags,
    ...product.variants.map((v) => v.sku ?? ''),
  ].join(' ');
}

/** A product as the scan reads it: its words and sort keys, each worked out once. */
export interface ScannedProduct {
  readonly product: Product;
  /** Its place in the featured order (lower first). */
  readonly place: number;
  /** Every word it is found by, each once (read at the first search that needs them). */
  readonly words: readonly string[];
  readonly titleWords: readonly string[];
  readonly type: string;
  readonly vendor: string;
  readonly tags: ReadonlySet<string>;
  /** Its lowest price in wei. */
  readonly price: bigint;
  /** Shopify's numeric id: larger is newer. */
  readonly created: bigint;
}

/**
 * The products ready to scan, each read once: folding a few thousand descriptions is the scan's
 * main cost, paid at the first search (a view without one never pays it), not at every search.
 * `placeOf` gives each product its featured place.
 */
export function prepareScan(products: readonly Product[], placeOf: (product: Product) => number): ScannedProduct[] {
  return products.map((product) => {
    let words: readonly string[] | undefined;
    let titleWords: readonly string[] | undefined;
    return {
      product,
      place: placeOf(product),
      get words() {
        return (words ??= [...new Set(wordsOf(searchedText(product)))]);
      },
      get titleWords() {
        return (titleWords ??= [...new Set(wordsOf(product.title))]);
      },
      type: fold(product.productType),
      vendor: fold(product.vendor),
      tags: new Set(product.tags.map(fold)),
      price: parseUnits(product.price),
      created: BigInt(product.id),
    };
  });
}

const hasWordStartingWith = (words: readonly string[], start: string) => words.some((word) => word.startsWith(start));

const compareBigint = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);

/** The products of a view (search, filters, sort), all of them, in the view's order. */
export function scanCatalogue(scanned: readonly ScannedProduct[], filter: CatalogueFilter): Product[] {
  const search = wordsOf(filter.q);
  const type = fold(filter.type);
  const vendor = fold(filter.vendor);
  const tag = fold(filter.tag);
  const matches = scanned.filter(
    (p) =>
      (!type || p.type === type) &&
      (!vendor || p.vendor === vendor) &&
      (!tag || p.tags.has(tag)) &&
      search.every((word) => hasWordStartingWith(p.words, word)),
  );
  const byPlace = (a: ScannedProduct, b: ScannedProduct) => a.place - b.place;
  let order: (a: ScannedProduct, b: ScannedProduct) => number;
  switch (filter.sort) {
    case 'featured': {
      if (search.length === 0) {
        order = byPlace;
        break;
      }
      // Each search word counts, repeated ones too ("cap cap"), as the server counts them.
      const titleHits = new Map(matches.map((p) => [p, search.filter((word) => hasWordStartingWith(p.titleWords, word)).length]));
      order = (a, b) => titleHits.get(b)! - titleHits.get(a)! || byPlace(a, b);
      break;
    }
    case 'newest':
      order = (a, b) => compareBigint(b.created, a.created) || byPlace(a, b);
      break;
    case 'price-asc':
      order = (a, b) => compareBigint(a.price, b.price) || byPlace(a, b);
      break;
    case 'price-desc':
      order = (a, b) => compareBigint(b.price, a.price) || byPlace(a, b);
      break;
  }
  return matches.sort(order).map((p) => p.product);
}

/**
 * The filters' values among `products`, with how many products have each (a product counts once
 * per value; blank values are left out), the most common first, then by name, at most `limit`.
 */
export function countFacets(products: readonly Product[], limit: number): CatalogueFacets {
  const count = (values: (product: Product) => string[]): FacetValue[] => {
    const counts = new Map<string, number>();
    for (const product of products) for (const v of new Set(values(product))) if (v.trim()) counts.set(v, (counts.get(v) ?? 0) + 1);
    return [...counts]
      .map(([value, n]) => ({ value, count: n }))
      .sort((a, b) => b.count - a.count || a.value.localeCompare(b.value))
      .slice(0, limit);
  };
  return {
    productTypes: count((p) => [p.productType]),
    vendors: count((p) => [p.vendor]),
    tags: count((p) => p.tags),
  };
}
