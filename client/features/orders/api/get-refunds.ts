import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RefundLine } from '../../../../common/api';
import { apiFetch } from '../../../lib/api-client';
import { isRefundList } from '../lib/is-order-list';
import { ORDERS_FETCH_ERROR } from './get-orders';
import { orderHistoryQueryKey } from './order-history-key';

/**
 * GET /api/refunds?wallet=: what the shop sent back to the signed-in wallet for payments that made
 * no order, newest first. Kept under the order history's key, so whatever forgets the
 * history (another wallet, a disconnect) forgets these too; never persisted.
 */
export async function getWalletRefunds(wallet: string, signal?: AbortSignal): Promise<RefundLine[]> {
  const refunds = await apiFetch<unknown>(`/api/refunds?wallet=${encodeURIComponent(wallet)}`, { signal });
  if (!isRefundList(refunds)) throw new Error(ORDERS_FETCH_ERROR, { cause: 'not a list of refunds' });
  return refunds;
}

export function useWalletRefunds(wallet: string) {
  return useQuery(
    queryOptions({
      queryKey: [...orderHistoryQueryKey, wallet.toLowerCase(), 'refunds'],
      queryFn: ({ signal }) => getWalletRefunds(wallet, signal),
      gcTime: 5 * 60_000,
    }),
  );
}
