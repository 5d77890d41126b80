import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { syncStartSchema, syncStatusSchema, type SyncJob } from '../../../../common/api';
import { toast } from '../../../components/ui/use-toast';
import { apiFetch } from '../../../lib/api-client';
import { adminErrorText } from './admin-errors';
import { refreshAfterAdminWrite } from './admin-cache';
import { handleAdminSessionLoss } from './admin-session';

export const SYNC_SUCCESS = 'Inventory synced with Shopify';
export const SYNC_FAILED = 'Failed to sync inventory';

const syncStatusKey = ['admin', 'sync'] as const;
/** How often a running sync's progress is read. */
const POLL_MS = 1000;

/** POST /api/inventory/sync (no body): starts the sync in the background, or answers the one running. */
async function startSync(): Promise<SyncJob> {
  return syncStartSchema.parse(await apiFetch<unknown>('/api/inventory/sync', { method: 'POST' })).job;
}

/** GET /api/inventory/sync: the latest sync and its progress (null before the first). */
async function getSyncStatus(signal?: AbortSignal): Promise<SyncJob | null> {
  return syncStatusSchema.parse(await apiFetch<unknown>('/api/inventory/sync', { signal, cache: 'no-store' })).job;
}

/**
 * 'Sync with Shopify': starts the sync, follows its progress (read every second while it runs) and,
 * when the sync this page started ends, refreshes the inventory and says 'Inventory synced with
 * Shopify', or the server's reason / 'Failed to sync inventory'. Another running sync shows on the
 * button and, when it ends, refreshes the inventory without a word.
 */
export function useSyncInventory() {
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: syncStatusKey,
    queryFn: ({ signal }) => getSyncStatus(signal),
    refetchInterval: (query) => (query.state.data?.status === 'running' ? POLL_MS : false),
    retry: false,
  });
  // The sync the admin started from this page: its end is announced once. Any other running sync
  // (the periodic one, a webhook's, another admin's) shows as progress on the button but ends
  // quietly: its toast would only replace what the admin is reading (TOAST_LIMIT is 1).
  const watched = useRef<string | null>(null);
  const start = useMutation({
    mutationKey: ['admin', 'sync', 'start'],
    mutationFn: startSync,
    onSuccess: (job) => {
      // This press's sync (or the one already running that it joined): its end is announced.
      watched.current = job.id;
      queryClient.setQueryData(syncStatusKey, job);
    },
    onError: (error) => {
      if (handleAdminSessionLoss(queryClient, error)) return;
      toast({ title: 'Error', description: adminErrorText(error, SYNC_FAILED), variant: 'destructive' });
    },
  });

  // A running sync seen here: once it ends, the inventory is read again (whoever started it).
  const seenRunning = useRef<string | null>(null);
  const job = status.data ?? null;
  useEffect(() => {
    if (!job) return;
    if (job.status === 'running') {
      seenRunning.current = job.id;
      return;
    }
    const ended = seenRunning.current === job.id;
    if (ended) seenRunning.current = null;
    if (watched.current !== job.id) {
      if (ended) void refreshAfterAdminWrite(queryClient);
      return;
    }
    watched.current = null;
    if (job.status === 'succeeded')
      toast({
        title: SYNC_SUCCESS,
        description: job.result ? `${job.result.products} products, ${job.result.variants} variants` : undefined,
      });
    else toast({ title: 'Error', description: job.error || SYNC_FAILED, variant: 'destructive' });
    void refreshAfterAdminWrite(queryClient);
  }, [job, queryClient]);
  useEffect(() => {
    if (status.error) handleAdminSessionLoss(queryClient, status.error);
  }, [status.error, queryClient]);

  const running = job?.status === 'running';
  return { start: () => start.mutate(), busy: start.isPending || running, job: running ? job : null };
}
