import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PriceReferenceAnswer } from '../../common/api';
import { parseUnits } from '../../common/money';
import { formatUsdReference } from '../../common/usd-reference';
import { apiFetch } from './api-client';

/**
 * GET /api/price-reference: the dollars one POGS is worth as the shop last read them on chain, or
 * null (none configured, or hidden because the shop does not trust the figure now). Read once the
 * first screen is up (components/ui/usd-reference.tsx), kept a minute, and not retried: a missing
 * reference shows nothing.
 */
export function priceReferenceQueryOptions() {
  return queryOptions({
    queryKey: ['price-reference'] as const,
    queryFn: ({ signal }) => apiFetch<PriceReferenceAnswer>('/api/price-reference', { signal }),
    staleTime: 60_000,
    retry: false,
  });
}

/** "≈ $12.40" for a POGS amount (a decimal string such as "249.90"), or null while there is no reference to show. */
export function useUsdReference(): (pogs: string | null | undefined) => string | null {
  const { data } = useQuery(priceReferenceQueryOptions());
  const usdPerPogs = data?.reference?.usdPerPogs;
  return (pogs) => {
    if (!usdPerPogs || !pogs) return null;
    try {
      return formatUsdReference(parseUnits(pogs), usdPerPogs);
    } catch {
      return null;
    }
  };
}
