import type { CreateOrderRequest, Order } from '../../../../common/api';
import { apiRequest } from '../../../lib/api-client';
import { sleep } from '../../../lib/sleep';
import { readCreateOrderAnswer } from '../lib/order-response';
import { CheckoutFailure, ORDER_CREATION_FAILED_TITLE, ORDER_CREATION_FALLBACK } from '../lib/payment-failure';

/** 202 'awaiting-confirmations' means "ask again in ~2 s"… */
export const ORDER_RETRY_DELAY_MS = 2000;
/** …for up to ~2 minutes; by then the server's chain watcher finishes the order on its own. */
export const ORDER_RETRY_WINDOW_MS = 120_000;

const TOO_MANY_REQUESTS = 429;

/** Retry-After in seconds (the only form the shop sends), as ms; 0 when absent or unreadable. */
function retryAfterMs(header: string | null): number {
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 60) * 1000 : 0;
}

export interface CreateOrderOptions {
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/**
 * POST /api/orders/create for a confirmed transfer. Asked again while the server answers 202
 * (or 429, after its Retry-After) or cannot be reached (repeating is safe: the same transfer
 * always yields the same order). The answer must be an object with a shippingUrl; failures are
 * 'Order Creation Failed'.
 */
export async function createOrder(request: CreateOrderRequest, options: CreateOrderOptions = {}): Promise<Order> {
  const { fetch: send, sleep: pause = sleep, now = Date.now } = options;
  const deadline = now() + ORDER_RETRY_WINDOW_MS;
  for (;;) {
    let response: Response | null = null;
    try {
      response = await apiRequest('/api/orders/create', { method: 'POST', json: request, fetch: send });
    } catch {
      // Offline for a moment: the payment is on chain, so keep asking until the window closes.
    }
    let delay = ORDER_RETRY_DELAY_MS;
    if (response?.status === TOO_MANY_REQUESTS) {
      // Asked too often (the server's rate limit): the payment is on chain, so wait as told and ask again.
      delay = Math.max(delay, retryAfterMs(response.headers.get('Retry-After')));
    } else if (response) {
      const answer = readCreateOrderAnswer(response.status, await response.text().catch(() => ''));
      if (answer.kind === 'order') return answer.order;
    }
    if (now() + delay > deadline) throw new CheckoutFailure(ORDER_CREATION_FAILED_TITLE, ORDER_CREATION_FALLBACK);
    await pause(delay);
  }
}
