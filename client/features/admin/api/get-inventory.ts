import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { inventorySchema, type InventoryItem } from '../../../../common/admin';
import { apiFetch } from '../../../lib/api-client';
import { handleAdminSessionLoss } from './admin-session';

export const inventoryQueryKey = ['admin', 'inventory'] as const;

/** GET /api/inventory: every variant (spec §3 "Inventory item"); needs the admin session. */
export async function getInventory(signal?: AbortSignal): Promise<InventoryItem[]> {
  const body = await apiFetch<unknown>('/api/inventory', { signal, cache: 'no-store' });
  const parsed = inventorySchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`The inventory has an unexpected shape (${issue.path.join('.') || 'body'}: ${issue.message})`);
  }
  return parsed.data;
}

export function inventoryQueryOptions() {
  return queryOptions({ queryKey: inventoryQueryKey, queryFn: ({ signal }) => getInventory(signal), gcTime: 5 * 60_000 });
}

/** The inventory; a refusal for a lost session returns the page to 'Admin Access' with 'Session Expired'. */
export function useInventory() {
  const queryClient = useQueryClient();
  const query = useQuery(inventoryQueryOptions());
  const { error } = query;
  useEffect(() => {
    if (error) handleAdminSessionLoss(queryClient, error);
  }, [error, queryClient]);
  return query;
}
