import { describe, expect, it } from 'vitest';
import { chunkUrls } from './client-manifest';

describe('chunkUrls', () => {
  const manifest = {
    'index.html': { file: 'assets/index-a.js', imports: ['_react.js'] },
    'features/page.tsx': { file: 'assets/page-b.js', imports: ['_shared.js', '_react.js'] },
    '_shared.js': { file: 'assets/shared-c.js', imports: ['_react.js', 'features/page.tsx'] },
    '_react.js': { file: 'assets/react-d.js' },
  };

  it("lists a page's chunk, then what it imports at any depth, once each, cycles included", () => {
    expect(chunkUrls(manifest, 'features/page.tsx')).toEqual(['/assets/page-b.js', '/assets/shared-c.js', '/assets/react-d.js']);
  });

  it('lists nothing for a module the build does not have', () => {
    expect(chunkUrls(manifest, 'features/other.tsx')).toEqual([]);
  });
});
