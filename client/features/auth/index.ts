/**
 * Sign-In with Ethereum for the order history (who may see it: docs/payments.md §7): the session's
 * proven wallet, the one-tap sign-in, and dropping it when the wallet changes.
 */
export { authSessionQueryKey, SIGNED_OUT, useAuthSession } from './api/auth';
export { useSignIn, type SigningWallet } from './hooks/use-sign-in';
export { useSignOutOnWalletChange } from './hooks/use-sign-out-on-wallet-change';
