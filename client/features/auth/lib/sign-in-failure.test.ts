import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { WalletError } from '../../../web3/wallet-errors';
import { SIGN_IN_FAILED_FALLBACK, SIGNATURE_REJECTED_NOTICE, signInFailureNotice } from './sign-in-failure';

describe('signInFailureNotice', () => {
  it('explains a rejected signature', () => {
    expect(signInFailureNotice({ code: 4001, message: 'User rejected the request.' })).toEqual({
      title: 'Signature Rejected',
      description: 'You need to sign the message to view your orders.',
      variant: 'destructive',
    });
    // ethers' spelling and a code-less "user denied"
    expect(signInFailureNotice({ code: 'ACTION_REJECTED' })).toBe(SIGNATURE_REJECTED_NOTICE);
    expect(signInFailureNotice(new Error('MetaMask: User denied message signature.'))).toBe(SIGNATURE_REJECTED_NOTICE);
  });

  it("shows the server's message when it refused the sign-in", () => {
    const refused = new ApiError(401, '401: {…}', {
      code: 'invalid-nonce',
      serverMessage: 'That sign-in message was already used. Sign in again.',
    });
    expect(signInFailureNotice(refused)).toEqual({
      title: 'Sign-in Failed',
      description: 'That sign-in message was already used. Sign in again.',
      variant: 'destructive',
    });
    expect(signInFailureNotice(new ApiError(503, '503: Service Unavailable')).description).toBe('503: Service Unavailable');
  });

  it("shows the wallet's own message, or a fallback", () => {
    expect(signInFailureNotice(new WalletError('The wallet returned no signature')).description).toBe('The wallet returned no signature');
    expect(signInFailureNotice({ code: -32603 }).description).toBe(SIGN_IN_FAILED_FALLBACK);
  });
});
