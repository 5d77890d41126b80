import { Router } from '@koa/router';
import { checkoutTransactionSchema, createCheckoutSchema, createOrderSchema } from '../../../common/api';
import { parseJsonBody } from '../../lib/validation';
import type { CheckoutService } from './checkout-service';
import { checkoutNotFound } from './checkout-service';
import type { OrderFromTransaction } from './order-from-transaction';

const CHECKOUT_EXAMPLE = '{"customerWallet": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"}';
const TX_EXAMPLE = '{"transactionHash": "0x…64 hex characters"}';
const ORDER_EXAMPLE = '{"checkoutId": "…", "transactionHash": "0x…"}';

export function paymentRoutes(checkouts: CheckoutService, orderFromTx: OrderFromTransaction): Router {
  const router = new Router();
  // Checkouts and orders are personal and change under the shopper: never cached.
  router.use(async (ctx, next) => {
    await next();
    ctx.set('Cache-Control', 'no-store');
  });

  router.post('/api/checkout', async (ctx) => {
    const { customerWallet } = parseJsonBody(ctx, createCheckoutSchema, CHECKOUT_EXAMPLE);
    ctx.status = 201;
    ctx.body = await checkouts.create(await ctx.state.session.id(), customerWallet ?? null, { ip: ctx.ip });
  });

  router.get('/api/checkout/:id', async (ctx) => {
    const checkout = await checkouts.get(await ctx.state.session.id(), ctx.params.id);
    if (!checkout) throw checkoutNotFound();
    ctx.body = checkout;
  });

  router.post('/api/checkout/:id/transaction', async (ctx) => {
    const { transactionHash } = parseJsonBody(ctx, checkoutTransactionSchema, TX_EXAMPLE);
    const row = await orderFromTx.reportHint(await ctx.state.session.id(), ctx.params.id, transactionHash);
    ctx.body = await checkouts.toApi(row);
  });

  router.post('/api/orders/create', async (ctx) => {
    const body = parseJsonBody(ctx, createOrderSchema, ORDER_EXAMPLE);
    const { order, created } = await orderFromTx.create(await ctx.state.session.id(), body);
    ctx.status = created ? 201 : 200;
    ctx.body = order;
  });

  return router;
}
