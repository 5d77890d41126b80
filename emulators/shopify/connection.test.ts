import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { paginate } from './connection';

interface Item {
  id: number;
  name: string;
}
const items: Item[] = ['d', 'b', 'a', 'e', 'c', 'b'].map((name, i) => ({ id: i + 1, name }));
const byName = (item: Item): [string, number] => [item.name, item.id];
const names = (page: { nodes: Item[] }) => page.nodes.map((n) => `${n.name}${n.id}`);

describe('paginate', () => {
  it('pages forwards in sort order with ties broken by id', () => {
    const p1 = paginate('things', items, { first: 4 }, byName);
    expect(names(p1)).toEqual(['a3', 'b2', 'b6', 'c5']);
    expect(p1.pageInfo).toMatchObject({ hasNextPage: true, endCursor: expect.any(String) });
    const p2 = paginate('things', items, { first: 4, after: p1.pageInfo.endCursor }, byName);
    expect(names(p2)).toEqual(['d1', 'e4']);
    expect(p2.pageInfo.hasNextPage).toBe(false);
  });

  it('keeps a cursor valid when the item it points at disappears', () => {
    const p1 = paginate('things', items, { first: 2 }, byName); // a3 b2
    const without = items.filter((i) => i.id !== 2);
    expect(names(paginate('things', without, { first: 2, after: p1.pageInfo.endCursor }, byName))).toEqual(['b6', 'c5']);
  });

  it('rejects a missing or oversized page size and junk cursors', () => {
    expect(() => paginate('things', items, {}, byName)).toThrow('you must provide one of first or last');
    expect(() => paginate('things', items, { first: 251 }, byName)).toThrow(GraphQLError);
    expect(() => paginate('things', items, { first: 1, after: 'not-a-cursor' }, byName)).toThrow(/Invalid cursor/);
  });

  it('returns a null cursor for an empty page', () => {
    const page = paginate('things', [], { first: 5 }, byName);
    expect(page.pageInfo).toEqual({ hasNextPage: false, endCursor: null });
  });
});
