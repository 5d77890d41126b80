import { Router } from '@koa/router';
import { cataloguePageQuerySchema } from '../../../common/catalogue-query';
import { ErrorCode } from '../../../common/errors';
import { AppError } from '../../lib/errors';
import { describeIssues } from '../../lib/validation';
import { answerPrecompressed } from '../../lib/precompressed';
import type { CatalogueService } from './service';

export function catalogueRoutes(catalogue: CatalogueService): Router {
  const router = new Router();

  // Every read here is answered from memory, compressed once per catalogue version.
  router.get('/api/products', async (ctx) => {
    answerPrecompressed(ctx, await catalogue.list());
  });

  // A page of a view (search, filters, sort) of the listed products; `nextCursor` asks for the next.
  router.get('/api/catalogue/products', async (ctx) => {
    const parsed = cataloguePageQuerySchema.safeParse(singleValues(ctx.query));
    if (!parsed.success) {
      throw new AppError(ErrorCode.badRequest, `${describeIssues(parsed.error)}. Expected e.g. ?q=cap&type=Hats&sort=price-asc&limit=24`);
    }
    // Stored per view and catalogue version, compressed once (page-answers.ts).
    answerPrecompressed(ctx, await catalogue.page(parsed.data, ctx.req.url));
  });

  router.get('/api/catalogue/facets', async (ctx) => {
    answerPrecompressed(ctx, await catalogue.facets());
  });

  router.get('/api/products/:id', async (ctx) => {
    answerPrecompressed(ctx, await catalogue.productAnswer(ctx.params.id));
  });

  return router;
}

/** A query's values, each given once: a repeated key (`?q=a&q=b`) is refused by the schema as a list. */
function singleValues(query: Record<string, string | string[] | undefined>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(query).map(([key, value]) => [key, Array.isArray(value) && value.length === 1 ? value[0] : value]),
  );
}
