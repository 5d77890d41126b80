import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Checkout } from '../../../../common/api';
import { apiFetch } from '../../../lib/api-client';
import { checkoutPollInterval } from '../lib/pay-elsewhere';

export const checkoutQueryKey = (id: string) => ['checkout', id] as const;

/** GET /api/checkout/:id (only for the session that created it; else 404). */
export function getCheckout(id: string, signal?: AbortSignal): Promise<Checkout> {
  return apiFetch<Checkout>(`/api/checkout/${encodeURIComponent(id)}`, { signal });
}

/**
 * A checkout's live status: polled every 3 s while a payment may still arrive (the server's chain
 * watcher marks it paid), and re-read when the shopper comes back from the wallet app.
 */
export function checkoutQueryOptions(checkout: Checkout) {
  return queryOptions({
    queryKey: checkoutQueryKey(checkout.id),
    queryFn: ({ signal }) => getCheckout(checkout.id, signal),
    initialData: checkout,
    staleTime: 0,
    refetchInterval: (query) => checkoutPollInterval(query.state.data),
    // Not one of the shop's listed reads: the shopper comes back from the wallet app expecting to see the payment.
    refetchOnWindowFocus: true,
    networkMode: 'always',
  });
}

/** The live checkout, starting from the answer that created it. */
export function useCheckoutStatus(checkout: Checkout) {
  return useQuery(checkoutQueryOptions(checkout));
}
