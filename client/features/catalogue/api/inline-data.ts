import type { QueryClient } from '@tanstack/react-query';
import type { Product, PublicConfig } from '../../../../common/api';
import { filterFromSearchParams, type CataloguePage } from '../../../../common/catalogue-view';
import { INLINE_DATA_IDS } from '../../../../common/inline-data';
import { configQueryKey } from '../../../lib/public-config';
import { cataloguePageQueryKey, firstPageData } from './get-catalogue-page';
import { productQueryKey } from './get-product';

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

const isCataloguePage = (value: unknown): value is CataloguePage =>
  isObject(value) &&
  Array.isArray(value.products) &&
  typeof value.total === 'number' &&
  (value.nextCursor === null || typeof value.nextCursor === 'string');

/**
 * Seeds the query cache, before the first render, with what the server put in the page's HTML
 * (server/pages/shop-pages.ts): the public config, and the first page of the view the URL's query
 * (`search`) names (home) or the product (product pages), under the keys their queries use, as
 * fetched `now`, so nothing is asked for again at once. Data restored later from the persisted
 * cache (app/persistence.ts) is older, and TanStack's hydrate never overwrites newer data. A page
 * without the tags (the service worker's offline copy of index.html, any other route) seeds
 * nothing: the persisted cache and fetches work as before.
 */
export function seedInlineData(
  queryClient: QueryClient,
  doc: PageDocument = document,
  now = Date.now(),
  search: string = typeof location === 'undefined' ? '' : location.search,
): void {
  const config = readJson(doc, INLINE_DATA_IDS.config);
  const page = readJson(doc, INLINE_DATA_IDS.cataloguePage);
  const product = readJson(doc, INLINE_DATA_IDS.product);
  seedShopData(
    queryClient,
    {
      config: isObject(config) ? (config as unknown as PublicConfig) : undefined,
      cataloguePage: isCataloguePage(page) ? { search, page } : undefined,
      product: isObject(product) && typeof product.id === 'string' ? (product as unknown as Product) : undefined,
    },
    now,
  );
}

/** What a shop page carries: the public config, and the first page of the home's view (with the URL query naming it) or one product. */
interface ShopPageData {
  config?: PublicConfig;
  cataloguePage?: { search: string; page: CataloguePage };
  product?: Product;
}

/**
 * Puts a page's data in the query cache under the keys its queries use, as fetched `now`: in the
 * browser from the HTML's tags (above), on the server before rendering the page (entry-server.tsx).
 * The home's page becomes the first (and only) page of its view's infinite query; the next ones
 * are fetched as the shopper scrolls.
 */
export function seedShopData(queryClient: QueryClient, data: ShopPageData, now = Date.now()): void {
  if (data.config) queryClient.setQueryData<PublicConfig>(configQueryKey, data.config, { updatedAt: now });
  if (data.cataloguePage) {
    const filter = filterFromSearchParams(new URLSearchParams(data.cataloguePage.search));
    queryClient.setQueryData(cataloguePageQueryKey(filter), firstPageData(data.cataloguePage.page), { updatedAt: now });
  }
  if (data.product) queryClient.setQueryData<Product>(productQueryKey(data.product.id), data.product, { updatedAt: now });
}
