import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { attachCandidatesSchema, attachResultSchema, type AttachCandidates, type AttachResult } from '../../../../common/payments-desk';
import { apiFetch } from '../../../lib/api-client';
import { refreshAfterDeskWrite } from './admin-cache';
import { handleAdminSessionLoss, useSessionLossOf } from './admin-session';

const deskPath = (transferId: string, action: string) => `/api/admin/payments/${encodeURIComponent(transferId)}/${action}`;

/**
 * GET /api/admin/payments/:transferId/candidates?q=&cursor=: a page of the checkouts it may belong
 * to, best first (every candidate is on some page), searched by `q` when it is not empty.
 */
export async function getCandidates(transferId: string, q: string, cursor: string | null, signal?: AbortSignal): Promise<AttachCandidates> {
  const params = new URLSearchParams();
  if (q.trim()) params.set('q', q.trim());
  if (cursor) params.set('cursor', cursor);
  const query = params.size ? `?${params}` : '';
  const body = await apiFetch<unknown>(`${deskPath(transferId, 'candidates')}${query}`, { signal, cache: 'no-store' });
  return attachCandidatesSchema.parse(body);
}

/** The candidates for a search, read while the attach sheet is open; 'Load more' asks for the next page. */
export function useCandidates(transferId: string, q: string, enabled: boolean) {
  const query = useInfiniteQuery({
    ...infiniteQueryOptions({
      queryKey: ['admin', 'payments', 'candidates', transferId, q.trim()],
      queryFn: ({ pageParam, signal }) => getCandidates(transferId, q, pageParam, signal),
      initialPageParam: null as string | null,
      getNextPageParam: (last) => last.nextCursor,
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
