/** Sign-In with Ethereum: proving a wallet to see its orders. */
export { AuthService, type SiteIdentity } from './service';
export { authRoutes } from './routes';
