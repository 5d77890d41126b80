import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  adminOrderDetailSchema,
  adminOrdersPageSchema,
  type AdminOrderDetail,
  type AdminOrdersPage,
} from '../../../../common/payments-desk';
import { apiFetch } from '../../../lib/api-client';
import { refreshAfterDeskWrite } from './admin-cache';
import { handleAdminSessionLoss, useSessionLossOf } from './admin-session';

const ordersKey = ['admin', 'orders'] as const;

export interface AdminOrdersFilter {
  /** An order status, or '' for all. */
  status: string;
  /** Order id, payer or tx hash prefix; '' for none. */
  q: string;
}

/** GET /api/admin/orders?status=&q=&before=: newest first, 50 a page. */
export function adminOrdersPath(filter: AdminOrdersFilter, before: string | null): string {
  const query = new URLSearchParams();
  if (filter.status) query.set('status', filter.status);
  if (filter.q.trim()) query.set('q', filter.q.trim());
  if (before) query.set('before', before);
  const text = query.toString();
  return `/api/admin/orders${text ? `?${text}` : ''}`;
}

export async function getAdminOrders(filter: AdminOrdersFilter, before: string | null, signal?: AbortSignal): Promise<AdminOrdersPage> {
  return adminOrdersPageSchema.parse(await apiFetch<unknown>(adminOrdersPath(filter, before), { signal, cache: 'no-store' }));
}

/** The orders, a page at a time ('Load more' asks for the next with the last page's nextBefore). */
export function useAdminOrders(filter: AdminOrdersFilter) {
  const query = useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: [...ordersKey, 'list', filter.status, filter.q.trim()],
      queryFn: ({ pageParam, signal }) => getAdminOrders(filter, pageParam, signal),
      initialPageParam: null as string | null,
      getNextPageParam: (last) => last.nextBefore,
      staleTime: 0,
      gcTime: 5 * 60_000,
    }),
  );
  useSessionLossOf(query.error);
  return query;
}

const orderPath = (id: string) => `/api/admin/orders/${encodeURIComponent(id)}`;

/** GET /api/admin/orders/:id: items, transfers, refunds and the timeline. */
export async function getAdminOrder(id: string, signal?: AbortSignal): Promise<AdminOrderDetail> {
  return adminOrderDetailSchema.parse(await apiFetch<unknown>(orderPath(id), { signal, cache: 'no-store' }));
}

export function useAdminOrder(id: string | null) {
  const query = useQuery({
    ...queryOptions({
      queryKey: [...ordersKey, 'detail', id ?? ''],
      queryFn: ({ signal }) => getAdminOrder(id!, signal),
      staleTime: 0,
      gcTime: 60_000,
    }),
    enabled: id !== null,
  });
  useSessionLossOf(query.error);
  return query;
}

/** POST /api/admin/orders/:id/retry-handoff: runs the Shopify hand-off now; answered with the order. */
export async function retryHandoff(id: string): Promise<AdminOrderDetail> {
  return adminOrderDetailSchema.parse(await apiFetch<unknown>(`${orderPath(id)}/retry-handoff`, { method: 'POST' }));
}

export function useRetryHandoff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['admin', 'orders', 'retry-handoff'],
    mutationFn: (id: string) => retryHandoff(id),
    onSuccess: (order) => queryClient.setQueryData([...ordersKey, 'detail', order.id], order),
    onError: (error) => void handleAdminSessionLoss(queryClient, error),
    onSettled: () => refreshAfterDeskWrite(queryClient),
  });
}
