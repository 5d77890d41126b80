import { Router } from '@koa/router';
import type { Context } from 'koa';
import { siweVerifySchema, walletAddressSchema } from '../../../common/api';
import type { Config } from '../../config';
import { ErrorCode } from '../../../common/errors';
import { AppError } from '../../lib/errors';
import { shopOrigin } from '../../lib/site-origin';
import { parseJsonBody } from '../../lib/validation';
import type { AuthService } from './service';
import type { SiteIdentity } from './sign-in-rules';

const VERIFY_EXAMPLE = '{"message": "<the message from GET /api/auth/nonce>", "signature": "0x…"}';

/** The site a message must name: the shop's own origin (server/lib/site-origin.ts). */
export function siteIdentity(config: Config, ctx: Context): SiteIdentity {
  const url = new URL(shopOrigin(config, ctx));
  return { domain: url.host, uri: url.origin };
}

export function authRoutes(auth: AuthService, config: Config): Router {
  const router = new Router({ prefix: '/api/auth' });
  router.use(async (ctx, next) => {
    await next();
    ctx.set('Cache-Control', 'no-store');
  });

  // A read that writes (a session when there is none, and the nonce): the app refuses it from
  // other sites like every write (CROSS_SITE_READS_REFUSED, server/lib/cross-site.ts).
  router.get('/nonce', async (ctx) => {
    const parsed = walletAddressSchema.safeParse(ctx.query.address);
    if (!parsed.success)
      throw new AppError(
        ErrorCode.badRequest,
        'Give the wallet to sign in with: GET /api/auth/nonce?address=0x… (40 hexadecimal characters).',
      );
    ctx.body = await auth.nonce(await ctx.state.session.ensure(), parsed.data, siteIdentity(config, ctx));
  });

  router.post('/verify', async (ctx) => {
    const { message, signature } = parseJsonBody(ctx, siweVerifySchema, VERIFY_EXAMPLE);
    ctx.body = await auth.verify(await ctx.state.session.id(), message, signature, siteIdentity(config, ctx));
  });

  router.post('/logout', async (ctx) => {
    ctx.body = await auth.logout(await ctx.state.session.id());
  });

  router.get('/session', async (ctx) => {
    ctx.body = await auth.session(await ctx.state.session.id());
  });

  return router;
}
