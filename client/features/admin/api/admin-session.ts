import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { adminSessionSchema, type AdminSession } from '../../../../common/admin';
import { ErrorCode } from '../../../../common/errors';
import { apiFetch, type ApiError } from '../../../lib/api-client';

export const adminSessionQueryKey = ['admin', 'session'] as const;

/** The session as the page knows it: `expired` when it ended under the admin's eyes ('Session Expired'). */
export interface AdminSessionState extends AdminSession {
  expired?: boolean;
}

/** GET /api/admin/session: whether this browser holds a live admin session, and until when. */
export async function getAdminSession(signal?: AbortSignal): Promise<AdminSession> {
  return adminSessionSchema.parse(await apiFetch<unknown>('/api/admin/session', { signal, cache: 'no-store' }));
}

export function adminSessionQueryOptions() {
  return queryOptions<AdminSessionState>({
    queryKey: adminSessionQueryKey,
    queryFn: ({ signal }) => getAdminSession(signal),
    // Read afresh each time the page opens: the session may have ended meanwhile.
    staleTime: 0,
    gcTime: 5 * 60_000,
  });
}

export function useAdminSession() {
  return useQuery(adminSessionQueryOptions());
}

/** An admin call refused because the session is gone (expired, logged out elsewhere). */
export function isAdminSessionLost(error: unknown): boolean {
  return (error as Partial<ApiError> | null)?.code === ErrorCode.adminSessionRequired;
}

/**
 * Back to 'Admin Access': forgets everything read with the session (inventory, audit trail) and
 * marks the session ended, `expired` when it was not the admin's own doing.
 */
export function endAdminSession(queryClient: QueryClient, expired: boolean): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] === 'admin' && query.queryKey[1] !== 'session' });
  queryClient.setQueryData<AdminSessionState>(adminSessionQueryKey, { authenticated: false, expiresAt: null, expired });
}

/** For every admin call's failure: a lost session ends the page's session (true when it did). */
export function handleAdminSessionLoss(queryClient: QueryClient, error: unknown): boolean {
  if (!isAdminSessionLost(error)) return false;
  endAdminSession(queryClient, true);
  return true;
}

/** For a query's failure: a lost session returns the page to 'Admin Access' ('Session Expired'). */
export function useSessionLossOf(error: unknown): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (error) handleAdminSessionLoss(queryClient, error);
  }, [error, queryClient]);
}
