import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Product } from '../../../../common/api';
import { apiFetch } from '../../../lib/api-client';
import { productsQueryKey } from './get-products';

export const productQueryKey = (id: string) => ['catalogue', 'product', id] as const;

export function getProduct(id: string, signal?: AbortSignal): Promise<Product> {
  return apiFetch<Product>(`/api/products/${encodeURIComponent(id)}`, { signal });
}

export function productQueryOptions(id: string, queryClient?: QueryClient) {
  return queryOptions<Product, Error, Product, ReturnType<typeof productQueryKey>>({
    queryKey: productQueryKey(id),
    queryFn: ({ signal }) => getProduct(id, signal),
    networkMode: 'offlineFirst',
    // Show the product from the already-loaded list at once while its own request runs.
    placeholderData: (): Product | undefined => queryClient?.getQueryData<Product[]>(productsQueryKey)?.find((p) => p.id === id),
  });
}

export function useProduct(id: string) {
  const queryClient = useQueryClient();
  return useQuery(productQueryOptions(id, queryClient));
}
