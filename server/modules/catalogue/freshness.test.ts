import { describe, expect, it } from 'vitest';
import { parseChange, reconnectDelay } from './freshness';

describe('catalogue change notifications', () => {
  it("reads the version of this schema's changes only", () => {
    expect(parseChange('public:42', 'public')).toBe(42);
    expect(parseChange('t_ab12cd:7', 't_ab12cd')).toBe(7);
    // Another schema on the same database (another shop, another test file) counts its own versions.
    expect(parseChange('other:43', 'public')).toBeNull();
    expect(parseChange('public:43', 'pub')).toBeNull();
    // A schema name with a colon in it still splits at the last one.
    expect(parseChange('a:b:5', 'a:b')).toBe(5);
  });

  it('ignores payloads that are not a whole version', () => {
    for (const bad of [undefined, '', 'public', 'public:', 'public:-1', 'public:1.5', 'public:12abc', `public:${'9'.repeat(16)}`]) {
      expect(parseChange(bad, 'public'), String(bad)).toBeNull();
    }
  });

  it('reconnects sooner first, then backs off to at most 5 s', () => {
    expect([0, 1, 2, 3].map((n) => reconnectDelay(n, 250))).toEqual([250, 500, 1000, 2000]);
    expect(reconnectDelay(5, 250)).toBe(5000);
    expect(reconnectDelay(1000, 250)).toBe(5000);
  });
});
