import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { AuthSession } from '../../../../common/api';
import { authSessionQueryKey, SIGNED_OUT, signOut } from '../api/auth';
import { shouldSignOut } from '../lib/sign-out-rule';

/**
 * Drops the signed-in state when the connected wallet (`address`) moves away from the wallet it
 * was proven for: another account, or disconnected. The page forgets the session at once and
 * `onSignOut` runs (app/ clears the cached order history there), then the server is told; the
 * session is read again once it answered.
 */
export function useSignOutOnWalletChange(address: string | null, onSignOut: () => void): void {
  const queryClient = useQueryClient();
  const previous = useRef(address);
  useEffect(() => {
    const before = previous.current;
    previous.current = address;
    if (!shouldSignOut(before, address, queryClient.getQueryData<AuthSession>(authSessionQueryKey))) return;
    queryClient.setQueryData(authSessionQueryKey, SIGNED_OUT);
    onSignOut();
    void signOut().then(() => queryClient.invalidateQueries({ queryKey: authSessionQueryKey }));
  }, [address, onSignOut, queryClient]);
}
