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
  const products = readJson(doc, INLINE_DATA_IDS.products);
  const product = readJson(doc, INLINE_DATA_IDS.product);
  seedShopData(
    queryClient,
    {
      config: isObject(config) ? (config as unknown as PublicConfig) : undefined,
      products: Array.isArray(products) ? (products as Product[]) : undefined,
      product: isObject(product) && typeof product.id === 'string' ? (product as unknown as Product) : undefined,
    },
    now,
  );
}

/** What a shop page carries: the public config, and the product list (home) or one product. */
interface ShopPageData {
  config?: PublicConfig;
  products?: Product[];
  product?: Product;
}

/**
 * Puts a page's data in the query cache under the keys its queries use, as fetched `now`: in the
 * browser from the HTML's tags (above), on the server before rendering the page (entry-server.tsx).
 */
export function seedShopData(queryClient: QueryClient, data: ShopPageData, now = Date.now()): void {
  if (data.config) queryClient.setQueryData<PublicConfig>(configQueryKey, data.config, { updatedAt: now });
  if (data.products) queryClient.setQueryData<Product[]>(productsQueryKey, data.products, { updatedAt: now });
  if (data.product) queryClient.setQueryData<Product>(productQueryKey(data.product.id), data.product, { updatedAt: now });
}
