import type { Checkout } from '../../../../common/api';
import { apiFetch } from '../../../lib/api-client';

/** How long the hint may hold up the payment before it goes on without it. */
const REPORT_TIMEOUT_MS = 5000;

/**
 * POST /api/checkout/:id/transaction: tells the server the hash the wallet returned, so it can
 * finish the order alone if this tab dies. A hint: the caller ignores its failure.
 */
export function reportTransaction(checkoutId: string, transactionHash: string): Promise<Checkout> {
  return apiFetch<Checkout>(`/api/checkout/${encodeURIComponent(checkoutId)}/transaction`, {
    method: 'POST',
    json: { transactionHash },
    signal: AbortSignal.timeout(REPORT_TIMEOUT_MS),
  });
}
