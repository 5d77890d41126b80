import { useSyncExternalStore } from 'react';
import { createSentRefundsStore, type SentRefund } from '../lib/sent-refunds';

let store: ReturnType<typeof createSentRefundsStore> | null = null;

/** The page's one store of refunds sent but not recorded yet (kept in localStorage). */
export function sentRefunds() {
  store ??= createSentRefundsStore(
    (() => {
      try {
        return window.localStorage;
      } catch {
        return null;
      }
    })(),
  );
  return store;
}

/** The refund the store wallet sent for this transfer that the server has not recorded yet, if any. */
export function useSentRefund(transferId: string): SentRefund | null {
  const s = sentRefunds();
  return useSyncExternalStore(
    s.subscribe,
    () => s.get(transferId),
    () => null,
  );
}
