import type { Middleware } from 'koa';
import type { SessionService } from './service';

export const SESSION_COOKIE = 'pogs_session';

const SESSION_COOKIE_PATTERN = new RegExp(`(?:^|;) *${SESSION_COOKIE}=([^;]*)`);

/**
 * The session cookie's token in a Cookie header, read as Koa's `ctx.cookies.get` reads it (the first
 * one, its quotes removed), for what answers ahead of Koa (modules/cart/lane.ts).
 */
export function sessionToken(cookieHeader: string | undefined): string | undefined {
  const value = cookieHeader ? SESSION_COOKIE_PATTERN.exec(cookieHeader)?.[1] : undefined;
  if (!value) return undefined;
  return value[0] === '"' ? value.slice(1, -1) : value;
}

export interface SessionState {
  /** The shopper's session id, or null when they have none (yet). Looked up once, on first use. */
  id(): Promise<string | null>;
  /** The session id, creating the session and its cookie when there is none. */
  ensure(): Promise<string>;
}

declare module 'koa' {
  interface DefaultState {
    session: SessionState;
  }
}

/**
 * Resolves the session cookie lazily (only routes that need the shopper's session pay for the
 * lookup, not the catalogue) and creates a session only when a request needs one (adding to the
 * cart), so browsing never writes to the database.
 */
export function sessionMiddleware(sessions: SessionService, opts: { secure: boolean }): Middleware {
  return async (ctx, next) => {
    let resolved: Promise<string | null> | undefined;
    const id = () =>
      (resolved ??= (async () => {
        const token = ctx.cookies.get(SESSION_COOKIE);
        if (!token) return null;
        const found = await sessions.resolve(token);
        if (!found) ctx.cookies.set(SESSION_COOKIE, null); // stale cookie: drop it
        return found;
      })());
    ctx.state.session = {
      id,
      async ensure() {
        const existing = await id();
        if (existing) return existing;
        const created = await sessions.create();
        resolved = Promise.resolve(created.id);
        // Behind a TLS-terminating proxy Koa may not see https itself; production cookies are
        // Secure regardless.
        if (opts.secure) ctx.cookies.secure = true;
        ctx.cookies.set(SESSION_COOKIE, created.token, {
          httpOnly: true,
          sameSite: 'lax',
          secure: opts.secure,
          path: '/',
          expires: created.expiresAt,
          overwrite: true,
        });
        return created.id;
      },
    };
    await next();
  };
}
