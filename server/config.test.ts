import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, PRODUCTION_REQUIRED } from './config';

const realProduction = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://shop@db.internal:5432/shop',
  PUBLIC_URL: 'https://shop.pogs.example',
  SHOPIFY_STORE_DOMAIN: 'pogs-store.myshopify.com',
  SHOPIFY_ADMIN_TOKEN: 'shpat_0123456789abcdef',
  SHOPIFY_CLIENT_SECRET: 'a-client-secret',
  BASE_RPC_URL: 'https://mainnet.base.org',
  POG_TOKEN_ADDRESS: '0x1111111111111111111111111111111111111111',
  STORE_WALLET_ADDRESS: '0x2222222222222222222222222222222222222222',
};

describe('loadConfig', () => {
  it('runs with embedded defaults when nothing is configured, and says which', () => {
    const c = loadConfig({});
    expect(c.database.kind).toBe('pglite');
    expect(c.shopify.kind).toBe('emulator');
    expect(c.port).toBe(3000);
    expect(c.publicUrl).toBe('http://localhost:3000');
    expect(c.defaults.some((d) => d.startsWith('database: embedded PGlite'))).toBe(true);
    expect(c.defaults.some((d) => d.startsWith('shopify: bundled emulator'))).toBe(true);
    expect(c.chain).toMatchObject({ kind: 'local', port: 0 });
    expect(c.defaults.some((d) => d.startsWith('chain: local anvil node (chain id 8453)'))).toBe(true);
  });

  it('uses the real services when they are configured, with no default announced for them', () => {
    const c = loadConfig({ ...realProduction, NODE_ENV: 'development' });
    expect(c.database).toEqual({ kind: 'postgres', url: realProduction.DATABASE_URL, ssl: false });
    expect(c.shopify).toMatchObject({ kind: 'store', storeDomain: 'pogs-store.myshopify.com', apiVersion: '2026-07' });
    expect(c.chain).toEqual({
      kind: 'rpc',
      rpcUrl: realProduction.BASE_RPC_URL,
      tokenAddress: realProduction.POG_TOKEN_ADDRESS,
      storeWallet: realProduction.STORE_WALLET_ADDRESS,
    });
    expect(c.defaults).toEqual([]);
  });

  it('refuses to start in production and lists every missing setting', () => {
    let error: unknown;
    try {
      loadConfig({ NODE_ENV: 'production' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    for (const key of PRODUCTION_REQUIRED) expect(message).toContain(key);
  });

  it('names only what is missing', () => {
    const { BASE_RPC_URL: _drop, ...rest } = realProduction;
    expect(() => loadConfig(rest)).toThrow(/missing required settings for production: BASE_RPC_URL$/m);
    expect(() => loadConfig(realProduction)).not.toThrow();
  });

  it('explains malformed values', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL: must be a postgres:\/\/ URL/);
    expect(() => loadConfig({ POG_TOKEN_ADDRESS: '0x123' })).toThrow(/POG_TOKEN_ADDRESS/);
    expect(() => loadConfig({ SHOPIFY_STORE_DOMAIN: 'pogs-store.myshopify.com' })).toThrow(/set together/);
    expect(() => loadConfig({ BASE_RPC_URL: 'https://mainnet.base.org' })).toThrow(/missing: POG_TOKEN_ADDRESS, STORE_WALLET_ADDRESS/);
    expect(() => loadConfig({ RATE_LIMIT_SCALE: '-1' })).toThrow(/RATE_LIMIT_SCALE/);
    expect(() => loadConfig({ TRUSTED_PROXY_HOPS: '1.5' })).toThrow(/TRUSTED_PROXY_HOPS/);
  });

  it('believes one proxy hop in production and none elsewhere, unless told; rate limits at their real size', () => {
    expect(loadConfig(realProduction)).toMatchObject({ trustedProxyHops: 1, rateLimitScale: 1 });
    expect(loadConfig({})).toMatchObject({ trustedProxyHops: 0, rateLimitScale: 1 });
    expect(loadConfig({ ...realProduction, TRUSTED_PROXY_HOPS: '2' }).trustedProxyHops).toBe(2);
    expect(loadConfig({ ...realProduction, TRUSTED_PROXY_HOPS: '0' }).trustedProxyHops).toBe(0);
    expect(loadConfig({ RATE_LIMIT_SCALE: '0' }).rateLimitScale).toBe(0);
    expect(loadConfig({ RATE_LIMIT_SCALE: '2.5' }).rateLimitScale).toBe(2.5);
  });
});
