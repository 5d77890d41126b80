import { dehydrate, hydrate, QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { Product } from '../../../../common/api';
import { INLINE_DATA_IDS } from '../../../../common/inline-data';
import { configQueryKey } from '../../../lib/public-config';
import { productQueryKey } from './get-product';
import { productsQueryKey } from './get-products';
import { seedInlineData } from './inline-data';

const page = (tags: Record<string, string>) => ({
  getElementById: (id: string) => (id in tags ? ({ textContent: tags[id] } as HTMLElement) : null),
});

const product = (id: string, title: string) => ({ id, title, images: [], variants: [] }) as unknown as Product;

describe('seedInlineData', () => {
  it('puts the config and the list under their query keys, as fetched now', () => {
    const client = new QueryClient();
    seedInlineData(
      client,
      page({
        [INLINE_DATA_IDS.config]: '{"shopName":"POGS Shop"}',
        [INLINE_DATA_IDS.products]: JSON.stringify([product('1', 'Hoodie </script><b>')]),
      }),
      1_000_000,
    );
    expect(client.getQueryData(configQueryKey)).toEqual({ shopName: 'POGS Shop' });
    expect(client.getQueryData<Product[]>(productsQueryKey)?.[0].title).toBe('Hoodie </script><b>');
    expect(client.getQueryState(productsQueryKey)?.dataUpdatedAt).toBe(1_000_000);
    expect(client.getQueryState(configQueryKey)?.dataUpdatedAt).toBe(1_000_000);
  });

  it('puts a product page’s product under its own key', () => {
    const client = new QueryClient();
    seedInlineData(client, page({ [INLINE_DATA_IDS.product]: JSON.stringify(product('42', 'Mug')) }), 5);
    expect(client.getQueryData<Product>(productQueryKey('42'))?.title).toBe('Mug');
    expect(client.getQueryData(productsQueryKey)).toBeUndefined();
  });

  it('seeds nothing from a page without the tags (the offline copy of index.html) or with broken ones', () => {
    const client = new QueryClient();
    seedInlineData(client, page({}), 5);
    seedInlineData(
      client,
      page({ [INLINE_DATA_IDS.config]: '{oops', [INLINE_DATA_IDS.products]: '{"not":"a list"}', [INLINE_DATA_IDS.product]: '[1]' }),
      5,
    );
    expect(client.getQueryCache().getAll()).toHaveLength(0);
  });

  it('an older persisted copy restored afterwards does not replace the page’s data', () => {
    const saved = new QueryClient();
    saved.setQueryData(productsQueryKey, [product('1', 'Old title')], { updatedAt: 1000 });
    const persisted = dehydrate(saved);

    const client = new QueryClient();
    seedInlineData(client, page({ [INLINE_DATA_IDS.products]: JSON.stringify([product('1', 'New title')]) }), 2000);
    hydrate(client, persisted);
    expect(client.getQueryData<Product[]>(productsQueryKey)?.[0].title).toBe('New title');
  });
});
