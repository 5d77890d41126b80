import { describe, expect, it } from 'vitest';
import { assembleBulkProducts } from './bulk-products';

/** A bulk result's rows, as the parsed JSON Lines file yields them. */
async function* rowsOf(rows: Array<Record<string, unknown>>): AsyncGenerator<Record<string, unknown>> {
  for (const row of rows) yield structuredClone(row);
}

const P1 = 'gid://shopify/Product/1';
const P2 = 'gid://shopify/Product/2';
const bulkRows: Array<Record<string, unknown>> = [
  { id: P1, title: 'Slammer', updatedAt: '2026-01-01T00:00:00Z' },
  {
    id: 'gid://shopify/MediaImage/9',
    mediaContentType: 'IMAGE',
    alt: 'front',
    image: { url: 'https://cdn/x.jpg', altText: null },
    __parentId: P1,
  },
  { id: P2, title: 'Pog "Ü"', updatedAt: '2026-01-02T00:00:00Z' },
  { id: 'gid://shopify/ProductVariant/11', title: 'A', price: '1.00', __parentId: P1 },
  { id: 'gid://shopify/ProductVariant/21', title: 'B', price: '2.00', __parentId: P2 },
  { id: 'gid://shopify/ProductVariant/12', title: 'C', price: '3.00', __parentId: P1 },
];

describe('bulk products', () => {
  it('puts variants and media under their product, in file order, wherever they appear', async () => {
    const seen: number[] = [];
    const { products, orphans } = await assembleBulkProducts(rowsOf(bulkRows), (n) => seen.push(n));
    expect(orphans).toBe(0);
    expect(seen).toEqual([1, 2]);
    expect(products.map((p) => p.id)).toEqual([P1, P2]);
    expect(products[0].variants.nodes.map((v) => v.title)).toEqual(['A', 'C']);
    expect(products[0].media.nodes).toEqual([
      { id: 'gid://shopify/MediaImage/9', mediaContentType: 'IMAGE', alt: 'front', image: { url: 'https://cdn/x.jpg', altText: null } },
    ]);
    expect(products[1].variants.nodes.map((v) => v.title)).toEqual(['B']);
    expect(products[1].media.nodes).toEqual([]);
    expect(JSON.stringify(products)).not.toContain('__parentId');
  });

  it('counts children whose product came not before them', async () => {
    const rows = [
      { id: 'gid://shopify/ProductVariant/1', __parentId: P1 },
      { id: P1, title: 'Late' },
    ];
    const { products, orphans } = await assembleBulkProducts(rowsOf(rows));
    expect(orphans).toBe(1);
    expect(products[0].variants.nodes).toEqual([]);
  });
});
