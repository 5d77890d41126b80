import type { Middleware } from 'koa';
import type { SessionService } from './service';

export const SESSION_COOKIE = 'pogs_session';

export interface SessionState {
  /** The shopper's session id, or null when they have none (yet). */
  id: string | null;
  /** The session id, creating the session and its cookie when there is none. */
  ensure(): Promise<string>;
}

declare module 'koa' {
  interface DefaultState {
    session: SessionState;
  }
}

/**
 * Resolves the session cookie lazily and creates a session only when a request needs one
 * (adding to the cart), so browsing never writes to the database.
 */
export function sessionMiddleware(sessions: SessionService, opts: { secure: boolean }): Middleware {
  return async (ctx, next) => {
    const token = ctx.cookies.get(SESSION_COOKIE);
    let id = token ? await sessions.resolve(token) : null;
    if (token && !id) ctx.cookies.set(SESSION_COOKIE, null); // stale cookie: drop it
    ctx.state.session = {
      get id() {
        return id;
      },
      async ensure() {
        if (id) return id;
        const created = await sessions.create();
        id = created.id;
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
        return id;
      },
    };
    await next();
  };
}
