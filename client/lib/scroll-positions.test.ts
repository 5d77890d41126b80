import { describe, expect, it } from 'vitest';
import { ScrollPositions } from './scroll-positions';

describe('ScrollPositions', () => {
  it('keys a fresh load by its path and a history entry by its key', () => {
    expect(ScrollPositions.keyOf({ key: 'default', pathname: '/product/1' })).toBe('/product/1');
    expect(ScrollPositions.keyOf({ key: 'k3x9', pathname: '/product/1' })).toBe('k3x9');
  });

  it('reads back what it kept, through its serialized form', () => {
    const positions = new ScrollPositions(null);
    positions.set('/', 812.4);
    positions.set('abc', 0);
    const again = new ScrollPositions(positions.serialize());
    expect(again.get('/')).toBe(812);
    expect(again.get('abc')).toBe(0);
    expect(again.get('other')).toBeUndefined();
  });

  it('keeps only the newest entries, counting a re-used one as new', () => {
    const positions = new ScrollPositions(null, 2);
    positions.set('a', 1);
    positions.set('b', 2);
    positions.set('a', 3);
    positions.set('c', 4);
    expect(positions.get('b')).toBeUndefined();
    expect(positions.get('a')).toBe(3);
    expect(positions.get('c')).toBe(4);
  });

  it('starts empty from anything that is not what it wrote', () => {
    for (const saved of ['not json', '{"a":1}', '[["a","1"],[2,3],["b",null]]', 'null']) {
      const positions = new ScrollPositions(saved);
      expect(positions.serialize()).toBe('[]');
    }
    expect(new ScrollPositions('[["a",5],["b","x"]]').serialize()).toBe('[["a",5]]');
  });
});
