/**
 * Requests another site made a shopper's (or the admin's) browser send. Browsers say where a
 * request comes from: `Sec-Fetch-Site` on every request, `Origin` on every request but a GET or
 * HEAD. A request is cross-site when `Sec-Fetch-Site` is present and not `same-origin` (or `none`:
 * typed in, bookmarked), or when `Origin` is present and not the shop's own. A request with
 * neither header (curl, another server) is not a browser's and passes: it carries no shopper's
 * cookie unless its sender has it.
 *
 * The session cookies are SameSite (Lax for shoppers, Strict for the admin); this refusal also
 * covers a sibling subdomain (same-site, so Lax cookies go along) and browsers or paths where the
 * cookie rules would not hold, and it refuses before anything is read or written: no session,
 * rate-limit count, nonce or checkout.
 */
import type { Context, Middleware } from 'koa';
import { ErrorCode } from '../../common/errors';
import type { Config } from '../config';
import { AppError } from './errors';
import { shopOrigin } from './site-origin';

/** Whether the browser says another site (or another origin of this site) made this request. */
function isCrossSite(ctx: Context, ownOrigin: string): boolean {
  const fetchSite = ctx.get('Sec-Fetch-Site');
  const origin = ctx.get('Origin');
  return (fetchSite !== '' && fetchSite !== 'same-origin' && fetchSite !== 'none') || (origin !== '' && origin !== ownOrigin);
}

function refuse(): AppError {
  return new AppError(ErrorCode.crossSiteRequest, 'This request is accepted only from the shop’s own pages.');
}

/**
 * For one route: refuses a cross-site request whatever its method (`403 cross-site-request`): for
 * what only the shop's pages may read (the admin's).
 */
export function sameOriginOnly(config: Config): Middleware {
  return async (ctx, next) => {
    if (isCrossSite(ctx, shopOrigin(config, ctx))) throw refuse();
    await next();
  };
}

/** Methods that change nothing (the reads that do write are listed in `CROSS_SITE_READS_REFUSED`). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const API_PATH = /^\/api(\/|$)/i;

/**
 * API routes that take writes from other sites, each with why. Nothing else under /api is exempt
 * from `refuseCrossSiteWrites`.
 */
export const CROSS_SITE_WRITES_ALLOWED: ReadonlyArray<{ method: string; path: string; why: string }> = [
  {
    method: 'POST',
    path: '/api/webhooks/shopify',
    why: 'Shopify’s servers call it, server to server, and every delivery is checked against its HMAC signature',
  },
  {
    method: 'POST',
    path: '/api/paymaster',
    why: 'smart wallets call the paymaster service from their own pages and servers; it reads no cookie, and a checkout’s ticket (which only the session that made the checkout is given) says what it may sponsor',
  },
];

/** GET routes that write, refused from other sites like the writes (and their HEAD), each with why. */
export const CROSS_SITE_READS_REFUSED: ReadonlyArray<{ path: string; why: string }> = [
  {
    path: '/api/auth/nonce',
    why: 'it makes a session when there is none and a sign-in nonce, and counts against the sign-in rate limits of the shopper’s session',
  },
];

/** Matched as the routers match: any case, with or without a trailing slash. */
const routePath = (path: string) => new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/?$`, 'i');
const allowed = CROSS_SITE_WRITES_ALLOWED.map(({ method, path }) => ({ method, path: routePath(path) }));
const refusedReads = CROSS_SITE_READS_REFUSED.map(({ path }) => routePath(path));

/** Whether the request may change something: a write under /api, or one of the reads that write. */
function changesSomething(ctx: Context): boolean {
  if (ctx.method === 'GET' || ctx.method === 'HEAD') return refusedReads.some((path) => path.test(ctx.path));
  return !SAFE_METHODS.has(ctx.method) && API_PATH.test(ctx.path) && !allowed.some((a) => a.method === ctx.method && a.path.test(ctx.path));
}

/**
 * For the whole app, before the session, the rate limits and the routers: every request under
 * /api whose method may change something (anything but GET, HEAD and OPTIONS, including methods
 * nobody implements) and every read in `CROSS_SITE_READS_REFUSED` is refused when cross-site,
 * except the writes in `CROSS_SITE_WRITES_ALLOWED`.
 */
export function refuseCrossSiteWrites(config: Config): Middleware {
  return async (ctx, next) => {
    if (changesSomething(ctx) && isCrossSite(ctx, shopOrigin(config, ctx))) throw refuse();
    await next();
  };
}
