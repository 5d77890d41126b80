import type { QueryClient } from '@tanstack/react-query';
import type { Product, PublicConfig } from '../../../../common/api';
import { INLINE_DATA_IDS } from '../../../../common/inline-data';
import { configQueryKey } from '../../../lib/public-config';
import { productQueryKey } from './get-product';
import { productsQueryKey } from './get-products';

type PageDocument = Pick<Document, 'getElementById'>;

function readJson(doc: PageDocument, id: string): unknown {
  const text = doc.getElementById(id)?.textContent;
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // a broken tag: the query fetches as without it
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Seeds the query cache, before the first render, with what the server put in the page's HTML
 * (server/shop-pages.ts): the public config, and the product list (home) or the product (product
 * pages), under the keys their queries use, as fetched `now`, so nothing is asked for again at
 * once. Data restored later from the persisted cache (app/persistence.ts) is older, and TanStack's
 * hydrate never overwrites newer data. A page without the tags (the service worker's offline
 * copy of index.html, any other route) seeds nothing: the persisted cache and fetches work as before.
 */
export function seedInlineData(queryClient: QueryClient, doc: PageDocument = document, now = Date.now()): void {
  const config = readJson(doc, INLINE_DATA_IDS.config);
  if (isObject(config)) queryClient.setQueryData<PublicConfig>(configQueryKey, config as unknown as PublicConfig, { updatedAt: now });
  const products = readJson(doc, INLINE_DATA_IDS.products);
  if (Array.isArray(products)) queryClient.setQueryData<Product[]>(productsQueryKey, products as Product[], { updatedAt: now });
  const product = readJson(doc, INLINE_DATA_IDS.product);
  if (isObject(product) && typeof product.id === 'string') {
    queryClient.setQueryData<Product>(productQueryKey(product.id), product as unknown as Product, { updatedAt: now });
  }
}
