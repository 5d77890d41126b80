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
 * One order, read fresh each time a page shows it (its status moves on: confirmed once shipping
 * details are in, shipped once fulfilled). Otherwise the shop's query defaults (lib/query-client): not
 * read again when the shopper comes back to the tab, and a failed read is not repeated by
 * itself: the page shows the failure with a Retry button.
 */
export function orderQueryOptions(id: string) {
  return queryOptions({
    queryKey: orderQueryKey(id),
    queryFn: ({ signal }) => getOrder(id, signal),
    staleTime: 0,
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
