/** Anonymous shopper sessions (cookie → database row), shared by cart, checkout and orders. */
export { SessionService, hashToken } from './service';
export { sessionMiddleware, SESSION_COOKIE } from './middleware';
export { lockSession, sessionsProvenBy, sessionWallet, setSessionWallet } from './wallet';
