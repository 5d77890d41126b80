import { QueryClient } from '@tanstack/react-query';

/** How long the persisted catalogue may be restored for (and so the minimum gcTime). */
export const PERSIST_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/** Query defaults from spec §7: fresh for 30 s, no polling, no refetch on focus, no retries. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchInterval: false,
        refetchOnWindowFocus: false,
        retry: false,
        // A restored query is dropped once unused for gcTime, so gcTime must cover maxAge.
        gcTime: PERSIST_MAX_AGE_MS,
      },
      mutations: { retry: false },
    },
  });
}
