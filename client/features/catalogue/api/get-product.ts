import { queryOptions, useQuery, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import type { Product } from '../../../../common/api';
import { apiFetch } from '../../../lib/api-client';
import type { CataloguePage } from '../../../../common/catalogue-view';

export const productQueryKey = (id: string) => ['catalogue', 'product', id] as const;

export function getProduct(id: string, signal?: AbortSignal): Promise<Product> {
  return apiFetch<Product>(`/api/products/${encodeURIComponent(id)}`, { signal });
}

export function productQueryOptions(id: string, queryClient?: QueryClient) {
  return queryOptions<Product, Error, Product, ReturnType<typeof productQueryKey>>({
    queryKey: productQueryKey(id),
    queryFn: ({ signal }) => getProduct(id, signal),
    networkMode: 'offlineFirst',
    // Show the product from a page of the grid already loaded at once while its own request runs.
    placeholderData: (): Product | undefined => (queryClient ? loadedProduct(queryClient, id) : undefined),
  });
}

/** The product as a loaded page of any view of the grid has it (the newest such page first). */
function loadedProduct(queryClient: QueryClient, id: string): Product | undefined {
  const views = queryClient.getQueryCache().findAll({ queryKey: ['catalogue', 'page'] });
  views.sort((a, b) => b.state.dataUpdatedAt - a.state.dataUpdatedAt);
  for (const view of views) {
    const data = view.state.data as InfiniteData<CataloguePage> | undefined;
    for (const page of data?.pages ?? []) {
      const product = page.products.find((p) => p.id === id);
      if (product) return product;
    }
  }
  return undefined;
}

export function useProduct(id: string) {
  const queryClient = useQueryClient();
  return useQuery(productQueryOptions(id, queryClient));
}
