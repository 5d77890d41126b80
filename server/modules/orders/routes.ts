import Router from '@koa/router';
import type { OrdersService } from './service';

export function orderRoutes(orders: OrdersService): Router {
  const router = new Router();

  router.get('/api/orders/:id', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await orders.getForSession(ctx.params.id, await ctx.state.session.id());
  });

  // Our stable shipping link: the buyer goes straight to Shopify's page once it exists. Until
  // then (or for anyone else) the shop's page answers: "preparing your shipping form" for the
  // buyer, "order not found" for others. The invoice URL is a bearer secret, never shown to others.
  router.get('/orders/:id/shipping', async (ctx, next) => {
    const row = await orders.forSession(ctx.params.id, await ctx.state.session.id());
    if (row?.shopify_invoice_url) {
      ctx.set('Cache-Control', 'no-store');
      ctx.redirect(row.shopify_invoice_url);
      return;
    }
    await next();
  });

  return router;
}
