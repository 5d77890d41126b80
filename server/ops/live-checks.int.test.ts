// The live start checks (and `npm run doctor`'s) against real parts: anvil with a real ERC-20, the
// Shopify emulator granting client-credentials tokens, reached through the shop's own Shopify
// client as a live shop builds it (storeClient). Also the client-credentials client itself: a
// token refused with 401 is renewed once and the call retried, concurrent calls share that
// renewal, and a short-lived token is renewed before it ends.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ContractFactory, Wallet } from 'ethers';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BASE_CHAIN_ID } from '../../common/chain';
import { createShopifyEmulator, type ShopifyEmulator, type ShopifyEmulatorOptions } from '../../emulators/shopify';
import artifact from '../chain/contracts/demo-pogs-token.json';
import { DEV_ACCOUNTS } from '../chain/local-chain';
import { loadConfig, type Config, type StoreShopifyConfig } from '../config';
import { liveStartLine, runLiveChecks, type CheckResult } from './live-checks';
import { createLogger } from '../lib/logger';
import { ChainClient } from '../modules/payments';
import { WEBHOOK_SUBSCRIPTIONS_QUERY } from '../shopify';
import { useTestChain } from '../test/use-test-chain';
import { storeClient } from '../wiring';
import { deployed } from '../chain/mined';

const CLIENT_ID = '0123456789abcdef0123456789abcdef';
const CLIENT_SECRET = 'live-checks-client-secret';
const STORE = 'demo-shop.myshopify.com';
const ADMIN_HASH = 'scrypt$1024$8$1$475XHI1GYAbhmSdP3z6HeA==$g/ItdRHw4pbGv+PZUIfKl0x0OOHa2TPG2vYv0Xx9Q3c=';
const logger = createLogger({ level: 'silent' });

type LiveConfig = Config & { mode: 'live'; shopify: StoreShopifyConfig };

const testChain = useTestChain();
let tokenAddress: string;
const servers: Server[] = [];
const cleanups: Array<() => void> = [];

beforeAll(async () => {
  const factory = new ContractFactory(artifact.abi, artifact.bytecode, await testChain.provider.getSigner(DEV_ACCOUNTS[0]));
  const token = await factory.deploy([DEV_ACCOUNTS[1]], 10n ** 18n);
  await deployed(token);
  tokenAddress = await token.getAddress();
});

afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});
afterAll(async () => {
  for (const s of servers) await new Promise((resolve) => s.close(resolve));
});

async function listen(handler?: Parameters<typeof createServer>[1]): Promise<{ server: Server; origin: string }> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function startEmulator(opts: Partial<ShopifyEmulatorOptions> = {}): Promise<{ emulator: ShopifyEmulator; origin: string }> {
  const { server, origin } = await listen();
  const emulator = createShopifyEmulator({ publicOrigin: origin, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, ...opts });
  server.on('request', emulator.app.callback());
  return { emulator, origin };
}

function liveConfig(env: Record<string, string>): LiveConfig {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://localhost:4000',
    BASE_RPC_URL: testChain.chain.rpcUrl,
    POG_TOKEN_ADDRESS: tokenAddress,
    STORE_WALLET_ADDRESS: DEV_ACCOUNTS[3],
    SHOPIFY_STORE_DOMAIN: STORE,
    SHOPIFY_CLIENT_ID: CLIENT_ID,
    SHOPIFY_CLIENT_SECRET: CLIENT_SECRET,
    ADMIN_PASSWORD_HASH: ADMIN_HASH,
    CHAIN_RPC_TIMEOUT_MS: '1500',
    SHOPIFY_TIMEOUT_MS: '3000',
    ...env,
  });
  if (config.mode !== 'live') throw new Error('expected live settings');
  return config as LiveConfig;
}

