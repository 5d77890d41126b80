import { Router } from '@koa/router';
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

  router.get('/api/products/:id', async (ctx) => {
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = await catalogue.get(ctx.params.id);
  });

  return router;
}
