import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../../components/ui/use-toast';
import type { Eip1193Provider } from '../../../web3/types';
import { authSessionQueryKey } from '../api/auth';
import { signIn } from '../api/sign-in';
import { signInFailureNotice } from '../lib/sign-in-failure';

export interface SigningWallet {
  provider: Eip1193Provider;
  address: string;
}

/**
 * The one-tap sign-in: nonce, signature, verification. Success stores the session, so every
 * reader sees the wallet signed in; a failure is a toast and the step is offered again.
 */
export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ provider, address }: SigningWallet) => signIn(provider, address),
    onSuccess: (session) => queryClient.setQueryData(authSessionQueryKey, session),
    onError: (error) => toast(signInFailureNotice(error)),
  });
}