/** Runs the checks as main.ts (subscribe) or the doctor (look only) would. */
async function check(config: LiveConfig, subscribe = true) {
  const { rpcUrl, tokenAddress: token, storeWallet } = config.chain;
  const chain = new ChainClient({
    rpcUrl,
    chainId: BASE_CHAIN_ID,
    tokenAddress: token,
    storeWallet,
    timeoutMs: config.timeouts.chainRpcMs,
  });
  const shopify = storeClient(config, logger);
  cleanups.push(() => {
    chain.destroy();
    shopify.tokens.stop();
  });
  const started = Date.now();
  const out = await runLiveChecks({ config, chain, shopify, webhookUri: `${config.publicUrl}/api/webhooks/shopify`, subscribe, logger });
  return { ...out, ms: Date.now() - started, shopify };
}

const named = (results: CheckResult[], name: string) => results.find((r) => r.name === name);
const failures = (results: CheckResult[]) => results.filter((r) => r.status !== 'ok').map((r) => `${r.name}: ${r.found}`);

describe('the live start checks', () => {
  it('pass for a Base chain, an 18-decimal token and a store that grants a token, and say what the shop runs with', async () => {
    const { emulator, origin } = await startEmulator();
    const config = liveConfig({ SHOPIFY_API_ORIGIN: origin });
    const { results, facts, shopify } = await check(config);
    expect(failures(results)).toEqual([]);
    expect(results.map((r) => r.name)).toEqual([
      'public URL',
      'chain id',
      'token decimals',
      'token symbol',
      'dollar reference',
      'pay with ETH or USDC',
      'Shopify access token',
      'Shopify store',
      'Shopify webhooks',
    ]);
    expect(named(results, 'token symbol')!.found).toBe('POGS');
    expect(named(results, 'dollar reference')!.found).toMatch(/^off \(PRICE_REFERENCE_POOL is not set\)/);
    expect(named(results, 'pay with ETH or USDC')!.found).toMatch(/^off \(SWAP_ETH_PATH and SWAP_USDC_PATH are not set\)/);
    expect(named(results, 'Shopify access token')!.found).toContain('read_products, read_inventory, write_draft_orders, read_orders');
    expect(emulator.accessTokenGrants).toHaveLength(1);
    const line = liveStartLine(config, facts);
    expect(line).toBe(
      `live: chain 8453 via ${new URL(testChain.chain.rpcUrl).host}, token POGS at ${tokenAddress}, store wallet ${DEV_ACCOUNTS[3]}, 3 confirmations, Shopify store ${STORE}, Shopify API at ${origin}, client-credentials token`,
    );
    expect(line).not.toContain(CLIENT_SECRET);
    // The webhooks were subscribed to the shop's public address, every order topic it reads.
    const { data } = await shopify.query<{ webhookSubscriptions: { nodes: Array<{ topic: string; uri: string }> } }>(
      WEBHOOK_SUBSCRIPTIONS_QUERY,
      { first: 10 },
    );
    expect(data.webhookSubscriptions.nodes.map((n) => [n.topic, n.uri]).sort()).toEqual(
      [
        'DRAFT_ORDERS_UPDATE',
        'FULFILLMENTS_CREATE',
        'INVENTORY_LEVELS_UPDATE',
        'ORDERS_CREATE',
        'ORDERS_FULFILLED',
        'PRODUCTS_CREATE',
        'PRODUCTS_DELETE',
        'PRODUCTS_UPDATE',
      ].map((t) => [t, 'http://localhost:4000/api/webhooks/shopify']),
    );
  });

  it('the doctor only looks: before a first start the webhooks are a warning, and nothing is subscribed', async () => {
    const { origin } = await startEmulator();
    const config = liveConfig({ SHOPIFY_API_ORIGIN: origin });
    const { results, shopify } = await check(config, false);
    expect(named(results, 'Shopify webhooks')).toMatchObject({
      status: 'warn',
      found: expect.stringMatching(/^no subscription to http:\/\/localhost:4000\/api\/webhooks\/shopify for /),
    });
    const { data } = await shopify.query<{ webhookSubscriptions: { nodes: unknown[] } }>(WEBHOOK_SUBSCRIPTIONS_QUERY, { first: 10 });
    expect(data.webhookSubscriptions.nodes).toEqual([]);
    expect(failures(results)).toEqual([expect.stringMatching(/^Shopify webhooks: /)]);
  });

  it('refuses an address with no contract behind it', async () => {
    const { origin } = await startEmulator();
    const eoa = Wallet.createRandom().address;
    const { results } = await check(liveConfig({ SHOPIFY_API_ORIGIN: origin, POG_TOKEN_ADDRESS: eoa }));
    expect(named(results, 'token contract')).toEqual({
      name: 'token contract',
      status: 'fail',
      found: `no contract at ${eoa} on chain 8453`,
      fix: 'POG_TOKEN_ADDRESS must be the $POGS ERC-20 contract on Base',
    });
    expect(named(results, 'token decimals')).toBeUndefined();
  });

  it('refuses a token whose decimals are not 18, and one with no symbol', async () => {
    const { origin } = await startEmulator();
    // A contract that answers every call with the word 6: decimals() is 6, symbol() is no string.
    const six = Wallet.createRandom().address;
    await testChain.provider.send('anvil_setCode', [six, '0x600660005260206000f3']);
    const { results } = await check(liveConfig({ SHOPIFY_API_ORIGIN: origin, POG_TOKEN_ADDRESS: six }));
    expect(named(results, 'token decimals')).toMatchObject({
      status: 'fail',
      found: '6',
      fix: expect.stringContaining('decimals() answered 6, expected 18'),
    });
    expect(named(results, 'token symbol')).toMatchObject({ status: 'fail', found: expect.stringMatching(/^symbol\(\) failed: /) });
  });

  it("refuses a swap route while Base's router is not on the chain, naming the setting", async () => {
    const { origin } = await startEmulator();
    const { results } = await check(
      liveConfig({ SHOPIFY_API_ORIGIN: origin, SWAP_ETH_PATH: '0x4200000000000000000000000000000000000006:3000' }),
    );
    expect(named(results, 'pay with ETH or USDC')).toMatchObject({
      status: 'fail',
      found: 'no contract at 0x2626664c2603336E57B271c5C0b26F421741e481 (SWAP_ROUTER)',
      fix: expect.stringContaining("SWAP_ROUTER must be Uniswap's SwapRouter02 on Base"),
    });
  });

  it('refuses a chain that is not Base', async () => {
    const { origin } = await startEmulator();
    await testChain.provider.send('anvil_setChainId', [84532]);
    try {
      const { results } = await check(liveConfig({ SHOPIFY_API_ORIGIN: origin }));
      expect(named(results, 'chain id')).toMatchObject({
        status: 'fail',
        found: `84532 at ${new URL(testChain.chain.rpcUrl).host}`,
        fix: expect.stringContaining('chain id 8453'),
      });
    } finally {
      await testChain.provider.send('anvil_setChainId', [BASE_CHAIN_ID]);
    }
  });

  it('says so, within the RPC timeout, when the RPC does not answer, naming its host and never its path', async () => {
    const { origin } = await startEmulator();
    // Accepts connections and never answers.
    const hung = await listen(() => {});
    const { results, ms } = await check(liveConfig({ SHOPIFY_API_ORIGIN: origin, BASE_RPC_URL: `${hung.origin}/v2/secret-api-key` }));
    const rpc = named(results, 'chain RPC')!;
    expect(rpc.status).toBe('fail');
    expect(rpc.found).toBe(`${new URL(hung.origin).host} did not answer: timeout after 1.5 s`);
    expect(JSON.stringify(results)).not.toContain('secret-api-key');
    expect(ms).toBeLessThan(2 * 1500);
  });

  it('refuses credentials Shopify refuses, saying where to find the right ones', async () => {
    const { origin, emulator } = await startEmulator();
    const { results } = await check(liveConfig({ SHOPIFY_API_ORIGIN: origin, SHOPIFY_CLIENT_SECRET: 'not-the-secret' }));
    expect(named(results, 'Shopify access token')).toMatchObject({
      status: 'fail',
      found: expect.stringMatching(
        /^Shopify refused the client-credentials grant \(invalid_client.*\): check SHOPIFY_CLIENT_ID and SHOPIFY_CLIENT_SECRET/,
      ),
    });
    expect(JSON.stringify(results)).not.toContain('not-the-secret');
    expect(emulator.accessTokenGrants).toHaveLength(0);
  });

  it('refuses a grant that lacks a scope the shop needs, naming it', async () => {
    const { origin } = await startEmulator({ grantedScopes: ['read_products', 'read_orders'] });
    const { results } = await check(liveConfig({ SHOPIFY_API_ORIGIN: origin }));
    expect(named(results, 'Shopify access scopes')).toMatchObject({
      status: 'fail',
      found: 'granted read_products, read_orders; missing read_inventory, write_draft_orders',
    });
  });

  it('refuses a token for another store than SHOPIFY_STORE_DOMAIN', async () => {
    const { origin } = await startEmulator();
    const { results } = await check(liveConfig({ SHOPIFY_API_ORIGIN: origin, SHOPIFY_STORE_DOMAIN: 'other-shop.myshopify.com' }));
    expect(named(results, 'Shopify store')).toMatchObject({
      status: 'fail',
      found: `the token is for ${STORE}, not other-shop.myshopify.com`,
    });
  });

  it('says when the Shopify API does not answer, within the Shopify timeout', async () => {
    const hung = await listen(() => {});
    const { results, ms } = await check(liveConfig({ SHOPIFY_API_ORIGIN: hung.origin }));
    expect(named(results, 'Shopify access token')).toMatchObject({
      status: 'fail',
      found: `Shopify's token endpoint (${hung.origin}) did not answer: no answer within 3 s`,
    });
    expect(ms).toBeLessThan(2 * 3000);
  });

  it('checks a legacy static token the same way', async () => {
    const { origin } = await startEmulator({ accessToken: 'shpat_legacy_token_0123456789' });
    const config = liveConfig({ SHOPIFY_API_ORIGIN: origin, SHOPIFY_CLIENT_ID: '', SHOPIFY_ADMIN_TOKEN: 'shpat_legacy_token_0123456789' });
    const { results, facts } = await check(config);
    expect(failures(results)).toEqual([]);
    expect(liveStartLine(config, facts)).toMatch(/, legacy static token$/);
    const wrong = liveConfig({ SHOPIFY_API_ORIGIN: origin, SHOPIFY_CLIENT_ID: '', SHOPIFY_ADMIN_TOKEN: 'shpat_wrong_token_0123456789' });
    const refused = await check(wrong);
    expect(named(refused.results, 'Shopify store')).toMatchObject({
      status: 'fail',
      found: 'Shopify refused the access token (HTTP 401); check SHOPIFY_ADMIN_TOKEN',
    });
  });
});

