import type { QueryClient } from '@tanstack/react-query';

/**
 * Every wallet's order history (never persisted: app/persistence.ts keeps only catalogue and config).
 * Its own module: the layout forgets the history when the wallet changes, without loading the
 * orders' reads on every page.
 */
export const orderHistoryQueryKey = ['orders', 'by-wallet'] as const;

/** Forgets every cached order history at once (the wallet changed or disconnected). */
export function clearOrderHistory(queryClient: QueryClient): void {
  queryClient.removeQueries({ queryKey: orderHistoryQueryKey });
}
