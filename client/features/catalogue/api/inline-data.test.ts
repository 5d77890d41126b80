import { dehydrate, hydrate, QueryClient, type InfiniteData } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { Product } from '../../../../common/api';
import type { CataloguePage } from '../../../../common/catalogue-view';
import { INLINE_DATA_IDS } from '../../../../common/inline-data';
import { configQueryKey } from '../../../lib/public-config';
import { productQueryKey } from './get-product';
import { seedInlineData } from './inline-data';

const page = (tags: Record<string, string>) => ({
  getElementById: (id: string) => (id in tags ? ({ textContent: tags[id] } as HTMLElement) : null),
});

const product = (id: string, title: string) => ({ id, title, images: [], variants: [] }) as unknown as Product;
const cataloguePage = (products: Product[], nextCursor: string | null = null): CataloguePage => ({
  products,
  total: products.length + (nextCursor ? 10 : 0),
  nextCursor,
});
type Pages = InfiniteData<CataloguePage, string | null>;

describe('seedInlineData', () => {
  it('puts the config, and the first page under its view’s key (from the URL’s query), as fetched now', () => {
    const client = new QueryClient();
    seedInlineData(
      client,
      page({
        [INLINE_DATA_IDS.config]: '{"shopName":"POGS Shop"}',
        [INLINE_DATA_IDS.cataloguePage]: JSON.stringify(cataloguePage([product('1', 'Hoodie </script><b>')], 'next')),
      }),
      1_000_000,
      // The URL's order, blanks and other parameters aside: the view's one key.
      '?sort=price-asc&utm_source=x&q=+hoodie+&type=',
    );
    const key = ['catalogue', 'page', 'q=hoodie&sort=price-asc'];
    expect(client.getQueryData(configQueryKey)).toEqual({ shopName: 'POGS Shop' });
    const data = client.getQueryData<Pages>(key);
    expect(data?.pages).toHaveLength(1);
    expect(data?.pages[0].products[0].title).toBe('Hoodie </script><b>');
    expect(data?.pages[0].nextCursor).toBe('next');
    expect(data?.pageParams).toEqual([null]);
    expect(client.getQueryState(key)?.dataUpdatedAt).toBe(1_000_000);
    expect(client.getQueryState(configQueryKey)?.dataUpdatedAt).toBe(1_000_000);
  });

  it('the default view (no query) is the key with an empty query', () => {
    const client = new QueryClient();
    seedInlineData(client, page({ [INLINE_DATA_IDS.cataloguePage]: JSON.stringify(cataloguePage([product('1', 'Cap')])) }), 5, '');
    expect(client.getQueryData<Pages>(['catalogue', 'page', ''])?.pages[0].products[0].id).toBe('1');
  });

  it('puts a product page’s product under its own key', () => {
    const client = new QueryClient();
    seedInlineData(client, page({ [INLINE_DATA_IDS.product]: JSON.stringify(product('42', 'Mug')) }), 5, '');
    expect(client.getQueryData<Product>(productQueryKey('42'))?.title).toBe('Mug');
    expect(client.getQueryCache().findAll({ queryKey: ['catalogue', 'page'] })).toHaveLength(0);
  });

  it('seeds nothing from a page without the tags (the offline copy of index.html) or with broken ones', () => {
    const client = new QueryClient();
    seedInlineData(client, page({}), 5, '');
    seedInlineData(
      client,
      page({
        [INLINE_DATA_IDS.config]: '{oops',
        [INLINE_DATA_IDS.cataloguePage]: JSON.stringify([product('1', 'A list, not a page')]),
        [INLINE_DATA_IDS.product]: '[1]',
      }),
      5,
      '',
    );
    seedInlineData(client, page({ [INLINE_DATA_IDS.cataloguePage]: '{"products":[],"total":"3","nextCursor":null}' }), 5, '');
    expect(client.getQueryCache().getAll()).toHaveLength(0);
  });

  it('an older persisted copy restored afterwards does not replace the page’s data', () => {
    const key = ['catalogue', 'page', ''];
    const saved = new QueryClient();
    saved.setQueryData<Pages>(key, { pages: [cataloguePage([product('1', 'Old title')])], pageParams: [null] }, { updatedAt: 1000 });
    const persisted = dehydrate(saved);

    const client = new QueryClient();
    seedInlineData(client, page({ [INLINE_DATA_IDS.cataloguePage]: JSON.stringify(cataloguePage([product('1', 'New title')])) }), 2000, '');
    hydrate(client, persisted);
    expect(client.getQueryData<Pages>(key)?.pages[0].products[0].title).toBe('New title');
  });
});
