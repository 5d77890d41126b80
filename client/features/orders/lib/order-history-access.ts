import type { AuthSession } from '../../../../common/api';
import { sameAddress } from '../../../lib/same-address';

/**
 * What the orders page can show:
 * - 'connect': no wallet connected (the 'Connect Wallet' card);
 * - 'checking': a returning shopper's wallet is reconnecting, or the session is being read;
 * - 'session-error': the session could not be read;
 * - 'sign-in': connected, but this browser session has not proven this wallet (one signature);
 * - 'signed-in': the session is signed in as the connected wallet: its orders may be read.
 */
export type OrderHistoryAccess = 'connect' | 'checking' | 'session-error' | 'sign-in' | 'signed-in';

export interface OrderHistoryAccessInput {
  wallet: { status: 'disconnected' | 'connecting' | 'connected'; address: string | null; hasProvider: boolean; silent: boolean };
  /** GET /api/auth/session's answer, undefined until read. */
  session: AuthSession | undefined;
  sessionFailed: boolean;
}

export function orderHistoryAccess({ wallet, session, sessionFailed }: OrderHistoryAccessInput): OrderHistoryAccess {
  // A silent reconnect ends connected (usually) within a moment: no 'Connect Wallet' flash.
  if (wallet.status === 'connecting' && wallet.silent) return 'checking';
  if (wallet.status !== 'connected' || !wallet.address || !wallet.hasProvider) return 'connect';
  if (session === undefined) return sessionFailed ? 'session-error' : 'checking';
  // The session holds the address in lower case; the wallet gives it checksummed.
  return sameAddress(session.address, wallet.address) ? 'signed-in' : 'sign-in';
}
