import { describe, expect, it } from 'vitest';
import { changeNotice, initialWalletState, walletReducer, type WalletEvent, type WalletMachineState } from './wallet-machine';

const A = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const B = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';

function run(events: WalletEvent[], from: WalletMachineState = initialWalletState): WalletMachineState {
  return events.reduce(walletReducer, from);
}

const connected = run([
  { type: 'connect', walletId: 'io.metamask' },
  { type: 'connected', attempt: 1, walletId: 'io.metamask', address: A },
]);

describe('walletReducer', () => {
  it('starts disconnected', () => {
    expect(initialWalletState).toMatchObject({ status: 'disconnected', walletId: null, address: null });
  });

  it('goes disconnected → connecting → connected', () => {
    const connecting = walletReducer(initialWalletState, { type: 'connect', walletId: 'io.metamask' });
    expect(connecting).toMatchObject({ status: 'connecting', walletId: 'io.metamask', address: null, attempt: 1, silent: false });
    expect(walletReducer(connecting, { type: 'connected', attempt: 1, walletId: 'io.metamask', address: A })).toMatchObject({
      status: 'connected',
      walletId: 'io.metamask',
      address: A,
    });
  });

  it('ignores a second connect while connecting (no double activation)', () => {
    const connecting = walletReducer(initialWalletState, { type: 'connect', walletId: 'io.metamask' });
    expect(walletReducer(connecting, { type: 'connect', walletId: 'com.coinbase.wallet' })).toBe(connecting);
  });

  it('ignores a connect while connected', () => {
    expect(walletReducer(connected, { type: 'connect', walletId: 'com.coinbase.wallet' })).toBe(connected);
  });

  it('marks a silent reconnect', () => {
    expect(walletReducer(initialWalletState, { type: 'connect', walletId: 'io.metamask', silent: true }).silent).toBe(true);
  });

  it('returns to disconnected when the attempt fails', () => {
    const state = run([
      { type: 'connect', walletId: 'io.metamask' },
      { type: 'connect-failed', attempt: 1 },
    ]);
    expect(state).toMatchObject({ status: 'disconnected', walletId: null, address: null });
    // and a new attempt may start
    expect(walletReducer(state, { type: 'connect', walletId: 'io.metamask' })).toMatchObject({ status: 'connecting', attempt: 2 });
  });

  it('ignores the answer of a cancelled attempt', () => {
    const state = run([
      { type: 'connect', walletId: 'io.metamask' },
      { type: 'cancel' },
      { type: 'connect', walletId: 'com.coinbase.wallet' },
      { type: 'connected', attempt: 1, walletId: 'io.metamask', address: A },
    ]);
    expect(state).toMatchObject({ status: 'connecting', walletId: 'com.coinbase.wallet', attempt: 2 });
    expect(walletReducer(state, { type: 'connect-failed', attempt: 1 })).toBe(state);
  });

  it('ignores a success for another wallet or with no address', () => {
    const connecting = walletReducer(initialWalletState, { type: 'connect', walletId: 'io.metamask' });
    expect(walletReducer(connecting, { type: 'connected', attempt: 1, walletId: 'other', address: A })).toBe(connecting);
    expect(walletReducer(connecting, { type: 'connected', attempt: 1, walletId: 'io.metamask', address: '' }).status).toBe('disconnected');
  });

  it('switches the address on accountsChanged', () => {
    const state = walletReducer(connected, { type: 'accounts-changed', walletId: 'io.metamask', accounts: [B, A] });
    expect(state).toMatchObject({ status: 'connected', address: B });
  });

  it('keeps the state when accountsChanged repeats the address (any case)', () => {
    expect(walletReducer(connected, { type: 'accounts-changed', walletId: 'io.metamask', accounts: [A.toLowerCase()] })).toBe(connected);
  });

  it('disconnects on an empty account list', () => {
    expect(walletReducer(connected, { type: 'accounts-changed', walletId: 'io.metamask', accounts: [] })).toMatchObject({
      status: 'disconnected',
      walletId: null,
      address: null,
    });
  });

  it('ignores accountsChanged from another wallet, or while not connected', () => {
    expect(walletReducer(connected, { type: 'accounts-changed', walletId: 'other', accounts: [] })).toBe(connected);
    const connecting = walletReducer(initialWalletState, { type: 'connect', walletId: 'io.metamask' });
    expect(walletReducer(connecting, { type: 'accounts-changed', walletId: 'io.metamask', accounts: [B] })).toBe(connecting);
    expect(walletReducer(initialWalletState, { type: 'accounts-changed', walletId: 'io.metamask', accounts: [B] })).toBe(
      initialWalletState,
    );
  });

  it('disconnects on a disconnect event or the shopper’s disconnect', () => {
    expect(walletReducer(connected, { type: 'disconnected', walletId: 'io.metamask' }).status).toBe('disconnected');
    expect(walletReducer(connected, { type: 'disconnected' })).toMatchObject({ status: 'disconnected', address: null, walletId: null });
    expect(walletReducer(connected, { type: 'disconnected', walletId: 'other' })).toBe(connected);
  });

  it('a disconnect while connecting abandons the attempt', () => {
    const state = run([{ type: 'connect', walletId: 'io.metamask' }, { type: 'disconnected' }]);
    expect(state.status).toBe('disconnected');
    expect(walletReducer(state, { type: 'connected', attempt: 1, walletId: 'io.metamask', address: A })).toBe(state);
  });

  it('cancel only acts while connecting', () => {
    expect(walletReducer(connected, { type: 'cancel' })).toBe(connected);
    expect(walletReducer(initialWalletState, { type: 'cancel' })).toBe(initialWalletState);
  });
});

describe('changeNotice', () => {
  it('says "Account Switched" with the new short address', () => {
    const next = walletReducer(connected, { type: 'accounts-changed', walletId: 'io.metamask', accounts: [B] });
    expect(changeNotice(connected, next)).toEqual({
      title: 'Account Switched',
      description: 'Now using 0x90F7...b906',
      variant: 'default',
    });
  });

  it('says "Disconnected" when the wallet ends the session', () => {
    const next = walletReducer(connected, { type: 'accounts-changed', walletId: 'io.metamask', accounts: [] });
    expect(changeNotice(connected, next)?.title).toBe('Disconnected');
    const ended = walletReducer(connected, { type: 'disconnected', walletId: 'io.metamask' });
    expect(changeNotice(connected, ended)).toEqual({
      title: 'Disconnected',
      description: 'Your wallet ended the connection to the shop.',
      variant: 'default',
    });
  });

  it('says nothing otherwise', () => {
    expect(changeNotice(connected, connected)).toBeNull();
    expect(changeNotice(initialWalletState, connected)).toBeNull();
  });
});
