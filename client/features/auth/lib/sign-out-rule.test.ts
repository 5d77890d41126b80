import { describe, expect, it } from 'vitest';
import { shouldSignOut } from './sign-out-rule';

const ALICE = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const BOB = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
const signedIn = (address: string | null) => ({
  address: address?.toLowerCase() ?? null,
  expiresAt: address ? '2030-01-01T00:00:00Z' : null,
});

describe('shouldSignOut', () => {
  it('signs out when the signed-in wallet disconnects or switches account', () => {
    expect(shouldSignOut(ALICE, null, signedIn(ALICE))).toBe(true);
    expect(shouldSignOut(ALICE, BOB, signedIn(ALICE))).toBe(true);
  });

  it('signs out when the session was not read yet (it may be signed in as the old wallet)', () => {
    expect(shouldSignOut(ALICE, null, undefined)).toBe(true);
    expect(shouldSignOut(ALICE, BOB, undefined)).toBe(true);
  });

  it('does nothing when a wallet connects, or the address only changes case', () => {
    expect(shouldSignOut(null, ALICE, undefined)).toBe(false);
    expect(shouldSignOut(null, null, signedIn(ALICE))).toBe(false);
    expect(shouldSignOut(ALICE, ALICE.toLowerCase(), signedIn(ALICE))).toBe(false);
  });

  it('leaves a session that is not the old wallet’s', () => {
    expect(shouldSignOut(ALICE, BOB, signedIn(BOB))).toBe(false);
    expect(shouldSignOut(ALICE, null, signedIn(null))).toBe(false);
  });
});
