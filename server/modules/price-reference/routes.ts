import { Router } from '@koa/router';
import type { PriceReferenceAnswer } from '../../../common/api';
import type { PriceReferenceService } from './service';

/**
 * GET /api/price-reference: the dollar reference beside POGS prices, from this instance's memory
 * (the job reads the chain; a request never does). Public and the same for everyone, so caches may
 * keep it a little while. Without a configured reference it answers null.
 */
export function priceReferenceRoutes(reference: PriceReferenceService | undefined): Router {
  const router = new Router();
  router.get('/api/price-reference', (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=15');
    const answer: PriceReferenceAnswer = { reference: reference?.current() ?? null };
    ctx.body = answer;
  });
  return router;
}
