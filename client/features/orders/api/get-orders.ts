import { infiniteQueryOptions, useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Order } from '../../../../common/api';
import { ErrorCode } from '../../../../common/errors';
import { apiRequest, errorFromResponse, type ApiError } from '../../../lib/api-client';
import { authSessionQueryKey, SIGNED_OUT } from '../../auth';
import { isOrderList } from '../lib/is-order-list';
import { nextOrdersAfter } from '../lib/orders-pages';
import { clearOrderHistory, orderHistoryQueryKey } from './order-history-key';

/** The one message a failed order-history read shows. */
export const ORDERS_FETCH_ERROR = 'Failed to fetch orders';

/** One page of a wallet's orders, and the `after` of the next page (null on the last). */
export interface OrdersPage {
  orders: Order[];
  next: string | null;
}

/**
 * GET /api/orders?wallet=&after=: a page of the wallet's orders (its sections in order, newest
 * first in each), for a session signed in as that wallet (401 'sign-in-required' otherwise, 403
 * 'wallet-mismatch' for another wallet). The answer is the list; its Link header names the next page.
 */
export async function getOrderHistory(wallet: string, after: string | null, signal?: AbortSignal): Promise<OrdersPage> {
  const query = new URLSearchParams({ wallet });
  if (after) query.set('after', after);
  const response = await apiRequest(`/api/orders?${query.toString()}`, { signal });
  if (!response.ok) throw await errorFromResponse(response);
  const orders: unknown = await response.json();
  if (!isOrderList(orders)) throw new Error(ORDERS_FETCH_ERROR, { cause: 'not a list of orders' });
  return { orders, next: nextOrdersAfter(response.headers.get('Link')) };
}

/** The server no longer counts this session as signed in as the wallet (expired, or signed out elsewhere). */
export function isSignInRequired(error: unknown): boolean {
  const code = (error as Partial<ApiError> | null)?.code;
  return code === ErrorCode.signInRequired || code === ErrorCode.walletMismatch;
}

export function orderHistoryQueryOptions(wallet: string) {
  return infiniteQueryOptions({
    queryKey: [...orderHistoryQueryKey, wallet.toLowerCase()],
    queryFn: ({ pageParam, signal }) => getOrderHistory(wallet, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
    // Kept in memory only while it may be looked at again soon.
    gcTime: 5 * 60_000,
  });
}

/**
 * The signed-in wallet's orders, a page at a time ('Load more' asks for the next). A 401/403
 * returns the page to the sign-in step; the refused read is forgotten so that, once signed in
 * again, the history is read afresh.
 */
export function useOrderHistory(wallet: string) {
  const queryClient = useQueryClient();
  const query = useInfiniteQuery(orderHistoryQueryOptions(wallet));
  const signInLost = isSignInRequired(query.error);
  useEffect(() => {
    if (!signInLost) return;
    clearOrderHistory(queryClient);
    queryClient.setQueryData(authSessionQueryKey, SIGNED_OUT);
  }, [signInLost, queryClient]);
  return query;
}
