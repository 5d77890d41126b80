/** Sign-In with Ethereum: proving a wallet to see its orders. */
export { AuthService, SIWE_STATEMENT, NONCE_TTL_MS, SIGNED_IN_TTL_MS, type SiteIdentity } from './service';
export { authRoutes, siteIdentity } from './routes';
