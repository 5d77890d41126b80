import type { AuthSession, SiweNonce } from '../../../../common/api';
import { apiFetch } from '../../../lib/api-client';
import { personalSign } from '../../../web3/personal-sign';
import type { Eip1193Provider } from '../../../web3/types';
import { logoutSettled } from './auth';

/**
 * Sign-In with Ethereum: the server writes the EIP-4361 message for `address` (GET
 * /api/auth/nonce), the wallet signs it, the server checks it (POST /api/auth/verify) and binds
 * the session to the wallet. Throws the wallet's refusal or the server's ApiError as they are.
 */
export async function signIn(provider: Eip1193Provider, address: string): Promise<AuthSession> {
  await logoutSettled();
  const { message } = await apiFetch<SiweNonce>(`/api/auth/nonce?address=${encodeURIComponent(address)}`);
  const signature = await personalSign(provider, address, message);
  return apiFetch<AuthSession>('/api/auth/verify', { method: 'POST', json: { message, signature } });
}
