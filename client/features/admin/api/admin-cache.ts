import type { QueryClient } from '@tanstack/react-query';
import { auditQueryKey } from './get-audit';
import { inventoryQueryKey } from './get-admin-products';

/**
 * After any admin write: the inventory and the audit trail are read again, and every shop query
 * (`['catalogue', …]`) is invalidated so the shop shows the change on its next screen.
 */
export async function refreshAfterAdminWrite(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: inventoryQueryKey }),
    queryClient.invalidateQueries({ queryKey: auditQueryKey }),
    queryClient.invalidateQueries({ queryKey: ['catalogue'] }),
  ]);
}

/**
 * After any payments-desk write (resolve, attach, refund, retry): the queue and its count, the
 * orders view and the audit trail are read again.
 */
export async function refreshAfterDeskWrite(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: ['admin', 'payments'] }),
    queryClient.invalidateQueries({ queryKey: ['admin', 'orders'] }),
    queryClient.invalidateQueries({ queryKey: auditQueryKey }),
  ]);
}
