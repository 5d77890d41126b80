import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AuthSession } from '../../../../common/api';
import { apiFetch } from '../../../lib/api-client';

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
/** Settles once the last logout has (sign-in.ts waits for it). */
export const logoutSettled = (): Promise<unknown> => signingOut;

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
