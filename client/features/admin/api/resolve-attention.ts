import { useMutation, useQueryClient } from '@tanstack/react-query';
import { attentionItemSchema, type AttentionItem } from '../../../../common/payments-desk';
import { apiFetch } from '../../../lib/api-client';
import { refreshAfterDeskWrite } from './admin-cache';
import { handleAdminSessionLoss } from './admin-session';

/** POST /api/admin/payments/:transferId/resolve {note}: answered with the item as it is now. */
export async function resolveAttention(transferId: string, note: string): Promise<AttentionItem> {
  const body = await apiFetch<unknown>(`/api/admin/payments/${encodeURIComponent(transferId)}/resolve`, {
    method: 'POST',
    json: { note: note.trim() },
  });
  return attentionItemSchema.parse(body);
}

/** Resolve with a note; the dialog shows the result or the server's message. */
export function useResolveAttention() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['admin', 'payments', 'resolve'],
    mutationFn: ({ transferId, note }: { transferId: string; note: string }) => resolveAttention(transferId, note),
    onError: (error) => void handleAdminSessionLoss(queryClient, error),
    onSettled: () => refreshAfterDeskWrite(queryClient),
  });
}
