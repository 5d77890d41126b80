import { Router } from '@koa/router';
import { addToCartSchema } from '../../../common/api';
import { parseJsonBody } from '../../lib/validation';
import { cartAnswerHeaders, cartReply } from './answers';
import type { CartService } from './service';

const ADD_EXAMPLE = '{"variantId": "45900000000001", "quantity": 1}';

export function cartRoutes(carts: CartService): Router {
  const router = new Router({ prefix: '/api/cart' });
  // A cart is personal and changes under the shopper: changes are never cached anywhere.
  router.use(async (ctx, next) => {
    await next();
    if (!ctx.response.get('Cache-Control')) ctx.set('Cache-Control', 'no-store');
  });

  // Kept by the shopper's browser only, and revalidated on every read: an unchanged cart is a 304.
  // The ETag is the hash of this session's id and of the answer (priced from the current catalogue):
  // another session's ETag never matches, and a changed cart has another answer (answers.ts). The
  // lane ahead of the app (lane.ts) gives the same answer when it is in memory.
  router.get('/', async (ctx) => {
    const answer = await carts.answer(await ctx.state.session.id());
    for (const [name, value] of cartAnswerHeaders(answer)) ctx.set(name, value);
    ctx.vary('Cookie');
    const reply = cartReply(answer, ctx.get('Accept-Encoding'), ctx.get('If-None-Match'));
    if (reply.status === 304) {
      ctx.status = 304;
      return;
    }
    ctx.type = 'application/json';
    if (reply.coding) {
      ctx.compress = false; // already compressed
      ctx.set('Content-Encoding', reply.coding);
    }
    ctx.body = reply.body;
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
