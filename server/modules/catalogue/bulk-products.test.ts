import { describe, expect, it } from 'vitest';
import { parseJsonLines, JsonLinesError } from '../../shopify';
import { assembleBulkProducts } from './bulk-products';

async function* chunks(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const p of parts) yield new TextEncoder().encode(p);
}
const collect = async <T>(it: AsyncIterable<T>): Promise<T[]> => {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
};

const P1 = 'gid://shopify/Product/1';
const P2 = 'gid://shopify/Product/2';
const file = [
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
]
  .map((r) => JSON.stringify(r))
  .join('\n');

describe('JSON Lines', () => {
  it('parses lines split anywhere across chunks, multi-byte characters included', async () => {
    const bytes = new TextEncoder().encode(`${file}\n`);
    // Cut inside the "Ü" (two bytes) and inside lines.
    const at = bytes.indexOf(0xc3) + 1;
    async function* split() {
      yield bytes.slice(0, 7);
      yield bytes.slice(7, at);
      yield bytes.slice(at);
    }
    const rows = await collect(parseJsonLines(split()));
    expect(rows).toHaveLength(6);
    expect(rows[2]).toMatchObject({ title: 'Pog "Ü"' });
  });

  it('takes a last line without a newline and skips blank lines', async () => {
    expect(await collect(parseJsonLines(chunks('{"a":1}\n\n', '{"b":2}')))).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('names the line that is not a JSON object, and refuses an endless line', async () => {
    await expect(collect(parseJsonLines(chunks('{"a":1}\n[1]\n')))).rejects.toThrow(/line 2 is not a JSON object/);
    await expect(collect(parseJsonLines(chunks('{"a":1}\n{oops\n')))).rejects.toThrow(JsonLinesError);
    await expect(collect(parseJsonLines(chunks('{"a":"', 'x'.repeat(100)), { maxLineBytes: 50 }))).rejects.toThrow(/longer than 50/);
  });
});

describe('bulk products', () => {
  it('puts variants and media under their product, in file order, wherever they appear', async () => {
    const seen: number[] = [];
    const { products, orphans } = await assembleBulkProducts(parseJsonLines(chunks(file)), (n) => seen.push(n));
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
    const { products, orphans } = await assembleBulkProducts(parseJsonLines(chunks(rows.map((r) => JSON.stringify(r)).join('\n'))));
    expect(orphans).toBe(1);
    expect(products[0].variants.nodes).toEqual([]);
  });
});
