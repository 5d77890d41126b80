import { QueryClient } from '@tanstack/react-query';
import { startOnlineStatus } from './online-status';

/** How long the persisted catalogue may be restored for (and so the minimum gcTime). */
export const PERSIST_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Query defaults: fresh for 30 s, no polling, no refetch on focus, no retries.
 * The client follows the shop's connection (lib/online-status): a query waiting for the network
 * resumes, and a failed one refetches, once the server answers again.
 */
export function createQueryClient(): QueryClient {
  startOnlineStatus();
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
      // A change needs the server now: offline it fails at once with its message (and the action
      // says a connection is needed) rather than waiting, spinning, to run when the network returns.
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}