describe('the doctor’s database check', () => {
  const run = async (database: Parameters<typeof runLiveChecks>[0]['database']) => {
    const { origin } = await startEmulator();
    const config = liveConfig({ SHOPIFY_API_ORIGIN: origin });
    const chain = new ChainClient({ rpcUrl: config.chain.rpcUrl, chainId: BASE_CHAIN_ID, tokenAddress, storeWallet: DEV_ACCOUNTS[3] });
    const shopify = storeClient(config, logger);
    cleanups.push(() => {
      chain.destroy();
      shopify.tokens.stop();
    });
    const { results } = await runLiveChecks({
      config,
      chain,
      shopify,
      webhookUri: 'http://localhost:4000/api/webhooks/shopify',
      subscribe: false,
      database,
      logger,
    });
    return named(results, 'database');
  };

  it('says when Postgres cannot be reached, and what to change', async () => {
    expect(await run({ kind: 'postgres', url: 'postgres://postgres@127.0.0.1:1/shop', ssl: false })).toMatchObject({
      status: 'fail',
      fix: 'DATABASE_URL must reach a Postgres the shop may write to',
    });
  });

  it.runIf(process.env.TEST_DATABASE_URL)('passes when Postgres answers, and names no password', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    expect(await run({ kind: 'postgres', url: url.toString(), ssl: false })).toEqual({
      name: 'database',
      status: 'ok',
      found: `Postgres at ${url.host} answers`,
    });
    url.pathname = '/no_such_database_here';
    expect(await run({ kind: 'postgres', url: url.toString(), ssl: false })).toMatchObject({
      status: 'fail',
      found: 'database "no_such_database_here" does not exist',
    });
  });
});

