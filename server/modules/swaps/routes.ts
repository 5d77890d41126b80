import { Router } from '@koa/router';
import { ErrorCode } from '../../../common/errors';
import { swapQuoteRequestSchema, type SwapQuote, type SwapQuoteRequest } from '../../../common/swap-pay';
import type { Db } from '../../db';
import { AppError } from '../../lib/errors';
import { parseJsonBody } from '../../lib/validation';
import { checkoutNotFound, checkoutToSponsor, type CheckoutService } from '../payments';
import type { SwapQuotes } from './quote';

const EXAMPLE = '{"payWith": "ETH"}';

/**
 * POST /api/checkout/:id/swap-quote: for the browser session that made the checkout only (any
 * other gets the same 404 as for a checkout that does not exist), and only while it can still be
 * paid, the quote and the wallet's calls for a swap that pays its amount with ETH or USDC.
 */
export function swapRoutes(deps: { quotes: SwapQuotes; checkouts: CheckoutService; db: Db; now?: () => Date }): Router {
  const router = new Router();
  router.post('/api/checkout/:id/swap-quote', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const { payWith }: SwapQuoteRequest = parseJsonBody(ctx, swapQuoteRequestSchema, EXAMPLE);
    const own = await deps.checkouts.own(await ctx.state.session.id(), ctx.params.id);
    if (!own) throw checkoutNotFound();
    const checkout = await checkoutToSponsor(deps.db, own.id, deps.now?.() ?? new Date());
    if (!checkout?.payable)
      throw new AppError(ErrorCode.checkoutClosed, 'This checkout cannot be paid any more: start a new one from your cart.');
    const quote: SwapQuote = { checkoutId: own.id, ...(await deps.quotes.quote(payWith, checkout.amountWei)) };
    ctx.body = quote;
  });
  return router;
}
