import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AuthSession, SiweNonce } from '../../../../common/api';
import { apiFetch } from '../../../lib/api-client';
import { personalSign } from '../../../web3/personal-sign';
import type { Eip1193Provider } from '../../../web3/types';

export const authSessionQueryKey = ['auth', 'session'] as const;

export const SIGNED_OUT: AuthSession = Object.freeze({ address: null, expiresAt: null });

/** GET /api/auth/session: the wallet this browser session has proven (lower case), or null. */
export function getAuthSession(signal?: AbortSignal): Promise<AuthSession> {
  return apiFetch<AuthSession>('/api/auth/session', { signal });
}

export function authSessionQueryOptions() {
  return queryOptions({ queryKey: authSessionQueryKey, queryFn: ({ signal }) => getAuthSession(signal) });
}

/** The signed-in wallet, read only where it matters (`enabled`: a wallet is connected). */
export function useAuthSession(enabled: boolean) {
  return useQuery({ ...authSessionQueryOptions(), enabled });
}

/** A logout still on its way: a sign-in waits for it, or the logout could land after it and undo it. */
let signingOut: Promise<unknown> = Promise.resolve();

/**
 * POST /api/auth/logout. Best effort: if it fails the server session stays signed in to the old
 * wallet, which the orders page shows to nobody but that wallet's holder.
 */
export function signOut(): Promise<unknown> {
  signingOut = apiFetch<AuthSession>('/api/auth/logout', { method: 'POST' }).catch((error: unknown) =>
    console.warn('Signing out of the order history failed', error),
  );
  return signingOut;
}

/**
 * Sign-In with Ethereum: the server writes the EIP-4361 message for `address` (GET
 * /api/auth/nonce), the wallet signs it, the server checks it (POST /api/auth/verify) and binds
 * the session to the wallet. Throws the wallet's refusal or the server's ApiError as they are.
 */
export async function signIn(provider: Eip1193Provider, address: string): Promise<AuthSession> {
  await signingOut;
  const { message } = await apiFetch<SiweNonce>(`/api/auth/nonce?address=${encodeURIComponent(address)}`);
  const signature = await personalSign(provider, address, message);
  return apiFetch<AuthSession>('/api/auth/verify', { method: 'POST', json: { message, signature } });
}
