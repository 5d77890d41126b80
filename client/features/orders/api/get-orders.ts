import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Order } from '../../../../common/api';
import { ErrorCode } from '../../../../common/errors';
import { apiFetch, type ApiError } from '../../../lib/api-client';
import { authSessionQueryKey, SIGNED_OUT } from '../../auth';
import { isOrderList } from '../lib/is-order-list';

/** Spec §7/§8: the one message a failed order-history read shows. */
export const ORDERS_FETCH_ERROR = 'Failed to fetch orders';

/** Every wallet's order history (never persisted: app/persistence.ts keeps only catalogue and config). */
export const orderHistoryQueryKey = ['orders', 'by-wallet'] as const;

/**
 * GET /api/orders?wallet=: every order of the wallet, newest first, for a session signed in as
 * that wallet (401 'sign-in-required' otherwise, 403 'wallet-mismatch' for another wallet).
 */
export async function getOrderHistory(wallet: string, signal?: AbortSignal): Promise<Order[]> {
  const orders = await apiFetch<unknown>(`/api/orders?wallet=${encodeURIComponent(wallet)}`, { signal });
  if (!isOrderList(orders)) throw new Error(ORDERS_FETCH_ERROR, { cause: 'not a list of orders' });
  return orders;
}

/** The server no longer counts this session as signed in as the wallet (expired, or signed out elsewhere). */
export function isSignInRequired(error: unknown): boolean {
  const code = (error as Partial<ApiError> | null)?.code;
  return code === ErrorCode.signInRequired || code === ErrorCode.walletMismatch;
}

export function orderHistoryQueryOptions(wallet: string) {
  return queryOptions({
    queryKey: [...orderHistoryQueryKey, wallet.toLowerCase()],
    queryFn: ({ signal }) => getOrderHistory(wallet, signal),
    // Shopify's webhooks move orders on (confirmed, shipped), typically while the shopper is on
    // Shopify's tab: coming back shows it at once, without a reload, however fresh the data was.
    refetchOnWindowFocus: 'always',
    // Kept in memory only while it may be looked at again soon.
    gcTime: 5 * 60_000,
  });
}

/** Forgets every cached order history at once (the wallet changed or disconnected). */
export function clearOrderHistory(queryClient: QueryClient): void {
  queryClient.removeQueries({ queryKey: orderHistoryQueryKey });
}

/**
 * The signed-in wallet's orders. A 401/403 returns the page to the sign-in step; the refused read
 * is forgotten so that, once signed in again, the history is read afresh.
 */
export function useOrderHistory(wallet: string) {
  const queryClient = useQueryClient();
  const query = useQuery(orderHistoryQueryOptions(wallet));
  const signInLost = isSignInRequired(query.error);
  useEffect(() => {
    if (!signInLost) return;
    clearOrderHistory(queryClient);
    queryClient.setQueryData(authSessionQueryKey, SIGNED_OUT);
  }, [signInLost, queryClient]);
  return query;
}
