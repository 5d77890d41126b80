// The kept cart answers' bounds, as docs/cart.md states them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MAX_KEPT, MAX_VERSIONS_READ } from './answers';

describe('kept cart answers', () => {
  it('are bounded as the cart doc says', () => {
    const doc = readFileSync(new URL('../../../docs/cart.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    expect(doc).toContain(`at most ${MAX_KEPT.toLocaleString('en-US')} sessions)`);
    expect(doc).toContain(`at most ${MAX_VERSIONS_READ} sessions a query`);
  });
});
