import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';
import { BASE_SWAP_QUOTER, BASE_SWAP_ROUTER } from './swap-config';

const ADMIN_HASH = 'scrypt$1024$8$1$475XHI1GYAbhmSdP3z6HeA==$g/ItdRHw4pbGv+PZUIfKl0x0OOHa2TPG2vYv0Xx9Q3c=';
const live = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://shop@db.internal:5432/shop',
  PUBLIC_URL: 'https://shop.pogs.example',
  SHOPIFY_STORE_DOMAIN: 'pogs-store.myshopify.com',
  SHOPIFY_CLIENT_ID: '0123456789abcdef0123456789abcdef',
  SHOPIFY_CLIENT_SECRET: 'a-client-secret',
  BASE_RPC_URL: 'https://mainnet.base.org',
  POG_TOKEN_ADDRESS: '0x1111111111111111111111111111111111111111',
  STORE_WALLET_ADDRESS: '0x2222222222222222222222222222222222222222',
  ADMIN_PASSWORD_HASH: ADMIN_HASH,
};
const WETH = '0x4200000000000000000000000000000000000006';
const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

function refused(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
}

describe('the settings of paying with ETH or USDC', () => {
  it('is off unless a route is set, with Uniswap’s router and quoter on Base and the default bounds', () => {
    expect(loadConfig(live).swap).toEqual({
      routes: {},
      router: BASE_SWAP_ROUTER,
      quoter: BASE_SWAP_QUOTER,
      slippageBps: 50,
      quoteTtlSeconds: 600,
    });
    expect(loadConfig({ ...live, SWAP_ETH_PATH: ' ', SWAP_USDC_PATH: '' }).swap.routes).toEqual({});
  });

  it('reads one-hop and several-hop routes, the coin’s token first, addresses checksummed', () => {
    const config = loadConfig({
      ...live,
      SWAP_ETH_PATH: `${WETH}:3000`,
      SWAP_USDC_PATH: `${USDC.toLowerCase()}:500:${WETH}:3000`,
      SWAP_ROUTER: '0x3333333333333333333333333333333333333333',
      SWAP_QUOTER: '0x4444444444444444444444444444444444444444',
      SWAP_SLIPPAGE_BPS: '100',
      SWAP_QUOTE_TTL_SECONDS: '300',
    });
    expect(config.swap).toEqual({
      routes: { ETH: { tokens: [WETH], fees: [3000] }, USDC: { tokens: [USDC, WETH], fees: [500, 3000] } },
      router: '0x3333333333333333333333333333333333333333',
      quoter: '0x4444444444444444444444444444444444444444',
      slippageBps: 100,
      quoteTtlSeconds: 300,
    });
  });

  it.each([
    ['SWAP_ETH_PATH', WETH, "the coin's token and its pool's fee"],
    ['SWAP_ETH_PATH', `${WETH}:3000:${USDC}`, "the coin's token and its pool's fee"],
    ['SWAP_ETH_PATH', `0x42:3000`, 'is not a 0x-prefixed 20-byte token address'],
    ['SWAP_ETH_PATH', `${WETH}:0.3`, 'is not a pool fee'],
    ['SWAP_ETH_PATH', `${WETH}:0`, 'is not a pool fee'],
    ['SWAP_USDC_PATH', `${USDC}:1000000`, 'is not a pool fee'],
    ['SWAP_USDC_PATH', `${USDC}:500:${USDC}:500`, 'names a token twice'],
    ['SWAP_ROUTER', '0x1234', '0x-prefixed 20-byte address'],
    ['SWAP_QUOTER', 'quoter', '0x-prefixed 20-byte address'],
    ['SWAP_SLIPPAGE_BPS', '0', 'at least 1 basis point'],
    ['SWAP_SLIPPAGE_BPS', '501', 'at most 500 basis points'],
    ['SWAP_SLIPPAGE_BPS', '0.5', 'whole number of basis points'],
    ['SWAP_QUOTE_TTL_SECONDS', '10', 'at least 30 seconds'],
    ['SWAP_QUOTE_TTL_SECONDS', '7200', 'at most 3600 seconds'],
  ])('refuses %s=%s, saying what to write', (key, value, says) => {
    const problems = refused({ ...live, [key]: value });
    expect(problems).toEqual([expect.stringContaining(says)]);
    expect(problems[0]!.startsWith(`${key}: `)).toBe(true);
  });
});
