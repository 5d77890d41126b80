import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { auditPageSchema, type AuditEntry } from '../../../../common/admin';
import { apiFetch } from '../../../lib/api-client';
import { handleAdminSessionLoss } from './admin-session';

export const auditQueryKey = ['admin', 'audit'] as const;

/** GET /api/admin/audit: every admin change and login, newest first. */
export async function getAudit(signal?: AbortSignal): Promise<AuditEntry[]> {
  const body = await apiFetch<unknown>('/api/admin/audit', { signal, cache: 'no-store' });
  return auditPageSchema.parse(body).entries;
}

export function auditQueryOptions() {
  return queryOptions({ queryKey: auditQueryKey, queryFn: ({ signal }) => getAudit(signal), staleTime: 0, gcTime: 60_000 });
}

/** The audit trail, read while it is shown. */
export function useAudit(enabled: boolean) {
  const queryClient = useQueryClient();
  const query = useQuery({ ...auditQueryOptions(), enabled });
  const { error } = query;
  useEffect(() => {
    if (error) handleAdminSessionLoss(queryClient, error);
  }, [error, queryClient]);
  return query;
}
