import { concat, keccak256, zeroPadValue } from 'ethers';
import { describe, expect, it } from 'vitest';
import { BASE_WALLETS, ERC1967_IMPLEMENTATION_SLOT, KnownWallets, knownWallets } from './known-wallets';

/** The code of an EIP-7702 account delegating to `delegate`. */
const delegationCode = (delegate: string) => concat(['0xef0100', delegate]);

const FACTORY = '0x0BA5ED0c6AA8c49038F819E587E2633c4A9F428a';
const IMPLEMENTATION = '0x000100abaad02f1cfC8Bbe32bD5a564817339E72';
const OTHER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const SENDER = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
// The minimal ERC-1967 proxy Coinbase Smart Wallet accounts are (Solady's LibClone).
const PROXY =
  '0x363d3d373d3d363d7f360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc545af43d6000803e6038573d6000fd5b3d6000f3';

/** The chain as the check reads it: one account's code and ERC-1967 slot. */
const chain = (code: string, slot = '0x') => ({
  code: async () => code,
  storageAt: async (_address: string, at: string) => (at === ERC1967_IMPLEMENTATION_SLOT ? slot : '0x'),
});
const wallets = new KnownWallets(BASE_WALLETS);
const reason = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (err: { reason?: string }) => err.reason,
  );

describe('the wallets the shop knows', () => {
  it('knows an account its operation deploys with a known factory, whatever the address’s case', async () => {
    expect(await wallets.place(SENDER, FACTORY.toLowerCase(), chain('0x'))).toEqual({ kind: 'deploying', wallet: 'Coinbase Smart Wallet' });
    expect(await reason(wallets.place(SENDER, OTHER, chain('0x')))).toBe('unknown-account');
  });

  it('knows a deployed proxy of a known shape pointing to a known implementation, and binds its code', async () => {
    const slot = zeroPadValue(IMPLEMENTATION, 32);
    expect(await wallets.place(SENDER, null, chain(PROXY, slot))).toEqual({
      kind: 'deployed',
      wallet: 'Coinbase Smart Wallet',
      codeHash: keccak256(PROXY),
    });
    // The known proxy pointing elsewhere, a slot with more than an address, other code, no code.
    expect(await reason(wallets.place(SENDER, null, chain(PROXY, zeroPadValue(OTHER, 32))))).toBe('unknown-account');
    expect(await reason(wallets.place(SENDER, null, chain(PROXY, `0x01${slot.slice(4)}`)))).toBe('unknown-account');
    expect(await reason(wallets.place(SENDER, null, chain(`${PROXY}00`, slot)))).toBe('unknown-account');
    expect(await reason(wallets.place(SENDER, null, chain('0x')))).toBe('unknown-account');
  });

  it('knows an EIP-7702 account only with a known delegate', async () => {
    const simple7702 = '0x4Cd241E8d1510e30b2076397afc7508Ae59C66c9';
    expect(await wallets.place(SENDER, null, chain(delegationCode(simple7702)))).toEqual({
      kind: 'deployed',
      wallet: 'Simple7702Account',
      codeHash: keccak256(delegationCode(simple7702)),
    });
    expect(await reason(wallets.place(SENDER, null, chain(delegationCode(OTHER))))).toBe('unknown-account');
    // The delegate named in the ERC-1967 slot instead does not count: the code decides.
    expect(await reason(wallets.place(SENDER, null, chain(delegationCode(OTHER), zeroPadValue(simple7702, 32))))).toBe('unknown-account');
  });

  it('is Base’s list, or in local mode the local chain’s, with what the settings add', () => {
    const none = { factories: [], implementations: [], proxyCodeHashes: [] };
    expect(knownWallets({ extraWallets: none })).toEqual(BASE_WALLETS);
    const local = { factories: [OTHER], implementations: [SENDER], proxyCodeHashes: [keccak256('0x01')] };
    expect(knownWallets({ extraWallets: none, localWallets: local })).toEqual([{ name: 'the local chain’s smart accounts', ...local }]);
    const extra = { ...none, factories: [SENDER] };
    expect(knownWallets({ extraWallets: extra }).at(-1)).toEqual({ name: 'from the settings', ...extra });
  });
});
