import { ApiError, apiErrorText } from '../../../lib/api-client';
import type { WalletNotice } from '../../../web3/types';
import { errorMessage, rpcErrorCode, USER_REJECTED } from '../../../web3/wallet-errors';

export const SIGNATURE_REJECTED_NOTICE: WalletNotice = Object.freeze({
  title: 'Signature Rejected',
  description: 'You need to sign the message to view your orders.',
  variant: 'destructive',
});
export const SIGN_IN_FAILED_TITLE = 'Sign-in Failed';
export const SIGN_IN_FAILED_FALLBACK = 'Failed to sign in. Please try again.';

/**
 * What a failed sign-in says: the shopper's own refusal (4001) explains why the signature is
 * needed; a refusal by the server shows the server's message (an expired or used message, a
 * signature from another wallet); anything else the wallet's message.
 */
export function signInFailureNotice(error: unknown): WalletNotice {
  if (error instanceof ApiError) {
    return { title: SIGN_IN_FAILED_TITLE, description: apiErrorText(error), variant: 'destructive' };
  }
  if (rpcErrorCode(error) === USER_REJECTED) return SIGNATURE_REJECTED_NOTICE;
  return { title: SIGN_IN_FAILED_TITLE, description: errorMessage(error) ?? SIGN_IN_FAILED_FALLBACK, variant: 'destructive' };
}
