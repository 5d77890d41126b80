import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InventoryUpdateRequest } from '../../../../common/admin';
import { toast } from '../../../components/ui/use-toast';
import { apiFetch } from '../../../lib/api-client';
import { summariseBulk, type BulkSummary } from '../lib/bulk-result';
import { adminErrorText, answerMessage } from './admin-errors';
import { refreshAfterAdminWrite } from './admin-cache';
import { handleAdminSessionLoss, isAdminSessionLost } from './admin-session';

export const UPDATE_FAILED = 'Failed to update product';

/** PATCH /api/inventory/{id}/update with only the fields to change. */
export async function updateInventoryItem(id: string, changes: InventoryUpdateRequest): Promise<string | null> {
  return answerMessage(await apiFetch<unknown>(`/api/inventory/${encodeURIComponent(id)}/update`, { method: 'PATCH', json: changes }));
}

/** One variant's edit (the individual card): 'Success: Product updated successfully', or 'Error' with the server's message. */
export function useUpdateInventoryItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['admin', 'inventory', 'update'],
    mutationFn: ({ id, changes }: { id: string; changes: InventoryUpdateRequest }) => updateInventoryItem(id, changes),
    onSuccess: () => toast({ title: 'Success', description: 'Product updated successfully' }),
    onError: (error) => {
      if (handleAdminSessionLoss(queryClient, error)) return;
      toast({ title: 'Error', description: adminErrorText(error, UPDATE_FAILED), variant: 'destructive' });
    },
    onSettled: () => refreshAfterAdminWrite(queryClient),
  });
}

/**
 * A group's bulk action: one call per variant, all in parallel, each with only the
 * price or only the active flag; then one notice for them all.
 */
export function useBulkUpdate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['admin', 'inventory', 'bulk'],
    mutationFn: async ({ ids, changes }: { ids: readonly string[]; changes: InventoryUpdateRequest }): Promise<BulkSummary> => {
      const results = await Promise.allSettled(ids.map((id) => updateInventoryItem(id, changes)));
      const lost = results.find((r): r is PromiseRejectedResult => r.status === 'rejected' && isAdminSessionLost(r.reason));
      if (lost) throw lost.reason;
      return summariseBulk(results);
    },
    onSuccess: ({ title, description, variant }) => toast({ title, description, variant }),
    onError: (error) => {
      if (handleAdminSessionLoss(queryClient, error)) return;
      toast({ title: 'Error', description: adminErrorText(error, UPDATE_FAILED), variant: 'destructive' });
    },
    onSettled: () => refreshAfterAdminWrite(queryClient),
  });
}
