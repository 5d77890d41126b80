import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contract, JsonRpcProvider, Wallet } from 'ethers';
import { setState } from '../lib/app-state';
import { createTestDatabase, type TestDatabase } from '../test/databases';
import { startLocalChain, type LocalChain } from './local-chain';
import { ensureLocalPaymaster, LOCAL_PAYMASTER_DEPOSIT, localAccountFactory, localEntryPoint } from './local-paymaster';

const ENTRY_POINT = ['function balanceOf(address) view returns (uint256)', 'function getNonce(address, uint192) view returns (uint256)'];
const PAYMASTER = ['function verifyingSigner() view returns (address)', 'function entryPoint() view returns (address)'];
const FACTORY = ['function getAddress(address owner, uint256 salt) view returns (address)'];

describe("local mode's paymaster on the local chain", () => {
  let chain: LocalChain;
  let t: TestDatabase;
  let provider: JsonRpcProvider;

  beforeAll(async () => {
    chain = await startLocalChain({ port: 0 });
    t = await createTestDatabase('pglite');
    provider = new JsonRpcProvider(chain.rpcUrl, 8453, { staticNetwork: true });
  });
  afterAll(async () => {
    provider?.destroy();
    await t?.destroy();
    await chain?.stop();
  });

  it('puts the EntryPoint and the account factory where a wallet computes them, and the paymaster with its deposit and signer', async () => {
    const first = await ensureLocalPaymaster(t.db, chain.rpcUrl);
    expect(first.deployed).toBe(true);
    expect(first.entryPoint).toBe(localEntryPoint());
    expect(localEntryPoint()).toBe('0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108'); // v0.8's address on every public chain
    for (const address of [localEntryPoint(), localAccountFactory(), first.address]) expect(await provider.getCode(address)).not.toBe('0x');

    const paymaster = new Contract(first.address, PAYMASTER, provider);
    expect(await paymaster.getFunction('verifyingSigner')()).toBe(new Wallet(first.signerKey).address);
    expect(await paymaster.getFunction('entryPoint')()).toBe(localEntryPoint());
    const entryPoint = new Contract(localEntryPoint(), ENTRY_POINT, provider);
    expect(await entryPoint.getFunction('balanceOf')(first.address)).toBe(LOCAL_PAYMASTER_DEPOSIT);
    // The factory is bound to this EntryPoint and answers an account's address before it exists.
    const owner = Wallet.createRandom().address;
    const account = await new Contract(localAccountFactory(), FACTORY, provider).getFunction('getAddress')(owner, 0n);
    expect(await provider.getCode(account)).toBe('0x');

    // The next start finds all of it: the same paymaster and key, no second deposit.
    const again = await ensureLocalPaymaster(t.db, chain.rpcUrl);
    expect(again).toEqual({ ...first, deployed: false });
    expect(await entryPoint.getFunction('balanceOf')(first.address)).toBe(LOCAL_PAYMASTER_DEPOSIT);
  });

  it('deploys a new paymaster with a new key when the chain no longer has the remembered one', async () => {
    const before = await ensureLocalPaymaster(t.db, chain.rpcUrl);
    await setState(t.db, 'local_paymaster', { address: '0x000000000000000000000000000000000000dEaD', signerKey: before.signerKey });
    const after = await ensureLocalPaymaster(t.db, chain.rpcUrl);
    expect(after.deployed).toBe(true);
    expect(after.address).not.toBe(before.address);
    expect(after.signerKey).not.toBe(before.signerKey);
    expect(await provider.getCode(after.address)).not.toBe('0x');
    expect(after.entryPoint).toBe(before.entryPoint);
  });
});
