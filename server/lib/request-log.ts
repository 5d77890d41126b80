/**
 * One log line per request, and a request id that ties it to everything else logged about it.
 *
 * The id is the `X-Request-Id` a trusted proxy of ours sent (TRUSTED_PROXY_HOPS > 0), when it is a
 * plain token; otherwise one is made. It is echoed in the response (support can ask a shopper for
 * it) and put on `ctx.state.requestId`. The line says method, route template (never the URL: paths
 * and queries carry order ids and wallet addresses), status and duration, and feeds the latency
 * histogram. Health probes are logged at debug level (an orchestrator asks every few seconds), and
 * so are the local demo's calls to its own Shopify emulator.
 */
import { randomUUID } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import type { Logger } from './logger';
import { httpDuration } from './metrics';

declare module 'koa' {
  interface DefaultState {
    /** This request's id (X-Request-Id). */
    requestId: string;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The route template of the request, of low cardinality: the router's pattern, else what kind of path it was. */
export function routeOf(ctx: Context): string {
  // The local demo's Shopify emulator, mounted in the shop: its own routes are not the shop's.
  if (ctx.path.startsWith('/shopify-emulator/')) return '/shopify-emulator/*';
  const matched = (ctx as Context & { _matchedRoute?: string | RegExp })._matchedRoute;
  if (typeof matched === 'string') return matched;
  if (ctx.status === 404) return '(no route)';
  if (ctx.path.startsWith('/assets/')) return '/assets/*';
  return ctx.method === 'GET' || ctx.method === 'HEAD' ? '(page or file)' : '(other)';
}

export function requestLog(opts: { logger: Logger; trustProxyId: boolean }): Middleware {
  const { logger, trustProxyId } = opts;
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const given = trustProxyId ? ctx.get('X-Request-Id') : '';
    const id = REQUEST_ID.test(given) ? given : randomUUID();
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    let failed: unknown = null;
    try {
      await next();
    } catch (err) {
      failed = err;
      throw err;
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      // An error escaping here is answered by Koa itself (500); the error middleware normally
      // answers first, so the status is the one sent.
      const status = failed ? 500 : ctx.status;
      const route = routeOf(ctx);
      httpDuration.observe({ method: ctx.method, route, status: String(status) }, seconds);
      const line = { reqId: id, method: ctx.method, route, status, ms: Math.round(seconds * 1000) };
      // Probes come every few seconds, and the local demo's shop calls its own emulator: debug.
      if (route.startsWith('/api/health') || route === '/shopify-emulator/*') logger.debug(line, 'request');
      else logger.info(line, 'request');
    }
  };
}
