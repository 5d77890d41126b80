import { swapQuoteSchema, type PayWith, type SwapQuote, type SwapQuoteRequest } from '../../../../common/swap-pay';
import { apiFetch } from '../../../lib/api-client';

/** The shop reads the pools on chain for the quote: a few seconds at worst, then the shopper may try again. */
const QUOTE_TIMEOUT_MS = 15_000;

export const UNREADABLE_QUOTE_MESSAGE = 'The shop’s quote could not be read. Please try again.';

/**
 * POST /api/checkout/:id/swap-quote: how much of `payWith` buys exactly the checkout's amount now,
 * and the calls that swap it to the store wallet. `409 swap-unavailable` (the shop does not take
 * that coin), `503 swap-quote-failed` (the pools cannot quote it now).
 */
export async function getSwapQuote(checkoutId: string, payWith: PayWith): Promise<SwapQuote> {
  const answer = await apiFetch<unknown>(`/api/checkout/${encodeURIComponent(checkoutId)}/swap-quote`, {
    method: 'POST',
    json: { payWith } satisfies SwapQuoteRequest,
    signal: AbortSignal.timeout(QUOTE_TIMEOUT_MS),
  });
  const parsed = swapQuoteSchema.safeParse(answer);
  if (!parsed.success) throw new Error(UNREADABLE_QUOTE_MESSAGE);
  return parsed.data;
}