describe('a live shop’s Shopify client with client credentials', () => {
  const SHOP = /* GraphQL */ `
    query Shop {
      shop {
        name
      }
    }
  `;

  it('renews a token Shopify refused (401) once, and sends the call again', async () => {
    const { emulator, origin } = await startEmulator();
    const shopify = storeClient(liveConfig({ SHOPIFY_API_ORIGIN: origin }), logger);
    cleanups.push(() => shopify.tokens.stop());
    await shopify.query(SHOP, {});
    expect(emulator.accessTokenGrants).toHaveLength(1);
    expect(emulator.expireAccessTokens()).toBe(1);
    const { data } = await shopify.query<{ shop: { name: string } }>(SHOP, {});
    expect(data.shop.name).toBe('POGS Demo Shop');
    expect(emulator.accessTokenGrants).toHaveLength(2);
    expect(emulator.requestLog.map((e) => e.status)).toEqual([200, 401, 200]);
  });

  it('calls that meet the same 401 share one renewal', async () => {
    const { emulator, origin } = await startEmulator();
    const shopify = storeClient(liveConfig({ SHOPIFY_API_ORIGIN: origin }), logger);
    cleanups.push(() => shopify.tokens.stop());
    await shopify.query(SHOP, {});
    emulator.expireAccessTokens();
    const answers = await Promise.all(Array.from({ length: 6 }, () => shopify.query<{ shop: { name: string } }>(SHOP, {})));
    expect(answers.map((a) => a.data.shop.name)).toEqual(Array(6).fill('POGS Demo Shop'));
    expect(emulator.accessTokenGrants).toHaveLength(2);
  });

  it('a token refused again right after its renewal is an error, not a loop', async () => {
    // Every reading of the emulator's clock is 100 days after the last: each token has ended by its
    // first use, as when the app was uninstalled from the store.
    let clock = Date.now();
    const { emulator, origin } = await startEmulator({ now: () => (clock += 100 * 86_400_000) });
    const shopify = storeClient(liveConfig({ SHOPIFY_API_ORIGIN: origin }), logger);
    cleanups.push(() => shopify.tokens.stop());
    await expect(shopify.query(SHOP, {})).rejects.toThrow(
      'Shopify refused a freshly granted access token (HTTP 401); check that the app is installed on the store',
    );
    expect(emulator.accessTokenGrants).toHaveLength(2);
    expect(emulator.requestLog.map((e) => e.status)).toEqual([401, 401]);
  });

  it('renews a short-lived token before it ends: Shopify never has to refuse one', async () => {
    const { emulator, origin } = await startEmulator({ tokenTtlSeconds: 1 });
    const shopify = storeClient(liveConfig({ SHOPIFY_API_ORIGIN: origin }), logger);
    cleanups.push(() => shopify.tokens.stop());
    const until = Date.now() + 2_600;
    while (Date.now() < until) {
      await shopify.query(SHOP, {});
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(emulator.accessTokenGrants.length).toBeGreaterThanOrEqual(3);
    expect(emulator.requestLog.filter((e) => e.status !== 200)).toEqual([]);
  });
});
