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
    expect(p1.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    expect(p1.edges.map((e) => e.cursor)).toEqual([p1.pageInfo.startCursor, expect.any(String), expect.any(String), p1.pageInfo.endCursor]);
    const p2 = paginate('things', items, { first: 4, after: p1.pageInfo.endCursor }, byName);
    expect(names(p2)).toEqual(['d1', 'e4']);
    expect(p2.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
  });

  it('pages backwards with last/before and honours reverse', () => {
    const tail = paginate('things', items, { last: 2 }, byName);
    expect(names(tail)).toEqual(['d1', 'e4']);
    const before = paginate('things', items, { last: 2, before: tail.pageInfo.startCursor }, byName);
    expect(names(before)).toEqual(['b6', 'c5']);
    expect(before.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    expect(names(paginate('things', items, { first: 2, reverse: true }, byName))).toEqual(['e4', 'd1']);
  });

  it('keeps a cursor valid when the item it points at disappears', () => {
    const p1 = paginate('things', items, { first: 2 }, byName); // a3 b2
    const without = items.filter((i) => i.id !== 2);
    expect(names(paginate('things', without, { first: 2, after: p1.pageInfo.endCursor }, byName))).toEqual(['b6', 'c5']);
  });

  it('rejects missing, doubled and oversized page arguments and junk cursors', () => {
    expect(() => paginate('things', items, {}, byName)).toThrow('you must provide one of first or last');
    expect(() => paginate('things', items, { first: 1, last: 1 }, byName)).toThrow(/both first and last/);
    expect(() => paginate('things', items, { first: 251 }, byName)).toThrow(GraphQLError);
    expect(() => paginate('things', items, { first: 1, after: 'not-a-cursor' }, byName)).toThrow(/Invalid cursor/);
  });

  it('returns null cursors for an empty page', () => {
    const page = paginate('things', [], { first: 5 }, byName);
    expect(page.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null });
  });
});
