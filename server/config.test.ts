import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { ConfigError, loadConfig, mixedModeProblems, PRODUCTION_REQUIRED, withAdminPassword, withEmulatorSecrets } from './config';

/** A well-formed hash line (of "config-test", at a cheap cost): the config checks its form only. */
const ADMIN_HASH = 'scrypt$1024$8$1$475XHI1GYAbhmSdP3z6HeA==$g/ItdRHw4pbGv+PZUIfKl0x0OOHa2TPG2vYv0Xx9Q3c=';

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
  ADMIN_PASSWORD_HASH: ADMIN_HASH,
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
    expect(c.mode).toBe('local');
    expect(c.defaults.some((d) => d.startsWith('mode: full local demo'))).toBe(true);
  });

  it('gives the emulator no built-in secrets: they come from a file in the data folder', () => {
    const c = loadConfig({ DATA_DIR: '/srv/pogs-data' });
    expect(c.shopify).toEqual({
      kind: 'emulator',
      apiVersion: '2026-07',
      mountPath: '/shopify-emulator',
      secretsFile: path.resolve('/srv/pogs-data', 'shopify-emulator-secrets.json'),
    });
    const filled = withEmulatorSecrets(c, { accessToken: 'shpat_x', clientSecret: 'y' });
    expect(filled.shopify).toMatchObject({ accessToken: 'shpat_x', clientSecret: 'y' });
    expect(filled.mode).toBe('local');
    expect(() =>
      withEmulatorSecrets(loadConfig({ ...realProduction, NODE_ENV: 'development' }), { accessToken: 'a', clientSecret: 'b' }),
    ).toThrow(/only in local mode/);
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
    expect(c.mode).toBe('live');
  });

  it('is live in production, never local', () => {
    expect(loadConfig(realProduction).mode).toBe('live');
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

  describe('the admin password', () => {
    it('is required in production, listed with the other missing settings', () => {
      const { ADMIN_PASSWORD_HASH: _drop, ...rest } = realProduction;
      expect(() => loadConfig(rest)).toThrow(/missing required settings for production: ADMIN_PASSWORD_HASH$/m);
    });

    it('is required by a live shop outside production too, with how to make one', () => {
      const { ADMIN_PASSWORD_HASH: _drop, ...rest } = realProduction;
      expect(() => loadConfig({ ...rest, NODE_ENV: 'development' })).toThrow(/ADMIN_PASSWORD_HASH is not set: .*npm run admin:hash/);
    });

    it('is the configured hash when one is given, in any mode', () => {
      expect(loadConfig(realProduction).adminPassword).toEqual({ kind: 'configured', hash: ADMIN_HASH });
      const local = loadConfig({ ADMIN_PASSWORD_HASH: `  ${ADMIN_HASH} ` });
      expect(local.adminPassword).toEqual({ kind: 'configured', hash: ADMIN_HASH });
      expect(local.defaults.some((d) => d.startsWith('admin password'))).toBe(false);
      expect(() => withAdminPassword(local, ADMIN_HASH)).toThrow(/configured/);
    });

    it('is generated in local mode without a hash, kept in the data folder, and says so', () => {
      const c = loadConfig({ DATA_DIR: '/srv/pogs-data' });
      const file = path.resolve('/srv/pogs-data', 'admin-password.json');
      expect(c.adminPassword).toEqual({ kind: 'generated', file });
      expect(c.defaults).toContainEqual(expect.stringMatching(/^admin password: generated .*admin-password\.json.*npm run admin:hash/));
      expect(withAdminPassword(c, ADMIN_HASH).adminPassword).toEqual({ kind: 'generated', file, hash: ADMIN_HASH });
    });

    it('refuses a value that is not a hash line (a password pasted by mistake)', () => {
      expect(() => loadConfig({ ADMIN_PASSWORD_HASH: 'hunter2' })).toThrow(
        /ADMIN_PASSWORD_HASH: must be a line made by `npm run admin:hash`/,
      );
      expect(() => loadConfig({ ADMIN_PASSWORD_HASH: ADMIN_HASH.replace('$1024$', '$64$') })).toThrow(/ADMIN_PASSWORD_HASH: scrypt N/);
    });
  });

  describe('refuses a mix of real and demo settings outside production', () => {
    const chain = {
      BASE_RPC_URL: 'http://127.0.0.1:8545',
      POG_TOKEN_ADDRESS: '0x1111111111111111111111111111111111111111',
      STORE_WALLET_ADDRESS: '0x2222222222222222222222222222222222222222',
    };
    const store = { SHOPIFY_STORE_DOMAIN: 'pogs-store.myshopify.com', SHOPIFY_ADMIN_TOKEN: 'shpat_0123456789abcdef' };
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (err) {
        if (err instanceof ConfigError) return err.problems;
        throw err;
      }
      return [];
    };

    it.each(['development', 'test'])('a real chain without a store (%s): add the store, or remove the chain', (NODE_ENV) => {
      const [problem, ...rest] = problems({ NODE_ENV, ...chain });
      expect(rest).toEqual([]);
      expect(problem).toMatch(/no Shopify store/);
      expect(problem).toMatch(/Add SHOPIFY_STORE_DOMAIN, SHOPIFY_ADMIN_TOKEN and SHOPIFY_CLIENT_SECRET to run live/);
      expect(problem).toMatch(/remove BASE_RPC_URL, POG_TOKEN_ADDRESS, STORE_WALLET_ADDRESS to run the local demo/);
    });

    it('a real store without a chain: add the chain, or remove the store', () => {
      const [problem, ...rest] = problems({ ...store, SHOPIFY_CLIENT_SECRET: 'a-client-secret' });
      expect(rest).toEqual([]);
      expect(problem).toMatch(/no real chain/);
      expect(problem).toMatch(/Add BASE_RPC_URL, POG_TOKEN_ADDRESS and STORE_WALLET_ADDRESS to run live/);
      expect(problem).toMatch(/remove SHOPIFY_STORE_DOMAIN, SHOPIFY_ADMIN_TOKEN to run the local demo/);
    });

    it('a client secret alone', () => {
      expect(problems({ SHOPIFY_CLIENT_SECRET: 'a-client-secret' })).toEqual([
        expect.stringMatching(/SHOPIFY_CLIENT_SECRET .* remove it to run the local demo/),
      ]);
    });

    it('half a side with nothing on the other is both incomplete and mixed', () => {
      expect(problems({ BASE_RPC_URL: chain.BASE_RPC_URL })).toEqual([
        expect.stringMatching(/must be set together \(missing: POG_TOKEN_ADDRESS, STORE_WALLET_ADDRESS\)/),
        expect.stringMatching(/^real chain settings are given \(BASE_RPC_URL\) but no Shopify store/),
      ]);
    });

    it('every combination runs only as all-local or all-live', () => {
      const chainKeys = Object.keys(chain) as Array<keyof typeof chain>;
      const storeKeys = [...Object.keys(store), 'SHOPIFY_CLIENT_SECRET'];
      const all = { ...chain, ...store, SHOPIFY_CLIENT_SECRET: 'a-client-secret' } as Record<string, string>;
      const keys = [...chainKeys, ...storeKeys];
      for (let mask = 0; mask < 1 << keys.length; mask++) {
        const env = Object.fromEntries(keys.filter((_, i) => mask & (1 << i)).map((k) => [k, all[k]!]));
        const set = Object.keys(env);
        env.ADMIN_PASSWORD_HASH = ADMIN_HASH; // needed by live mode, allowed in local mode
        const ok = problems(env).length === 0;
        const expectedLocal = set.length === 0;
        const expectedLive = [...chainKeys, 'SHOPIFY_STORE_DOMAIN', 'SHOPIFY_ADMIN_TOKEN'].every((k) => set.includes(k));
        expect(ok, set.join(',') || '(nothing)').toBe(expectedLocal || expectedLive);
        if (ok) expect(loadConfig(env).mode).toBe(expectedLocal ? 'local' : 'live');
      }
    });

    it('names what is given on one side', () => {
      expect(mixedModeProblems({ chain: [], store: [], clientSecret: false })).toEqual([]);
      expect(mixedModeProblems({ chain: ['BASE_RPC_URL'], store: ['SHOPIFY_ADMIN_TOKEN'], clientSecret: true })).toEqual([]);
      expect(mixedModeProblems({ chain: [], store: ['SHOPIFY_ADMIN_TOKEN'], clientSecret: false })[0]).toMatch(
        /given \(SHOPIFY_ADMIN_TOKEN\)/,
      );
    });
  });
});
