/**
 * Wallet ids and the "last wallet" memory. Tiny and library-free: the eager bundle imports this
 * to know, before the wallet code loads, whether a silent reconnect is coming.
 */

/** The id of the `window.ethereum` fallback (a wallet that does not announce itself). */
export const INJECTED_WALLET_ID = 'injected';
/** The id of WalletConnect v2. */
export const WALLETCONNECT_WALLET_ID = 'walletconnect';
/** The rdns of the Demo Wallet announced in local mode. */
export const DEMO_WALLET_RDNS = 'shop.pogs.demo-wallet';

/** localStorage key holding the id (rdns) of the wallet used last; no address is stored. */
export const LAST_WALLET_STORAGE_KEY = 'pogs-shop:last-wallet';

const VALID_ID = /^[a-z0-9][a-z0-9.-]{0,199}$/i;

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null; // blocked storage: no silent reconnect
  }
}

/** The wallet to reconnect silently on load, or null. */
export function readLastWalletId(store: Pick<Storage, 'getItem'> | null = storage()): string | null {
  try {
    const value = store?.getItem(LAST_WALLET_STORAGE_KEY) ?? null;
    return value && VALID_ID.test(value) ? value : null;
  } catch {
    return null;
  }
}

export function rememberWalletId(id: string, store: Pick<Storage, 'setItem'> | null = storage()): void {
  try {
    store?.setItem(LAST_WALLET_STORAGE_KEY, id);
  } catch {
    // storage full or blocked: the shopper will simply be asked next time
  }
}

export function forgetWalletId(store: Pick<Storage, 'removeItem'> | null = storage()): void {
  try {
    store?.removeItem(LAST_WALLET_STORAGE_KEY);
  } catch {
    // nothing to forget
  }
}
