import type { AuthSession } from '../../../../common/api';
import { sameAddress } from '../../../lib/same-address';

/**
 * Whether the connected wallet's change from `previous` to `next` (null: none connected) must end
 * the signed-in state: it moved away from a wallet (to another account, or disconnected) and the
 * session is signed in as that wallet, or may be (`session` undefined: not read on this page yet).
 * A session proven for some other wallet is left alone: only that wallet's holder can use it.
 */
export function shouldSignOut(previous: string | null, next: string | null, session: AuthSession | undefined): boolean {
  if (!previous || sameAddress(previous, next)) return false;
  return session === undefined || sameAddress(session.address, previous);
}
