import { Router } from '@koa/router';
import { cataloguePageQuerySchema } from '../../../common/catalogue-query';
import { ErrorCode } from '../../../common/errors';
import { AppError } from '../../lib/errors';
import { describeIssues } from '../../lib/validation';
import type { CatalogueService } from './service';

export function catalogueRoutes(catalogue: CatalogueService): Router {
  const router = new Router();

  router.get('/api/products', async (ctx) => {
    const snap = await catalogue.list();
    ctx.set('ETag', snap.etag);
    // Clients may keep a copy but must revalidate; the ETag makes that a 304.
    ctx.set('Cache-Control', 'no-cache');
    if (ctx.get('If-None-Match') === snap.etag) {
      ctx.status = 304;
      return;
    }
    ctx.type = 'application/json';
    ctx.vary('Accept-Encoding');
    const encoding = ctx.acceptsEncodings('br', 'gzip', 'identity');
    if (encoding === 'br' || encoding === 'gzip') {
      ctx.compress = false; // already compressed, once per catalogue version
      ctx.set('Content-Encoding', encoding);
      ctx.body = snap.encoded(encoding);
    } else {
      ctx.body = snap.body;
    }
  });

  // A page of a view (search, filters, sort) of the listed products; `nextCursor` asks for the next.
  router.get('/api/catalogue/products', async (ctx) => {
    const parsed = cataloguePageQuerySchema.safeParse(singleValues(ctx.query));
    if (!parsed.success) {
      throw new AppError(ErrorCode.badRequest, `${describeIssues(parsed.error)}. Expected e.g. ?q=cap&type=Hats&sort=price-asc&limit=24`);
    }
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = await catalogue.page(parsed.data);
  });

  router.get('/api/catalogue/facets', async (ctx) => {
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = await catalogue.facets();
  });

  router.get('/api/products/:id', async (ctx) => {
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = await catalogue.get(ctx.params.id);
  });

  return router;
}

/** A query's values, each given once: a repeated key (`?q=a&q=b`) is refused by the schema as a list. */
function singleValues(query: Record<string, string | string[] | undefined>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(query).map(([key, value]) => [key, Array.isArray(value) && value.length === 1 ? value[0] : value]),
  );
}
