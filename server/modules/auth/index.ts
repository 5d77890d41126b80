/** Sign-In with Ethereum: proving a wallet to see its orders. */
export { AuthService } from './service';
export { authRoutes } from './routes';
