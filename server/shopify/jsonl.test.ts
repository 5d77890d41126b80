import { describe, expect, it } from 'vitest';
import { JsonLinesError, parseJsonLines } from './jsonl';

async function* chunks(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const p of parts) yield new TextEncoder().encode(p);
}
const collect = async <T>(it: AsyncIterable<T>): Promise<T[]> => {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
};

const file = [
  { id: 'gid://shopify/Product/1', title: 'Slammer' },
  { id: 'gid://shopify/Product/2', title: 'Pog "Ü"' },
  { id: 'gid://shopify/ProductVariant/21', title: 'B', price: '2.00', __parentId: 'gid://shopify/Product/2' },
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
    expect(rows).toHaveLength(3);
    expect(rows[1]).toMatchObject({ title: 'Pog "Ü"' });
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
