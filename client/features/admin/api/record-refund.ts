import { attentionItemSchema, type AttentionItem, type RecordRefundRequest } from '../../../../common/payments-desk';
import { ApiError, apiFetch, apiRequest, errorFromResponse } from '../../../lib/api-client';
import { sleep } from '../../../lib/sleep';

/** 202 'awaiting-confirmations' means "ask again in a few seconds"… */
export const REFUND_RETRY_DELAY_MS = 3000;
/** …for up to three minutes; then the desk offers "Check again" (the hash is kept). */
export const REFUND_RETRY_WINDOW_MS = 180_000;

export const STILL_CONFIRMING_MESSAGE = 'The refund is not deep enough in the chain yet. Check again in a minute.';

export interface RecordRefundOptions {
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** Called each time the server says it waits for confirmations. */
  onWaiting?: () => void;
}

export function refundPath(transferId: string): string {
  return `/api/admin/payments/${encodeURIComponent(transferId)}/refund`;
}

/**
 * POST /api/admin/payments/:transferId/refund for a refund the store wallet has sent: the server
 * verifies it on chain and records it. Asked again while it answers 202 (not enough confirmations)
 * or cannot be reached, within REFUND_RETRY_WINDOW_MS; repeating it is safe. Any refusal is thrown
 * as the server's ApiError (its message says why).
 */
export async function recordRefund(
  transferId: string,
  request: RecordRefundRequest,
  options: RecordRefundOptions = {},
): Promise<AttentionItem> {
  const { fetch: send, sleep: pause = sleep, now = Date.now, onWaiting } = options;
  const deadline = now() + REFUND_RETRY_WINDOW_MS;
  for (;;) {
    let response: Response;
    try {
      response = await apiRequest(refundPath(transferId), { method: 'POST', json: request, fetch: send, cache: 'no-store' });
    } catch (error) {
      // Offline for a moment: the refund is on chain, so ask again until the window closes.
      if (!(error instanceof ApiError) || now() + REFUND_RETRY_DELAY_MS > deadline) throw error;
      await pause(REFUND_RETRY_DELAY_MS);
      continue;
    }
    if (response.status === 202) {
      onWaiting?.();
      if (now() + REFUND_RETRY_DELAY_MS > deadline) throw new Error(STILL_CONFIRMING_MESSAGE);
      await pause(REFUND_RETRY_DELAY_MS);
      continue;
    }
    if (!response.ok) throw await errorFromResponse(response);
    return attentionItemSchema.parse(await response.json());
  }
}

/** POST /api/admin/payments/:transferId/prepare-refund, just before the store wallet sends `amount`. */
export async function prepareRefund(transferId: string, amount: string): Promise<AttentionItem> {
  const path = `/api/admin/payments/${encodeURIComponent(transferId)}/prepare-refund`;
  return attentionItemSchema.parse(await apiFetch<unknown>(path, { method: 'POST', json: { amount }, cache: 'no-store' }));
}
