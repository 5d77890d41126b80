import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../../components/ui/use-toast';
import { apiFetch } from '../../../lib/api-client';
import { adminErrorText, answerMessage } from './admin-errors';
import { refreshAfterAdminWrite } from './admin-cache';
import { handleAdminSessionLoss } from './admin-session';

export const SYNC_SUCCESS = 'Inventory synced with Shopify';
export const SYNC_FAILED = 'Failed to sync inventory';

/** POST /api/inventory/sync (no body): reads Shopify now; the answer's `message`, when it has one, describes it. */
export async function syncInventory(): Promise<string | null> {
  return answerMessage(await apiFetch<unknown>('/api/inventory/sync', { method: 'POST' }));
}

/** 'Sync with Shopify': 'Inventory synced with Shopify', or the server's message / 'Failed to sync inventory'. */
export function useSyncInventory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['admin', 'sync'],
    mutationFn: syncInventory,
    onSuccess: (message) => {
      toast({ title: SYNC_SUCCESS, description: message && message !== SYNC_SUCCESS ? message : undefined });
    },
    onError: (error) => {
      if (handleAdminSessionLoss(queryClient, error)) return;
      toast({ title: 'Error', description: adminErrorText(error, SYNC_FAILED), variant: 'destructive' });
    },
    onSettled: () => refreshAfterAdminWrite(queryClient),
  });
}
