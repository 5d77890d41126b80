/** Anonymous shopper sessions (cookie → database row), shared by cart, checkout and orders. */
export { SessionService, hashToken, type SessionOptions } from './service';
export { sessionMiddleware, SESSION_COOKIE, type SessionState } from './middleware';
