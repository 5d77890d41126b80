// The page answers' bounds, as docs/catalogue-in-memory.md states them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CATALOGUE_FILTER } from '../../../common/catalogue-view';
import { MAX_PAGE_ADDRESSES, MAX_PAGE_BYTES, pageKeyOf } from './page-answers';

describe('stored page answers', () => {
  it('are bounded as the docs say', () => {
    const doc = readFileSync(new URL('../../../docs/catalogue-in-memory.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    expect(doc).toContain(`kept within ${MAX_PAGE_BYTES / 1024 / 1024} MB per snapshot`);
    expect(doc).toContain(`(at most ${MAX_PAGE_ADDRESSES.toLocaleString('en-US')} per snapshot)`);
  });

  it('share one answer between queries that match alike, and only those', () => {
    const view = { ...DEFAULT_CATALOGUE_FILTER, limit: 24 };
    expect(pageKeyOf({ ...view, q: 'Crème  Brûlée!' })).toBe(pageKeyOf({ ...view, q: 'creme brulee' }));
    expect(pageKeyOf({ ...view, type: 'HATS' })).toBe(pageKeyOf({ ...view, type: 'hats' }));
    for (const other of [
      { ...view, q: 'brulee creme' },
      { ...view, q: 'creme creme' },
      { ...view, sort: 'newest' as const },
      { ...view, limit: 25 },
      { ...view, cursor: 'x' },
      { ...view, tag: 'hats' },
      { ...view, vendor: 'hats' },
    ])
      expect(pageKeyOf(other)).not.toBe(pageKeyOf({ ...view, q: 'creme' }));
  });
});
