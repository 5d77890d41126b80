import { queryOptions, useQuery } from '@tanstack/react-query';
import { sponsoredGasSchema, type SponsoredGas } from '../../../../common/sponsored-gas';
import { apiFetch } from '../../../lib/api-client';
import { useSessionLossOf } from './admin-session';

/** `['admin', …]`, so logging out forgets it; not under `['admin', 'payments']`, so a desk write does not read the chain again. */
export const sponsoredGasQueryKey = ['admin', 'paymaster'] as const;

/** The deposit moves with every sponsored payment: read every minute (one chain call each) and when the tab comes back. */
export const SPONSORED_GAS_REFRESH_MS = 60_000;

/** GET /api/admin/paymaster: the paymaster's deposit left and the sponsorships per day, or `{ enabled: false }`. */
export async function getSponsoredGas(signal?: AbortSignal): Promise<SponsoredGas> {
  return sponsoredGasSchema.parse(await apiFetch<unknown>('/api/admin/paymaster', { signal, cache: 'no-store' }));
}

export function sponsoredGasQueryOptions() {
  return queryOptions({
    queryKey: sponsoredGasQueryKey,
    queryFn: ({ signal }) => getSponsoredGas(signal),
    staleTime: 0,
    gcTime: 5 * 60_000,
    refetchInterval: SPONSORED_GAS_REFRESH_MS,
    // Not one of the shop's listed reads: a live budget, read again when the admin comes back to it.
    refetchOnWindowFocus: true,
  });
}

/** The 'Sponsored gas' panel's data, read while the payments desk is open. */
export function useSponsoredGas() {
  const query = useQuery(sponsoredGasQueryOptions());
  useSessionLossOf(query.error);
  return query;
}
