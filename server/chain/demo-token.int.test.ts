import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contract, JsonRpcProvider, parseUnits } from 'ethers';
import { setState } from '../lib/app-state';
import { createTestDatabase, type TestDatabase } from '../test/databases';
import artifact from './contracts/demo-pogs-token.json';
import { DEMO_BALANCE, ensureDemoToken, LOCAL_STORE_WALLET } from './demo-token';
import { DEMO_WALLET_ACCOUNT, DEV_ACCOUNTS, startLocalChain, type LocalChain } from './local-chain';
import { mined } from './mined';

describe('demo POGS token on the local chain', () => {
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

  it('deploys once with 18 decimals and funded buyer accounts, and is reused on the next start', async () => {
    const first = await ensureDemoToken(t.db, chain.rpcUrl);
    expect(first.storeWallet).toBe(LOCAL_STORE_WALLET);
    const token = new Contract(first.tokenAddress, artifact.abi, provider);
    expect(await token.decimals()).toBe(18n);
    expect(await token.symbol()).toBe('POGS');
    for (const account of DEV_ACCOUNTS.slice(1)) expect(await token.balanceOf(account)).toBe(DEMO_BALANCE);
    expect(await token.balanceOf(LOCAL_STORE_WALLET)).toBe(0n);

    const again = await ensureDemoToken(t.db, chain.rpcUrl);
    expect(again.tokenAddress).toBe(first.tokenAddress);
  });

  it('moves exact amounts with a standard Transfer event', async () => {
    const { tokenAddress } = await ensureDemoToken(t.db, chain.rpcUrl);
    const buyer = await provider.getSigner(DEMO_WALLET_ACCOUNT);
    const token = new Contract(tokenAddress, artifact.abi, buyer);
    const amount = parseUnits('25.000000000000012345', 18);
    const receipt = await mined(token.transfer(LOCAL_STORE_WALLET, amount, { gasLimit: 150_000 }));
    expect(receipt.status).toBe(1);
    const [log] = receipt.logs.map((l) => token.interface.parseLog({ topics: [...l.topics], data: l.data })!);
    expect(log.name).toBe('Transfer');
    expect(log.args.from).toBe(DEMO_WALLET_ACCOUNT);
    expect(log.args.to).toBe(LOCAL_STORE_WALLET);
    expect(log.args.value).toBe(amount);
  });

  it('redeploys when the chain no longer has the remembered contract', async () => {
    const before = await ensureDemoToken(t.db, chain.rpcUrl);
    await setState(t.db, 'local_demo_token', { address: '0x000000000000000000000000000000000000dEaD', rpcUrl: chain.rpcUrl });
    const after = await ensureDemoToken(t.db, chain.rpcUrl);
    expect(after.tokenAddress).not.toBe('0x000000000000000000000000000000000000dEaD');
    expect(after.tokenAddress).not.toBe(before.tokenAddress);
    expect(await provider.getCode(after.tokenAddress)).not.toBe('0x');
  });
});
