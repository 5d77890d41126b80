import { Router } from '@koa/router';
import { addToCartSchema } from '../../../common/api';
import { parseJsonBody } from '../../lib/validation';
import type { CartService } from './service';

const ADD_EXAMPLE = '{"variantId": "45900000000001", "quantity": 1}';

export function cartRoutes(carts: CartService): Router {
  const router = new Router({ prefix: '/api/cart' });
  // A cart is personal and changes under the shopper: never cached anywhere.
  router.use(async (ctx, next) => {
    await next();
    ctx.set('Cache-Control', 'no-store');
  });

  router.get('/', async (ctx) => {
    ctx.body = await carts.get(await ctx.state.session.id());
  });

  router.post('/add', async (ctx) => {
    const { variantId, quantity } = parseJsonBody(ctx, addToCartSchema, ADD_EXAMPLE);
    ctx.body = await carts.add(() => ctx.state.session.ensure(), variantId, quantity);
  });

  router.delete('/:itemId', async (ctx) => {
    ctx.body = await carts.remove(await ctx.state.session.id(), ctx.params.itemId);
  });

  return router;
}
