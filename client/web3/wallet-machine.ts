/**
 * The wallet session's state machine: disconnected ↔ connecting ↔ connected.
 * Pure: the controller feeds it events and performs the side effects.
 *
 * - A connect while connecting (or connected) is ignored: no double activation.
 * - Every connect attempt gets a number; an answer for an older attempt (one the shopper
 *   cancelled) is ignored.
 * - accountsChanged from the connected wallet switches the address; an empty list disconnects.
 * - A disconnect (the shopper's, or the wallet's 'disconnect' event) clears wallet and address.
 */
import { sameAddress } from '../lib/same-address';
import { accountSwitchedNotice, walletEndedNotice } from './wallet-errors';
import type { WalletNotice } from './types';

export type WalletStatus = 'disconnected' | 'connecting' | 'connected';

export interface WalletMachineState {
  status: WalletStatus;
  /** The wallet being connected or connected (rdns, 'injected' or 'walletconnect'). */
  walletId: string | null;
  /** The connected account (checksummed by the controller); null unless connected. */
  address: string | null;
  /** Increases with every accepted connect, so late answers can be told apart. */
  attempt: number;
  /** The current attempt is a silent reconnect (eth_accounts, no prompt, no toasts). */
  silent: boolean;
}

export type WalletEvent =
  | { type: 'connect'; walletId: string; silent?: boolean }
  | { type: 'connected'; attempt: number; walletId: string; address: string }
  | { type: 'connect-failed'; attempt: number }
  | { type: 'cancel' }
  | { type: 'accounts-changed'; walletId: string; accounts: readonly string[] }
  | { type: 'disconnected'; walletId?: string };

export const initialWalletState: WalletMachineState = Object.freeze({
  status: 'disconnected',
  walletId: null,
  address: null,
  attempt: 0,
  silent: false,
});

function disconnected(state: WalletMachineState): WalletMachineState {
  return { ...state, status: 'disconnected', walletId: null, address: null, silent: false };
}

export function walletReducer(state: WalletMachineState, event: WalletEvent): WalletMachineState {
  switch (event.type) {
    case 'connect':
      if (state.status !== 'disconnected') return state;
      return { status: 'connecting', walletId: event.walletId, address: null, attempt: state.attempt + 1, silent: Boolean(event.silent) };

    case 'connected':
      if (state.status !== 'connecting' || event.attempt !== state.attempt || event.walletId !== state.walletId) return state;
      if (!event.address) return disconnected(state);
      return { ...state, status: 'connected', address: event.address };

    case 'connect-failed':
      if (state.status !== 'connecting' || event.attempt !== state.attempt) return state;
      return disconnected(state);

    case 'cancel':
      return state.status === 'connecting' ? disconnected(state) : state;

    case 'accounts-changed': {
      if (state.status !== 'connected' || event.walletId !== state.walletId) return state;
      const next = event.accounts.find((a) => typeof a === 'string' && a.length > 0) ?? null;
      if (!next) return disconnected(state);
      return sameAddress(next, state.address) ? state : { ...state, address: next };
    }

    case 'disconnected':
      if (state.status === 'disconnected') return state;
      if (event.walletId !== undefined && event.walletId !== state.walletId) return state;
      return disconnected(state);
  }
}

/**
 * The toast a wallet-side change deserves: 'Account Switched' when the connected address
 * changed, the wallet-ended notice when the wallet dropped the connection, else none.
 */
export function changeNotice(prev: WalletMachineState, next: WalletMachineState): WalletNotice | null {
  if (prev.status !== 'connected') return null;
  if (next.status === 'disconnected') return walletEndedNotice();
  if (next.status === 'connected' && next.address && !sameAddress(prev.address, next.address)) return accountSwitchedNotice(next.address);
  return null;
}
