import { describe, expect, it } from 'vitest';
import { orderHistoryAccess, type OrderHistoryAccessInput } from './order-history-access';

const ALICE = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const BOB = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
const connected = { status: 'connected', address: ALICE, hasProvider: true, silent: false } as const;
const signedInAs = (address: string | null) => ({
  address: address?.toLowerCase() ?? null,
  expiresAt: address ? '2030-01-01T00:00:00Z' : null,
});
const access = (input: Partial<OrderHistoryAccessInput>) =>
  orderHistoryAccess({ wallet: connected, session: undefined, sessionFailed: false, ...input });

describe('orderHistoryAccess', () => {
  it('asks to connect a wallet when none is', () => {
    expect(access({ wallet: { status: 'disconnected', address: null, hasProvider: false, silent: false } })).toBe('connect');
    // The shopper is choosing a wallet: the card stays.
    expect(access({ wallet: { status: 'connecting', address: null, hasProvider: false, silent: false } })).toBe('connect');
    expect(access({ wallet: { ...connected, hasProvider: false }, session: signedInAs(ALICE) })).toBe('connect');
  });

  it('waits while a returning wallet reconnects and while the session is read', () => {
    expect(access({ wallet: { status: 'connecting', address: null, hasProvider: false, silent: true } })).toBe('checking');
    expect(access({ session: undefined })).toBe('checking');
    expect(access({ session: undefined, sessionFailed: true })).toBe('session-error');
  });

  it('asks for the signature unless the session is signed in as this wallet', () => {
    expect(access({ session: signedInAs(null) })).toBe('sign-in');
    expect(access({ session: signedInAs(BOB) })).toBe('sign-in');
    expect(access({ session: signedInAs(ALICE) })).toBe('signed-in');
    // A later failed re-read keeps what was known.
    expect(access({ session: signedInAs(ALICE), sessionFailed: true })).toBe('signed-in');
  });
});
