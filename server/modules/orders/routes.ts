import { Router } from '@koa/router';
import type { Context } from 'koa';
import { walletAddressSchema } from '../../../common/api';
import { ErrorCode } from '../../../common/errors';
import { AppError } from '../../lib/errors';
import type { AuthService } from '../auth';
import type { OrdersService, Viewer } from './service';

export function orderRoutes(orders: OrdersService, auth: AuthService): Router {
  const router = new Router();
  const viewer = async (ctx: Context): Promise<Viewer> => {
    const sessionId = await ctx.state.session.id();
    return { sessionId, wallet: (await auth.session(sessionId)).address };
  };

  /** The `?wallet=` of the request, when this session signed in as it (else 400, 401 or 403). */
  const signedInAs = async (ctx: Context, what: 'orders' | 'refunds'): Promise<string> => {
    const parsed = walletAddressSchema.safeParse(ctx.query.wallet);
    if (!parsed.success)
      throw new AppError(
        ErrorCode.badRequest,
        `Give the wallet whose ${what} to list: GET /api/${what}?wallet=0x… (40 hexadecimal characters).`,
      );
    const { wallet: signedIn } = await viewer(ctx);
    if (!signedIn) throw new AppError(ErrorCode.signInRequired, `Sign in with your wallet to see its ${what}.`);
    if (signedIn !== parsed.data.toLowerCase()) {
      throw new AppError(ErrorCode.walletMismatch, `You are signed in with another wallet. Sign in with this one to see its ${what}.`);
    }
    return signedIn;
  };

  // The order history of a wallet exposes items and shipping links: only for that wallet, proven
  // by Sign-In with Ethereum (an address alone is public on-chain).
  // A page at a time (common/order-listing.ts ORDERS_PAGE_SIZE); the answer stays the list of
  // orders, and a Link header (rel="next") names the next page when there is one.
  router.get('/api/orders', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const wallet = await signedInAs(ctx, 'orders');
    const { after } = ctx.query;
    if (after !== undefined && typeof after !== 'string')
      throw new AppError(ErrorCode.badRequest, 'Give after once: the id of the last order of the previous page.');
    const page = await orders.listForWallet(wallet, after);
    const last = page.orders.at(-1);
    if (page.more && last) ctx.set('Link', `</api/orders?wallet=${wallet}&after=${last.id}>; rel="next"`);
    ctx.body = page.orders;
  });

  // Refunds of payments that made no order: the same rule (the wallet they went to, signed in).
  router.get('/api/refunds', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await orders.refundsForWallet(await signedInAs(ctx, 'refunds'));
  });

  router.get('/api/orders/:id', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await orders.getForViewer(ctx.params.id, await viewer(ctx));
  });

  // Our stable shipping link: the buyer goes straight to Shopify's page once it exists. Until
  // then (or for anyone else) the shop's page answers: "preparing your shipping form" for the
  // buyer, "order not found" for others. The invoice URL is a bearer secret, never shown to others.
  // A refunded order is never sent to Shopify's page: its money went back, so nothing ships.
  router.get('/orders/:id/shipping', async (ctx, next) => {
    const row = await orders.forViewer(ctx.params.id, await viewer(ctx));
    if (row?.shopify_invoice_url && row.status !== 'refunded') {
      ctx.set('Cache-Control', 'no-store');
      ctx.redirect(row.shopify_invoice_url);
      return;
    }
    await next();
  });

  return router;
}
