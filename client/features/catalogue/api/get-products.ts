import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Product } from '../../../../common/api';
import { apiFetch } from '../../../lib/api-client';

export const productsQueryKey = ['catalogue', 'products'] as const;

export function getProducts(signal?: AbortSignal): Promise<Product[]> {
  return apiFetch<Product[]>('/api/products', { signal });
}

export function productsQueryOptions() {
  return queryOptions({
    queryKey: productsQueryKey,
    queryFn: ({ signal }) => getProducts(signal),
    // Run once even when the browser thinks it is offline: the service worker may answer.
    networkMode: 'offlineFirst',
  });
}

export function useProducts() {
  return useQuery(productsQueryOptions());
}
