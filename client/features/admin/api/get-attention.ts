import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { attentionItemSchema, attentionPageSchema, type AttentionItem, type AttentionPage } from '../../../../common/payments-desk';
import { apiFetch } from '../../../lib/api-client';
import { attentionPath, DEFAULT_ATTENTION_VIEW, type AttentionView } from '../lib/attention-view';
import { useSessionLossOf } from './admin-session';

/** Every read of the desk's queue; `['admin', …]`, so logging out forgets it and nothing persists it. */
export const attentionQueryKey = ['admin', 'payments', 'attention'] as const;

/** While the admin area is open the queue (and the header's count) is read every 30 s and on focus. */
export const ATTENTION_REFRESH_MS = 30_000;

/** GET /api/admin/payments/attention?kind=&resolved=&before=: a page of the queue, newest first, with the tab's counts. */
export async function getAttention(view: AttentionView, before: string | null, signal?: AbortSignal): Promise<AttentionPage> {
  return attentionPageSchema.parse(await apiFetch<unknown>(attentionPath(view, before), { signal, cache: 'no-store' }));
}

export function attentionQueryOptions(view: AttentionView) {
  return infiniteQueryOptions({
    queryKey: [...attentionQueryKey, view.kind ?? 'all', view.history ? 'resolved' : 'open'],
    queryFn: ({ pageParam, signal }) => getAttention(view, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextBefore,
    staleTime: 0,
    gcTime: 5 * 60_000,
    refetchInterval: ATTENTION_REFRESH_MS,
    // Not one of the shop's listed reads: the desk's queue is live, so an admin coming back to the
    // tablet sees what arrived meanwhile at once, not at the next poll.
    refetchOnWindowFocus: true,
  });
}

/** The queue a page at a time ('Load more' asks for the next with the last page's nextBefore). */
export function useAttention(view: AttentionView) {
  const query = useInfiniteQuery(attentionQueryOptions(view));
  useSessionLossOf(query.error);
  return query;
}

/** How many transfers wait for a person (all kinds), for the admin header's badge; undefined until known. */
export function useUnresolvedCount(enabled: boolean): number | undefined {
  const query = useInfiniteQuery({ ...attentionQueryOptions(DEFAULT_ATTENTION_VIEW), enabled });
  useSessionLossOf(query.error);
  return query.data?.pages[0]?.unresolved ?? undefined;
}

/**
 * GET /api/admin/payments/:transferId: one transfer as a desk item, whatever it is (a plain
 * payment's kind is `paid`), so the orders view can refund any transfer of an order.
 */
export async function getTransferItem(transferId: string): Promise<AttentionItem> {
  return attentionItemSchema.parse(await apiFetch<unknown>(`/api/admin/payments/${encodeURIComponent(transferId)}`, { cache: 'no-store' }));
}
