/**
 * NUL characters (`%00` in an address, `\u0000` in a JSON string) in what a client sends to the API.
 * No name, id or text the shop keeps can hold one: Postgres text cannot, and a query given one
 * fails (a 500). So a request carrying one is the client's mistake, answered `400 bad-request`
 * before any route reads it: in the path or query before anything else runs (no session, no
 * rate-limit count), in a JSON body as soon as it is parsed.
 */
import type { Middleware } from 'koa';
import { ErrorCode } from '../../common/errors';
import { AppError } from './errors';

const API_PATH = /^\/api(\/|$)/i;
/** A NUL as a URL writes it (the path and query are still percent-encoded here). */
const ENCODED_NUL = /%00/i;

function refuse(where: string): AppError {
  return new AppError(
    ErrorCode.badRequest,
    `The ${where} holds a NUL character (%00 or \\u0000), which no name, id or text here can hold.`,
  );
}

/** Whether a parsed JSON value holds a NUL in any string, key or value, at any depth. */
export function holdsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (next.includes('\u0000')) return true;
    } else if (Array.isArray(next)) {
      pending.push(...(next as unknown[]));
    } else if (next && typeof next === 'object') {
      for (const [key, inner] of Object.entries(next)) {
        if (key.includes('\u0000')) return true;
        pending.push(inner);
      }
    }
  }
  return false;
}

/** Refuses an API request whose path or query holds a NUL. Goes before every router. */
export function refuseNulInAddress(): Middleware {
  return async (ctx, next) => {
    if (API_PATH.test(ctx.path)) {
      if (ENCODED_NUL.test(ctx.path) || ctx.path.includes('\u0000')) throw refuse('address');
      if (ENCODED_NUL.test(ctx.querystring) || ctx.querystring.includes('\u0000')) throw refuse('query');
    }
    await next();
  };
}

/** Refuses an API request whose parsed JSON body holds a NUL. Goes right after the body parser. */
export function refuseNulInBody(): Middleware {
  return async (ctx, next) => {
    if (API_PATH.test(ctx.path) && holdsNul((ctx.request as { body?: unknown }).body)) throw refuse('body');
    await next();
  };
}
