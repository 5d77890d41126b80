import { Contract, JsonRpcProvider, parseUnits } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/databases';
import usdcArtifact from './contracts/demo-usdc.json';
import { ensureDemoToken } from './demo-token';
import { DEV_ACCOUNTS, startLocalChain, type LocalChain } from './local-chain';
import { ensurePricePool } from './price-pool';
import { ensureSwapVenue, LOCAL_USDC_POOL_FEE } from './swap-venue';

const POOL = [
  'function token0() view returns (address)',
  'function token1() view returns (address)',
  'function fee() view returns (uint24)',
  'function liquidity() view returns (uint128)',
];
const ROUTER = ['function WETH9() view returns (address)', 'function factory() view returns (address)'];

describe("local mode's swap venue", () => {
  let chain: LocalChain;
  let t: TestDatabase;
  let provider: JsonRpcProvider;

  beforeAll(async () => {
    chain = await startLocalChain({ port: 0 });
    t = await createTestDatabase('pglite');
    provider = new JsonRpcProvider(chain.rpcUrl, 8453, { staticNetwork: true, cacheTimeout: -1 });
  }, 60_000);
  afterAll(async () => {
    provider?.destroy();
    await t?.destroy();
    await chain?.stop();
  });

  it('deploys the router on the price pool’s WETH and factory, a 6-decimal USDC held by dev accounts #1..#3 and a POGS/USDC pool; found again on the next start', async () => {
    const { tokenAddress } = await ensureDemoToken(t.db, chain.rpcUrl);
    const pricePool = await ensurePricePool(t.db, chain.rpcUrl, tokenAddress);
    const venue = await ensureSwapVenue(t.db, chain.rpcUrl, { ...pricePool, token: tokenAddress });
    expect(venue.deployed).toBe(true);

    const router = new Contract(venue.router, ROUTER, provider);
    expect(await router.WETH9()).toBe(pricePool.weth);
    expect(await router.factory()).toBe(pricePool.factory);
    const usdc = new Contract(venue.usdc, usdcArtifact.abi, provider);
    expect([await usdc.symbol(), await usdc.decimals()]).toEqual(['USDC', 6n]);
    expect(await usdc.balanceOf(DEV_ACCOUNTS[1])).toBe(parseUnits('100000', 6));
    expect(await usdc.balanceOf(DEV_ACCOUNTS[2])).toBe(parseUnits('100000', 6));
    // Dev account #3 put $5,000 of it in the pool.
    expect(await usdc.balanceOf(DEV_ACCOUNTS[3])).toBe(parseUnits('95000', 6));
    expect(await usdc.balanceOf(DEV_ACCOUNTS[0])).toBe(0n);
    const pool = new Contract(venue.usdcPool, POOL, provider);
    expect(new Set([await pool.token0(), await pool.token1()])).toEqual(new Set([tokenAddress, venue.usdc]));
    expect(await pool.fee()).toBe(BigInt(LOCAL_USDC_POOL_FEE));
    expect(await pool.liquidity()).toBeGreaterThan(0n);

    const again = await ensureSwapVenue(t.db, chain.rpcUrl, { ...pricePool, token: tokenAddress });
    expect(again).toEqual({ ...venue, deployed: false });
  });

  it('is deployed again for a new price pool (a new WETH and factory), or on a chain that lost it', async () => {
    const { tokenAddress } = await ensureDemoToken(t.db, chain.rpcUrl);
    const pricePool = await ensurePricePool(t.db, chain.rpcUrl, tokenAddress);
    const before = await ensureSwapVenue(t.db, chain.rpcUrl, { ...pricePool, token: tokenAddress });
    expect(before.deployed).toBe(false);

    // The chain lost the router (its code is gone).
    await provider.send('anvil_setCode', [before.router, '0x']);
    const redeployed = await ensureSwapVenue(t.db, chain.rpcUrl, { ...pricePool, token: tokenAddress });
    expect(redeployed.deployed).toBe(true);
    expect(redeployed.router).not.toBe(before.router);

    // Another price pool (as after its own redeployment): the venue follows it.
    const otherWeth = { ...pricePool, weth: redeployed.usdc, token: tokenAddress };
    const moved = await ensureSwapVenue(t.db, chain.rpcUrl, otherWeth);
    expect(moved.deployed).toBe(true);
    expect(await new Contract(moved.router, ROUTER, provider).WETH9()).toBe(redeployed.usdc);
  });
});
