import { Router } from '@koa/router';
import { checkoutNotFound, type CheckoutService } from '../payments';
import { PaymasterError } from './paymaster-error';
import type { PaymasterService } from './service';

/** JSON-RPC 2.0 request ids: a string, a number or null. */
const isId = (id: unknown) => id === null || typeof id === 'string' || typeof id === 'number';

/**
 * GET /api/checkout/:id/paymaster: for the session that made the checkout only, what its wallet
 * needs to have the shop pay the gas (the service's URL and the checkout's ticket), or why the
 * shop will not pay it (the shopper then pays it from the wallet).
 * POST /api/paymaster: the paymaster service, JSON-RPC 2.0 (ERC-7677). Wallets call it from their
 * own origin or servers, without the shop's cookies: it answers any origin (CORS), and the ticket
 * in the context, not a session, says which checkout an operation pays.
 */
export function paymasterRoutes(service: PaymasterService, checkouts: CheckoutService): Router {
  const router = new Router();

  router.get('/api/checkout/:id/paymaster', async (ctx) => {
    const own = await checkouts.own(await ctx.state.session.id(), ctx.params.id);
    ctx.set('Cache-Control', 'no-store');
    if (!own) throw checkoutNotFound();
    ctx.body = await service.offer(own.id);
  });

  router.options('/api/paymaster', (ctx) => {
    cors(ctx);
    ctx.set('Access-Control-Max-Age', '600');
    ctx.status = 204;
  });

  router.post('/api/paymaster', async (ctx) => {
    cors(ctx);
    ctx.set('Cache-Control', 'no-store');
    const body = (ctx.request as { body?: unknown }).body as
      { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown } | undefined;
    const id = body && isId(body.id) ? body.id : null;
    const answer = (payload: object) => {
      ctx.type = 'application/json';
      ctx.body = { jsonrpc: '2.0', id, ...payload };
    };
    if (
      !ctx.request.is('application/json') ||
      !body ||
      typeof body !== 'object' ||
      body.jsonrpc !== '2.0' ||
      typeof body.method !== 'string'
    ) {
      answer({
        error: {
          code: -32600,
          message: 'Send one JSON-RPC 2.0 request: {"jsonrpc":"2.0","id":1,"method":"pm_getPaymasterData","params":[…]}',
        },
      });
      return;
    }
    try {
      answer({ result: await service.call(body.method, body.params) });
    } catch (err) {
      if (!(err instanceof PaymasterError)) throw err;
      answer({ error: { code: err.code, message: err.message, data: { reason: err.reason } } });
    }
  });

  return router;
}

/** Any origin may call the service (a wallet's page or server); no cookies are read or set. */
function cors(ctx: { set(field: string, value: string): void }) {
  ctx.set('Access-Control-Allow-Origin', '*');
  ctx.set('Access-Control-Allow-Methods', 'POST, OPTIONS');
  ctx.set('Access-Control-Allow-Headers', 'Content-Type');
}
