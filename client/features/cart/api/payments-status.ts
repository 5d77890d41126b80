import { useQuery } from '@tanstack/react-query';
import type { PaymentsStatus } from '../../../../common/api';
import { apiFetch } from '../../../lib/api-client';

/** While paused it is asked again this often, so the drawer lets the shopper pay once the shop sees the chain. */
const PAUSED_RECHECK_MS = 15_000;

/**
 * Whether paying is paused (GET /api/payments/status): the shop cannot reach the chain to see a
 * payment right now. Asked when the cart drawer's footer shows, never from a cache.
 */
export function usePaymentsPaused(): boolean {
  const { data } = useQuery({
    queryKey: ['payments-status'],
    queryFn: ({ signal }) => apiFetch<PaymentsStatus>('/api/payments/status', { cache: 'no-store', signal }),
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.paused ? PAUSED_RECHECK_MS : false),
  });
  return data?.paused === true;
}
