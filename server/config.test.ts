import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { ConfigError, loadConfig, PRODUCTION_REQUIRED, withAdminPassword, withEmulatorSecrets } from './config';
import { mixedModeProblems, SHOPIFY_CREDENTIAL_MISSING } from './settings-problems';

/** A well-formed hash line (of "config-test", at a cheap cost): the config checks its form only. */
const ADMIN_HASH = 'scrypt$1024$8$1$475XHI1GYAbhmSdP3z6HeA==$g/ItdRHw4pbGv+PZUIfKl0x0OOHa2TPG2vYv0Xx9Q3c=';

const realProduction = {
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

/** The problems loadConfig refuses `env` with (none: it loads). */
function refused(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
}

const OTHER_ADDRESS = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

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

  it('binds the metrics listener to 127.0.0.1 unless METRICS_HOST names another address, and refuses one that is not an IP address', () => {
    expect(loadConfig({}).metricsHost).toBe('127.0.0.1');
    expect(loadConfig({ METRICS_HOST: '0.0.0.0' }).metricsHost).toBe('0.0.0.0');
    expect(loadConfig({ METRICS_HOST: '::1' }).metricsHost).toBe('::1');
    // HOST (the shop's own listener) does not move the metrics listener.
    expect(loadConfig({ HOST: '0.0.0.0' }).metricsHost).toBe('127.0.0.1');
    for (const bad of ['metrics.internal', '0.0.0.0:9464', '127.0.0.256', 'every']) {
      expect(() => loadConfig({ METRICS_HOST: bad })).toThrow(
        /METRICS_HOST.*must be an IP address to listen on: 127\.0\.0\.1 \(this machine only\), 0\.0\.0\.0/,
      );
    }
  });

  it('gives the emulator no built-in secrets: they come from a file in the data folder', () => {
    const c = loadConfig({ DATA_DIR: '/srv/pogs-data' });
    expect(c.shopify).toEqual({
      kind: 'emulator',
      apiVersion: '2026-07',
      mountPath: '/shopify-emulator',
      secretsFile: path.resolve('/srv/pogs-data', 'shopify-emulator-secrets.json'),
      demoProducts: 27,
    });
    const filled = withEmulatorSecrets(c, { accessToken: 'shpat_x', clientSecret: 'y' });
    expect(filled.shopify).toMatchObject({ accessToken: 'shpat_x', clientSecret: 'y' });
    expect(filled.mode).toBe('local');
    expect(() =>
      withEmulatorSecrets(loadConfig({ ...realProduction, NODE_ENV: 'development' }), { accessToken: 'a', clientSecret: 'b' }),
    ).toThrow(/only in local mode/);
  });

  it('grows the local demo store to LOCAL_DEMO_PRODUCTS products, never fewer than the demo or past 50,000', () => {
    const c = loadConfig({ LOCAL_DEMO_PRODUCTS: '20000' });
    expect(c.shopify).toMatchObject({ kind: 'emulator', demoProducts: 20_000 });
    expect(c.defaults.some((d) => d.startsWith('shopify: bundled emulator with the demo catalogue (20000 products)'))).toBe(true);
    expect(() => loadConfig({ LOCAL_DEMO_PRODUCTS: '10' })).toThrow(/LOCAL_DEMO_PRODUCTS.*at least 27/);
    expect(() => loadConfig({ LOCAL_DEMO_PRODUCTS: '50001' })).toThrow(/LOCAL_DEMO_PRODUCTS/);
    expect(() => loadConfig({ LOCAL_DEMO_PRODUCTS: 'many' })).toThrow(/LOCAL_DEMO_PRODUCTS/);
  });

  it('uses the real services when they are configured, with no default announced for them', () => {
    const c = loadConfig({ ...realProduction, NODE_ENV: 'development' });
    expect(c.database).toEqual({ kind: 'postgres', url: realProduction.DATABASE_URL, ssl: false });
    expect(c.shopify).toEqual({
      kind: 'store',
      storeDomain: 'pogs-store.myshopify.com',
      apiOrigin: 'https://pogs-store.myshopify.com',
      apiOriginConfigured: false,
      credential: { kind: 'client-credentials', clientId: realProduction.SHOPIFY_CLIENT_ID, clientSecret: 'a-client-secret' },
      apiVersion: '2026-07',
      clientSecret: 'a-client-secret',
    });
    expect(c.timeouts).toEqual({ shopifyMs: 20_000, chainRpcMs: 10_000, paymasterServiceMs: 10_000, pushMs: 10_000, webhookMs: 10_000 });
    // Order updates are off in a live shop without VAPID keys (the doctor says so).
    expect(c.push).toEqual({ kind: 'off' });
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
    expect(message).toContain(SHOPIFY_CREDENTIAL_MISSING);
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
    expect(() => loadConfig({ SHOPIFY_STORE_DOMAIN: 'pogs-store.myshopify.com' })).toThrow(/credential is missing/);
    expect(() => loadConfig({ BASE_RPC_URL: 'https://mainnet.base.org' })).toThrow(/missing: POG_TOKEN_ADDRESS, STORE_WALLET_ADDRESS/);
    expect(() => loadConfig({ RATE_LIMIT_SCALE: '-1' })).toThrow(/RATE_LIMIT_SCALE/);
    expect(() => loadConfig({ TRUSTED_PROXY_HOPS: '1.5' })).toThrow(/TRUSTED_PROXY_HOPS/);
  });

  it('believes no proxy hop anywhere, production included, unless told; rate limits at their real size', () => {
    expect(loadConfig(realProduction)).toMatchObject({ trustedProxyHops: 0, rateLimitScale: 1 });
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

  /** Sponsored gas's budget, per-account limit and extra wallets when nothing sets them. */
  const DEFAULT_SPONSORSHIP = {
    dailyBudgetWei: 10_000_000_000_000_000n,
    senderDailyLimit: 5,
    extraWallets: { factories: [], implementations: [], proxyCodeHashes: [] },
  };

  it('bounds sponsored gas by a daily budget in ETH and a daily limit per account, and takes more wallets as lists', () => {
    expect(loadConfig({}).sponsorship).toEqual(DEFAULT_SPONSORSHIP);
    const factory = '0x0BA5ED0c6AA8c49038F819E587E2633c4A9F428a';
    const hash = `0x${'ab'.repeat(32)}`;
    expect(
      loadConfig({
        PAYMASTER_DAILY_BUDGET_ETH: '0.25',
        PAYMASTER_SENDER_DAILY_LIMIT: '3',
        PAYMASTER_ACCOUNT_FACTORIES: ` ${factory} ,${OTHER_ADDRESS}`,
        PAYMASTER_ACCOUNT_PROXY_CODEHASHES: hash,
      }).sponsorship,
    ).toEqual({
      dailyBudgetWei: 250_000_000_000_000_000n,
      senderDailyLimit: 3,
      extraWallets: { factories: [factory, OTHER_ADDRESS], implementations: [], proxyCodeHashes: [hash] },
    });
    expect(refused({ PAYMASTER_DAILY_BUDGET_ETH: '0' })).toEqual([
      expect.stringMatching(/^PAYMASTER_DAILY_BUDGET_ETH: must be more than 0/),
    ]);
    expect(refused({ PAYMASTER_DAILY_BUDGET_ETH: '1e18' })).toEqual([
      expect.stringMatching(/^PAYMASTER_DAILY_BUDGET_ETH: must be an amount of ETH/),
    ]);
    expect(refused({ PAYMASTER_SENDER_DAILY_LIMIT: '0' })).toEqual([expect.stringMatching(/^PAYMASTER_SENDER_DAILY_LIMIT:/)]);
    expect(refused({ PAYMASTER_ACCOUNT_IMPLEMENTATIONS: `${factory},nope` })).toEqual([
      expect.stringMatching(/^PAYMASTER_ACCOUNT_IMPLEMENTATIONS\.1: must be 0x-prefixed 20-byte addresses/),
    ]);
  });

  it('turns the paymaster on with its address and signer key together, and refuses one alone or a malformed key', () => {
    const key = `0x${'ab'.repeat(32)}`;
    const address = '0x3333333333333333333333333333333333333333';
    expect(loadConfig({}).paymaster).toBeNull();
    expect(loadConfig({ PAYMASTER_ADDRESS: address, PAYMASTER_SIGNER_KEY: key }).paymaster).toEqual({
      entryPoint: '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108',
      sponsor: { kind: 'verifying', address, signerKey: key },
      ...DEFAULT_SPONSORSHIP,
    });
    expect(refused({ PAYMASTER_ADDRESS: address })).toEqual([
      expect.stringMatching(/PAYMASTER_ADDRESS and PAYMASTER_SIGNER_KEY must be set together/),
    ]);
    expect(refused({ PAYMASTER_SIGNER_KEY: key })).toEqual([expect.stringMatching(/must be set together/)]);
    const malformed = refused({ PAYMASTER_ADDRESS: address, PAYMASTER_SIGNER_KEY: '0x1234' });
    expect(malformed).toEqual([expect.stringMatching(/^PAYMASTER_SIGNER_KEY: must be a 0x-prefixed 32-byte private key$/)]);
    // The key's value is never repeated in a problem.
    expect(refused({ PAYMASTER_ADDRESS: 'nope', PAYMASTER_SIGNER_KEY: key }).join(' ')).not.toContain(key.slice(4));
  });

  describe('a hosted paymaster service instead of the shop’s own paymaster', () => {
    const own = { PAYMASTER_ADDRESS: '0x3333333333333333333333333333333333333333', PAYMASTER_SIGNER_KEY: `0x${'ab'.repeat(32)}` };
    const apiKey = 'cdpClientKey0123456789abcdef';
    const hosted = { PAYMASTER_SERVICE_URL: `https://api.developer.coinbase.com/rpc/v1/base/${apiKey}` };

    it('turns sponsored gas on with the URL alone, or with a header key and a policy', () => {
      expect(loadConfig(hosted).paymaster).toEqual({
        entryPoint: '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108',
        sponsor: { kind: 'hosted', url: hosted.PAYMASTER_SERVICE_URL },
        ...DEFAULT_SPONSORSHIP,
      });
      const withAll = {
        PAYMASTER_SERVICE_URL: 'https://paymaster.example/v2/base',
        PAYMASTER_SERVICE_KEY: apiKey,
        PAYMASTER_POLICY_ID: 'sp_x',
      };
      expect(loadConfig({ ...realProduction, ...withAll }).paymaster?.sponsor).toEqual({
        kind: 'hosted',
        url: withAll.PAYMASTER_SERVICE_URL,
        key: apiKey,
        policyId: 'sp_x',
      });
    });

    it('is off with neither sponsor', () => {
      expect(loadConfig({}).paymaster).toBeNull();
      expect(loadConfig(realProduction).paymaster).toBeNull();
    });

    it('refuses both sponsors at once, in production too, naming the settings', () => {
      for (const env of [
        { ...own, ...hosted },
        { ...realProduction, ...own, ...hosted },
      ]) {
        const problems = refused(env);
        expect(problems).toEqual([
          expect.stringMatching(/both the shop's own paymaster .* and a hosted one \(PAYMASTER_SERVICE_URL\) are set/),
        ]);
        expect(problems.join(' ')).not.toContain(apiKey);
      }
      expect(refused({ ...hosted, PAYMASTER_ADDRESS: own.PAYMASTER_ADDRESS })).toHaveLength(2);
    });

    it('refuses a key or a policy without the URL, a plain-http URL off loopback, and never repeats the URL or key', () => {
      expect(refused({ PAYMASTER_SERVICE_KEY: apiKey })).toEqual([
        expect.stringMatching(/^PAYMASTER_SERVICE_KEY belongs to a hosted paymaster/),
      ]);
      expect(refused({ PAYMASTER_POLICY_ID: 'sp_x' })).toEqual([
        expect.stringMatching(/^PAYMASTER_POLICY_ID belongs to a hosted paymaster/),
      ]);
      const plain = refused({ ...realProduction, PAYMASTER_SERVICE_URL: `http://paymaster.example/rpc/${apiKey}` });
      expect(plain).toEqual([expect.stringMatching(/^PAYMASTER_SERVICE_URL must be https:\/\//)]);
      expect(loadConfig({ PAYMASTER_SERVICE_URL: `http://127.0.0.1:4337/rpc/${apiKey}` }).paymaster?.sponsor.kind).toBe('hosted');
      expect(refused({ PAYMASTER_SERVICE_URL: `https://paymaster.example:6000/${apiKey}` })).toEqual([
        expect.stringMatching(/PAYMASTER_SERVICE_URL uses port 6000/),
      ]);
      const malformed = [
        ...refused({ PAYMASTER_SERVICE_URL: `ftp://paymaster.example/${apiKey}` }),
        ...refused({ PAYMASTER_SERVICE_URL: `not a url ${apiKey}` }),
        ...refused({ ...hosted, PAYMASTER_SERVICE_KEY: `${apiKey} with spaces` }),
      ];
      expect(malformed).toHaveLength(3);
      expect(malformed.join(' ')).not.toContain(apiKey);
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
      expect(problem).toMatch(
        /Add SHOPIFY_STORE_DOMAIN, SHOPIFY_CLIENT_ID and SHOPIFY_CLIENT_SECRET \(or a legacy app's SHOPIFY_ADMIN_TOKEN\) to run live/,
      );
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

    it('every combination runs only as all-local or all-live, with exactly one kind of Shopify credential', () => {
      const chainKeys = Object.keys(chain) as Array<keyof typeof chain>;
      const all = {
        ...chain,
        ...store,
        SHOPIFY_CLIENT_ID: '0123456789abcdef0123456789abcdef',
        SHOPIFY_CLIENT_SECRET: 'a-client-secret',
      } as Record<string, string>;
      const keys = Object.keys(all);
      for (let mask = 0; mask < 1 << keys.length; mask++) {
        const env = Object.fromEntries(keys.filter((_, i) => mask & (1 << i)).map((k) => [k, all[k]!]));
        const set = Object.keys(env);
        const has = (k: string) => set.includes(k);
        env.ADMIN_PASSWORD_HASH = ADMIN_HASH; // needed by live mode, allowed in local mode
        const ok = problems(env).length === 0;
        const expectedLocal = set.length === 0;
        const oneCredential = has('SHOPIFY_ADMIN_TOKEN') !== has('SHOPIFY_CLIENT_ID');
        const expectedLive =
          chainKeys.every(has) &&
          has('SHOPIFY_STORE_DOMAIN') &&
          oneCredential &&
          (!has('SHOPIFY_CLIENT_ID') || has('SHOPIFY_CLIENT_SECRET'));
        expect(ok, set.join(',') || '(nothing)').toBe(expectedLocal || expectedLive);
        if (ok) {
          const config = loadConfig(env);
          expect(config.mode).toBe(expectedLocal ? 'local' : 'live');
          if (config.shopify.kind === 'store') {
            expect(config.shopify.credential.kind).toBe(has('SHOPIFY_CLIENT_ID') ? 'client-credentials' : 'static-token');
          }
        }
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

  describe('the Shopify credential', () => {
    const live = { ...realProduction, NODE_ENV: 'development' };
    const { SHOPIFY_CLIENT_ID: _id, ...legacy } = { ...live, SHOPIFY_ADMIN_TOKEN: 'shpat_0123456789abcdef' };

    it("takes a legacy custom app's static token, with the client secret for webhooks", () => {
      expect(loadConfig(legacy).shopify).toMatchObject({
        kind: 'store',
        credential: { kind: 'static-token', accessToken: 'shpat_0123456789abcdef' },
        clientSecret: 'a-client-secret',
      });
    });

    it('refuses both kinds at once, and neither, saying which to give', () => {
      expect(() => loadConfig({ ...live, SHOPIFY_ADMIN_TOKEN: 'shpat_0123456789abcdef' })).toThrow(/give one kind of Shopify credential/);
      const { SHOPIFY_CLIENT_ID: _drop, ...neither } = live;
      expect(() => loadConfig(neither)).toThrow(/set SHOPIFY_CLIENT_ID \(with SHOPIFY_CLIENT_SECRET\).*or SHOPIFY_ADMIN_TOKEN/);
      const { SHOPIFY_CLIENT_ID: _again, ...prodNeither } = realProduction;
      expect(() => loadConfig(prodNeither)).toThrow(SHOPIFY_CREDENTIAL_MISSING);
    });

    it('needs the client secret beside the client id', () => {
      const { SHOPIFY_CLIENT_SECRET: _drop, ...noSecret } = live;
      expect(() => loadConfig(noSecret)).toThrow(/SHOPIFY_CLIENT_ID needs SHOPIFY_CLIENT_SECRET/);
      expect(() => loadConfig({ ...realProduction, SHOPIFY_CLIENT_SECRET: '' })).toThrow(
        /missing required settings for production: SHOPIFY_CLIENT_SECRET$/m,
      );
    });

    it('reaches the store at its domain, or at SHOPIFY_API_ORIGIN when given', () => {
      expect(loadConfig({ ...realProduction, SHOPIFY_API_ORIGIN: 'https://127.0.0.1:8443/' }).shopify).toMatchObject({
        storeDomain: 'pogs-store.myshopify.com',
        apiOrigin: 'https://127.0.0.1:8443',
        apiOriginConfigured: true,
      });
      expect(() => loadConfig({ ...realProduction, SHOPIFY_API_ORIGIN: 'https://egress.internal/shopify' })).toThrow(/origin only/);
      expect(() => loadConfig({ ...realProduction, SHOPIFY_API_ORIGIN: 'http://egress.internal' })).toThrow(
        /SHOPIFY_API_ORIGIN must be https:\/\/ \(found http:\/\/egress.internal\)/,
      );
      expect(loadConfig({ ...realProduction, SHOPIFY_API_ORIGIN: 'http://127.0.0.1:8443' }).shopify).toMatchObject({
        apiOrigin: 'http://127.0.0.1:8443',
      });
      expect(() => loadConfig({ ...realProduction, SHOPIFY_API_ORIGIN: 'https://127.0.0.1:6000' })).toThrow(/port 6000.*bad port/);
      expect(() => loadConfig({ SHOPIFY_API_ORIGIN: 'https://127.0.0.1:8443' })).toThrow(/no store is given/);
    });
  });

  describe('checks that need no network', () => {
    it('a live shop is reached over https, or plain http on this machine only', () => {
      expect(() => loadConfig({ ...realProduction, PUBLIC_URL: 'http://shop.pogs.example' })).toThrow(
        /PUBLIC_URL must be https:\/\/ for a live shop \(found http:\/\/shop.pogs.example\)/,
      );
      for (const url of ['http://localhost:3000', 'http://127.0.0.1:4000', 'http://[::1]:3000']) {
        expect(loadConfig({ ...realProduction, PUBLIC_URL: url }).publicUrl).toBe(url);
      }
      // The local demo is not live: http on the network is fine for a phone on the same Wi-Fi.
      expect(loadConfig({ PUBLIC_URL: 'http://192.168.1.20:3000' }).publicUrl).toBe('http://192.168.1.20:3000');
    });

    it("refuses a port Node's fetch will not call when the demo must call itself on it", () => {
      expect(() => loadConfig({ PORT: '6000' })).toThrow(/PORT 6000 is a port Node's fetch refuses to call/);
      expect(() => loadConfig({ ...realProduction, BASE_RPC_URL: 'http://127.0.0.1:6665' })).toThrow(/BASE_RPC_URL uses port 6665/);
      expect(loadConfig({ ...realProduction, PORT: '6000' }).port).toBe(6000);
    });

    it('has timeouts for its outbound calls, as settings', () => {
      expect(
        loadConfig({
          SHOPIFY_TIMEOUT_MS: '5000',
          CHAIN_RPC_TIMEOUT_MS: '2500',
          PAYMASTER_SERVICE_TIMEOUT_MS: '3000',
          PUSH_TIMEOUT_MS: '4000',
          WEBHOOK_TIMEOUT_MS: '4500',
        }).timeouts,
      ).toEqual({
        shopifyMs: 5000,
        chainRpcMs: 2500,
        paymasterServiceMs: 3000,
        pushMs: 4000,
        webhookMs: 4500,
      });
      expect(() => loadConfig({ CHAIN_RPC_TIMEOUT_MS: '0' })).toThrow(/CHAIN_RPC_TIMEOUT_MS/);
    });
  });
});
