/**
 * A generated catalogue, the same every run (seeded): titles of a few words with accents, a
 * ligature, digits and the same word in several cases; short HTML descriptions with entities;
 * product types, vendors and tags in several spellings of one value; few prices, one also written
 * two ways, so many products tie on price; SKUs, some missing. For checking the catalogue's search
 * against its plain scan (product-query.test.ts) and timing both (bench/offline-search.ts).
 */
import type { Product } from '../../common/api';

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

/**
 * `size` products, and each one's row id (its featured place: unique, not the list's order).
 * `descriptionWords`: at most this many words in a description (a real one is longer).
 */
export function generateCatalogue(size: number, { descriptionWords = 6 } = {}): { products: Product[]; rowIds: Map<string, number> } {
  const { int, pick } = random(1994);
  const ids = new Set<string>();
  const products: Product[] = [];
  while (products.length < size) {
    // Ids in no order (newest is not the featured order).
    const id = String(7_000_000_000_000 + int(1_000_000_000));
    if (ids.has(id)) continue;
    ids.add(id);
    const title = Array.from({ length: 1 + int(4) }, () => pick(TITLE_WORDS)).join(' ');
    const description = `<p>${Array.from({ length: int(descriptionWords) }, () => pick(DESCRIPTION_WORDS)).join(' ')}</p>`;
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
