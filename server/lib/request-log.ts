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
import { requestLoggerOf, type Logger } from './logger';
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

/** The request's id: the one a trusted proxy of ours sent when it is a plain token, else a new one. */
export function requestIdOf(given: string | undefined, trustProxyId: boolean): string {
  return trustProxyId && given && REQUEST_ID.test(given) ? given : randomUUID();
}

export interface RequestRecord {
  reqId: string;
  method: string;
  route: string;
  status: number;
  seconds: number;
}

/** The request's line (gathered where the logger gathers them: lib/logger.ts) and its place in the latency histogram. */
export function recordRequest(server: Logger, r: RequestRecord): void {
  const logger = requestLoggerOf(server);
  httpDuration.observe({ method: r.method, route: r.route, status: String(r.status) }, r.seconds);
  const line = { reqId: r.reqId, method: r.method, route: r.route, status: r.status, ms: Math.round(r.seconds * 1000) };
  // Probes come every few seconds, and the local demo's shop calls its own emulator: debug.
  if (r.route.startsWith('/api/health') || r.route === '/shopify-emulator/*') logger.debug(line, 'request');
  else logger.info(line, 'request');
}

export function requestLog(opts: { logger: Logger; trustProxyId: boolean }): Middleware {
  const { logger, trustProxyId } = opts;
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const id = requestIdOf(ctx.get('X-Request-Id'), trustProxyId);
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    let failed: unknown = null;
    try {
      await next();
    } catch (err) {
      failed = err;
      throw err;
    } finally {
      // An error escaping here is answered by Koa itself (500); the error middleware normally
      // answers first, so the status is the one sent.
      const status = failed ? 500 : ctx.status;
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      recordRequest(logger, { reqId: id, method: ctx.method, route: routeOf(ctx), status, seconds });
    }
  };
}
