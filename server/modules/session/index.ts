/** Anonymous shopper sessions (cookie → database row), shared by cart, checkout and orders. */
export { SessionService } from './service';
export {
  sessionMiddleware,
  /** @internal The cookie's name, which the tests read the session from. */
  SESSION_COOKIE,
  sessionToken,
} from './middleware';
export { lockSession, sessionsProvenBy, sessionsThatProved, sessionWallet, sessionWalletColumn, setSessionWallet } from './wallet';
