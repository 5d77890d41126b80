import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Order } from '../../../../common/api';
import { ErrorCode } from '../../../../common/errors';
import { apiFetch, type ApiError } from '../../../lib/api-client';

export const orderQueryKey = (id: string) => ['orders', id] as const;

/** GET /api/orders/:id: only the buyer's session may read it; anyone else gets 404 'order-not-found'. */
export function getOrder(id: string, signal?: AbortSignal): Promise<Order> {
  return apiFetch<Order>(`/api/orders/${encodeURIComponent(id)}`, { signal });
}

export function isOrderNotFound(error: unknown): boolean {
  const e = error as Partial<ApiError> | null;
  return Boolean(e && (e.code === ErrorCode.orderNotFound || e.status === 404));
}

/**
 * One order, always read fresh and again when the shopper comes back to the tab (its status moves
 * on: confirmed once shipping details are in, shipped once fulfilled). A missing order is not
 * asked for again; a failed read is, twice.
 */
export function orderQueryOptions(id: string) {
  return queryOptions({
    queryKey: orderQueryKey(id),
    queryFn: ({ signal }) => getOrder(id, signal),
    staleTime: 0,
    refetchOnWindowFocus: true,
    retry: (failures, error) => !isOrderNotFound(error) && failures < 2,
  });
}

export function useOrder(id: string, options: { refetchInterval?: (order: Order | undefined) => number | false } = {}) {
  const { refetchInterval } = options;
  return useQuery({
    ...orderQueryOptions(id),
    enabled: id !== '',
    refetchInterval: refetchInterval ? (query) => refetchInterval(query.state.data) : false,
  });
}
