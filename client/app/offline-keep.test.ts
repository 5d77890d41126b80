import type { DehydratedState } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { jsonLength, MAX_SAVED_PRODUCTS, memoizedMeasure, selectOfflineQueries } from './offline-keep';

type DehydratedQuery = DehydratedState['queries'][number];

const query = (queryKey: unknown[], data: unknown, dataUpdatedAt = 1): DehydratedQuery =>
  ({
    queryKey,
    queryHash: JSON.stringify(queryKey),
    state: { data, dataUpdatedAt, status: 'success', error: null, fetchStatus: 'idle' },
  }) as unknown as DehydratedQuery;

/** A product of about `size` characters of JSON. */
const product = (id: string, size = 1000) => ({ id, title: `Product ${id}`, description: 'x'.repeat(Math.max(0, size - 50)) });
const products = (from: number, count: number, size?: number) => Array.from({ length: count }, (_, i) => product(String(from + i), size));
const page = (from: number, count: number, last = false) => ({
  products: products(from, count),
  total: 5000,
  nextCursor: last ? null : `c${from + count}`,
});
const pages = (view: string, count: number, dataUpdatedAt = 1) =>
  query(
    ['catalogue', 'page', view],
    {
      pages: Array.from({ length: count }, (_, i) => page(i * 24, 24)),
      pageParams: Array.from({ length: count }, (_, i) => (i === 0 ? null : `c${i * 24}`)),
    },
    dataUpdatedAt,
  );
const keys = (queries: DehydratedQuery[]) => queries.map((q) => JSON.stringify(q.queryKey));
const pagesKept = (queries: DehydratedQuery[], view: string) =>
  (
    queries.find((q) => q.queryKey[1] === 'page' && q.queryKey[2] === view)?.state.data as
      { pages: unknown[]; pageParams: unknown[] } | undefined
  )?.pages.length ?? 0;

describe('selectOfflineQueries', () => {
  it('keeps everything that fits: the config, facets, pages, products and the whole list', () => {
    const all = [
      query(['config'], { shopName: 'POGS' }),
      query(['catalogue', 'facets'], { productTypes: [], vendors: [], tags: [] }),
      pages('', 2),
      query(['catalogue', 'product', '7'], product('7')),
      query(['catalogue', 'products'], products(0, 48)),
    ];
    const kept = selectOfflineQueries(all, 10 * 1024 * 1024);
    expect(keys(kept.queries).sort()).toEqual(keys(all).sort());
    expect(pagesKept(kept.queries, '')).toBe(2);
    expect(kept.products).toBe(48); // the list, the pages and product 7 are the same 48 products
    expect(kept.leftOut).toBe(0);
    expect(kept.chars).toBeGreaterThan(48 * 1000);
  });

  it('leaves the whole list out when it does not fit, keeping the default view and the products opened', () => {
    const all = [
      query(['config'], { shopName: 'POGS' }),
      pages('', 1),
      query(['catalogue', 'product', '4999'], product('4999')),
      query(['catalogue', 'products'], products(0, 5000)), // ~5 MB
    ];
    const kept = selectOfflineQueries(all, 200_000);
    expect(keys(kept.queries)).toEqual(['["config"]', '["catalogue","product","4999"]', '["catalogue","page",""]']);
    expect(kept.products).toBe(25);
    expect(kept.leftOut).toBe(1);
    expect(kept.chars).toBeLessThanOrEqual(200_000);
    // What is kept measures what it says (the JSON saved is the budget's, give or take the keys).
    expect(kept.chars).toBeGreaterThanOrEqual(jsonLength(kept.queries) - 100);
  });

  it('keeps the first page of the default view before the products, and its further pages after them', () => {
    const opened = Array.from({ length: 30 }, (_, i) => query(['catalogue', 'product', `p${i}`], product(`p${i}`), 100 + i));
    // Room for two pages and the 30 products, not for a third page.
    const budget = 2 * jsonLength(page(0, 24)) + jsonLength(opened) + 2000;
    const kept = selectOfflineQueries([pages('', 5), ...opened], budget);
    expect(pagesKept(kept.queries, '')).toBe(2);
    expect(kept.queries.filter((q) => q.queryKey[1] === 'product')).toHaveLength(30);
    // The pages kept are the first ones, with their page params.
    const data = kept.queries.find((q) => q.queryKey[1] === 'page')!.state.data as {
      pages: { products: { id: string }[] }[];
      pageParams: unknown[];
    };
    expect(data.pages[0].products[0].id).toBe('0');
    expect(data.pageParams).toEqual([null, 'c24']);
  });

  it('keeps the most recently loaded products, at most MAX_SAVED_PRODUCTS of them', () => {
    const opened = Array.from({ length: MAX_SAVED_PRODUCTS + 20 }, (_, i) =>
      query(['catalogue', 'product', `p${i}`], product(`p${i}`, 100), i),
    );
    const kept = selectOfflineQueries(opened, 10 * 1024 * 1024);
    const ids = kept.queries.map((q) => q.queryKey[2]);
    expect(ids).toHaveLength(MAX_SAVED_PRODUCTS);
    expect(ids).toContain(`p${MAX_SAVED_PRODUCTS + 19}`);
    expect(ids).not.toContain('p19');
    expect(kept.leftOut).toBe(20);

    // A small budget keeps the newest that fit.
    const few = selectOfflineQueries(opened, 5 * jsonLength(opened[0]));
    expect(few.queries.length).toBeGreaterThan(0);
    expect(few.queries.length).toBeLessThan(5);
    expect(few.queries[0].queryKey[2]).toBe(`p${MAX_SAVED_PRODUCTS + 19}`);
  });

  it('puts the default view ahead of other views, and other views newest first', () => {
    const all = [pages('q=cap', 3, 50), pages('sort=newest', 3, 90), pages('', 3, 10)];
    const onePage = jsonLength(page(0, 24));
    const kept = selectOfflineQueries(all, 4 * onePage + 2000);
    expect(pagesKept(kept.queries, '')).toBe(3);
    expect(pagesKept(kept.queries, 'sort=newest')).toBe(1);
    expect(pagesKept(kept.queries, 'q=cap')).toBe(0);
    expect(kept.leftOut).toBe(1);
  });

  it('keeps nothing past a budget too small for anything, and says so', () => {
    const kept = selectOfflineQueries([pages('', 1), query(['catalogue', 'products'], products(0, 10))], 100);
    expect(kept.queries).toEqual([]);
    expect(kept.products).toBe(0);
    expect(kept.leftOut).toBe(2);
  });

  it('remembers a size per object: the cache changes data by replacing it, never in place', () => {
    const measure = memoizedMeasure();
    const list = products(0, 10);
    const size = measure(list);
    expect(size).toBe(jsonLength(list));
    list.push(product('extra')); // never done to the cache's data: shows the size is remembered, not measured again
    expect(measure(list)).toBe(size);
    expect(measure([...list])).toBe(jsonLength(list));
    expect(measure('text')).toBe(6);
  });
});
