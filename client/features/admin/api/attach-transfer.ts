import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { attachCandidatesSchema, attachResultSchema, type AttachCandidate, type AttachResult } from '../../../../common/payments-desk';
import { apiFetch } from '../../../lib/api-client';
import { refreshAfterDeskWrite } from './admin-cache';
import { handleAdminSessionLoss, useSessionLossOf } from './admin-session';

const deskPath = (transferId: string, action: string) => `/api/admin/payments/${encodeURIComponent(transferId)}/${action}`;

/** GET /api/admin/payments/:transferId/candidates: the checkouts it may belong to, best first. */
export async function getCandidates(transferId: string, signal?: AbortSignal): Promise<AttachCandidate[]> {
  const body = await apiFetch<unknown>(deskPath(transferId, 'candidates'), { signal, cache: 'no-store' });
  return attachCandidatesSchema.parse(body).candidates;
}

/** The candidates, read while the attach sheet is open. */
export function useCandidates(transferId: string, enabled: boolean) {
  const query = useQuery({
    ...queryOptions({
      queryKey: ['admin', 'payments', 'candidates', transferId],
      queryFn: ({ signal }) => getCandidates(transferId, signal),
      staleTime: 0,
      gcTime: 60_000,
    }),
    enabled,
  });
  useSessionLossOf(query.error);
  return query;
}

/**
 * POST /api/admin/payments/:transferId/attach {checkoutId}: the same settlement as a payment;
 * answered with the item as it is now (null when it needs nobody) and the order it made, if any.
 */
export async function attachTransfer(transferId: string, checkoutId: string): Promise<AttachResult> {
  const body = await apiFetch<unknown>(deskPath(transferId, 'attach'), { method: 'POST', json: { checkoutId } });
  return attachResultSchema.parse(body);
}

export function useAttachTransfer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['admin', 'payments', 'attach'],
    mutationFn: ({ transferId, checkoutId }: { transferId: string; checkoutId: string }) => attachTransfer(transferId, checkoutId),
    onError: (error) => void handleAdminSessionLoss(queryClient, error),
    onSettled: () => refreshAfterDeskWrite(queryClient),
  });
}
