/**
 * What a live shop checks before it takes a payment, and what `npm run doctor` prints: the chain
 * is Base, the token is an 18-decimal ERC-20 with a symbol, Shopify grants a token (or the legacy
 * token works) for the store the settings name, and Shopify will tell the shop about its orders.
 * Each check says what it expected, what it found and, when it fails, what to change. The start
 * refuses on any failure; the doctor prints them all.
 *
 * Nothing here prints a secret: the RPC is named by its host only (an RPC URL often carries an API
 * key), and the Shopify credential by its kind.
 */
import { Contract } from 'ethers';
import { BASE_CHAIN_ID } from '../../common/chain';
import type { Config, DatabaseConfig, StoreShopifyConfig } from '../config';
import pg from 'pg';
import { isLoopbackHost } from '../lib/hosts';
import type { Logger } from '../lib/logger';
import { unavailableCause } from '../lib/unavailable';
import { ClientCredentialsToken, SHOP_QUERY, type ShopifyGraphql, type ShopResult } from '../shopify';
import type { ChainClient } from '../modules/payments';
import { missingWebhookTopics, subscribeShopifyWebhooks } from '../modules/orders';
import { priceReferenceChecks } from './price-reference-checks';
import { swapChecks } from './swap-checks';

export interface CheckResult {
  /** What is checked, in a few words ("chain id", "token contract", …). */
  name: string;
  /** `warn`: worth a look, but the shop starts (the doctor's webhooks before a first start). */
  status: 'ok' | 'warn' | 'fail';
  /** What was found (on success, the value; otherwise what went wrong). */
  found: string;
  /** Unless ok: what was expected and what to change. */
  fix?: string;
}

/** The scopes the shop's Shopify calls need (the catalogue sync, its stock, the hand-off, order webhooks). */
export const REQUIRED_SCOPES = ['read_products', 'read_inventory', 'write_draft_orders', 'read_orders'] as const;

const ERC20 = ['function decimals() view returns (uint8)', 'function symbol() view returns (string)'];

/** The RPC's host alone: an RPC URL often carries an API key in its path or query. */
export function rpcHost(rpcUrl: string): string {
  try {
    return new URL(rpcUrl).host;
  } catch {
    return 'the configured RPC';
  }
}

const reason = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 300);

export interface LiveCheckDeps {
  config: Config & { mode: 'live'; shopify: StoreShopifyConfig };
  chain: ChainClient;
  shopify: ShopifyGraphql;
  /** The webhook endpoint Shopify must deliver to (`${PUBLIC_URL}/api/webhooks/shopify`). */
  webhookUri: string;
  /** The shop subscribes its webhooks before checking them; the doctor only looks. */
  subscribe: boolean;
  /** When given, the database is checked too (the doctor; the shop has just migrated it). */
  database?: DatabaseConfig;
  logger: Logger;
}

/** What the checks learnt that the start line reports. */
export interface LiveFacts {
  symbol: string | null;
  shopName: string | null;
}

export async function runLiveChecks(deps: LiveCheckDeps): Promise<{ results: CheckResult[]; facts: LiveFacts }> {
  const facts: LiveFacts = { symbol: null, shopName: null };
  const [chainResults, shopifyResults, dbResults] = await Promise.all([
    // The dollar reference and the swap routes are read on the chain the checks before it found to be Base's.
    chainChecks(deps, facts).then(async (results) =>
      results.some((r) => r.status === 'fail')
        ? results
        : [
            ...results,
            ...(await priceReferenceChecks(deps.config.priceReference, deps.config.chain.tokenAddress, deps.chain)),
            ...(await swapChecks(deps.config.swap, deps.config.chain.tokenAddress, deps.chain)),
          ],
    ),
    shopifyChecks(deps, facts),
    deps.database ? databaseChecks(deps.database, deps.config.timeouts.chainRpcMs) : Promise.resolve([]),
  ]);
  return { results: [...publicUrlChecks(deps.config), ...chainResults, ...shopifyResults, ...dbResults], facts };
}

function publicUrlChecks(config: Config): CheckResult[] {
  const url = new URL(config.publicUrl);
  const ok = url.protocol === 'https:' || isLoopbackHost(url.hostname);
  return [
    {
      name: 'public URL',
      status: ok ? 'ok' : 'fail',
      found: url.origin,
      fix: ok ? undefined : 'PUBLIC_URL must be https:// (plain http only for a loopback host)',
    },
  ];
}

async function chainChecks({ config, chain }: LiveCheckDeps, facts: LiveFacts): Promise<CheckResult[]> {
  const { rpcUrl, tokenAddress } = config.chain;
  const host = rpcHost(rpcUrl);
  let chainId: number;
  try {
    chainId = await chain.chainId();
  } catch (err) {
    return [
      {
        name: 'chain RPC',
        status: 'fail',
        found: unavailableCause(err) ? `${host} did not answer: ${unavailableCause(err)!.reason}` : reason(err),
        fix: `BASE_RPC_URL must be a Base JSON-RPC endpoint that answers within CHAIN_RPC_TIMEOUT_MS (${config.timeouts.chainRpcMs / 1000} s)`,
      },
    ];
  }
  const results: CheckResult[] = [
    chainId === BASE_CHAIN_ID
      ? { name: 'chain id', status: 'ok', found: `${chainId} (Base) at ${host}` }
      : {
          name: 'chain id',
          status: 'fail',
          found: `${chainId} at ${host}`,
          fix: `BASE_RPC_URL must serve Base mainnet, chain id ${BASE_CHAIN_ID}; payments on another chain would not be seen`,
        },
  ];
  if (chainId !== BASE_CHAIN_ID) return results;

  let code: string;
  try {
    code = await chain.provider.getCode(tokenAddress);
  } catch (err) {
    return [...results, { name: 'token contract', status: 'fail', found: `could not read it: ${reason(err)}`, fix: 'check BASE_RPC_URL' }];
  }
  if (code === '0x') {
    return [
      ...results,
      {
        name: 'token contract',
        status: 'fail',
        found: `no contract at ${tokenAddress} on chain ${chainId}`,
        fix: 'POG_TOKEN_ADDRESS must be the $POGS ERC-20 contract on Base',
      },
    ];
  }
  const token = new Contract(tokenAddress, ERC20, chain.provider);
  try {
    const decimals = Number(await token.getFunction('decimals')());
    results.push(
      decimals === 18
        ? { name: 'token decimals', status: 'ok', found: '18' }
        : {
            name: 'token decimals',
            status: 'fail',
            found: String(decimals),
            fix: `the shop prices in 18-decimal units: POG_TOKEN_ADDRESS must be the $POGS token (decimals() answered ${decimals}, expected 18)`,
          },
    );
  } catch (err) {
    results.push({
      name: 'token decimals',
      status: 'fail',
      found: `decimals() failed: ${reason(err)}`,
      fix: 'POG_TOKEN_ADDRESS must be an ERC-20 token contract (decimals() expected to answer 18)',
    });
  }
  try {
    const symbol = String(await token.getFunction('symbol')());
    facts.symbol = symbol;
    results.push({ name: 'token symbol', status: 'ok', found: symbol });
  } catch (err) {
    results.push({
      name: 'token symbol',
      status: 'fail',
      found: `symbol() failed: ${reason(err)}`,
      fix: 'POG_TOKEN_ADDRESS must be an ERC-20 token contract (symbol() expected to answer)',
    });
  }
  return results;
}

async function shopifyChecks({ config, shopify, webhookUri, subscribe, logger }: LiveCheckDeps, facts: LiveFacts): Promise<CheckResult[]> {
  const { storeDomain, credential } = config.shopify;
  const results: CheckResult[] = [];
  const tokens = shopify.tokens;
  try {
    await tokens.token();
  } catch (err) {
    return [
      {
        name: 'Shopify access token',
        status: 'fail',
        found: reason(err),
        fix:
          credential.kind === 'client-credentials'
            ? 'the app (SHOPIFY_CLIENT_ID, SHOPIFY_CLIENT_SECRET) must be installed on SHOPIFY_STORE_DOMAIN, and the token endpoint reachable (SHOPIFY_API_ORIGIN when set)'
            : 'SHOPIFY_ADMIN_TOKEN must be the Admin API token of a custom app installed on the store',
      },
    ];
  }
  if (tokens instanceof ClientCredentialsToken) {
    const missing = REQUIRED_SCOPES.filter((scope) => !tokens.scopes.includes(scope));
    results.push(
      missing.length
        ? {
            name: 'Shopify access scopes',
            status: 'fail',
            found: `granted ${tokens.scopes.join(', ') || 'none'}; missing ${missing.join(', ')}`,
            fix: `give the app these scopes in the Dev Dashboard (a new version, released and installed again): ${REQUIRED_SCOPES.join(', ')}`,
          }
        : {
            name: 'Shopify access token',
            status: 'ok',
            found: `granted by ${storeDomain} (client credentials), scopes ${tokens.scopes.join(', ')}`,
          },
    );
  }
  try {
    const { data } = await shopify.query<ShopResult>(SHOP_QUERY, {});
    facts.shopName = data.shop.name;
    results.push(
      data.shop.myshopifyDomain === storeDomain
        ? { name: 'Shopify store', status: 'ok', found: `${data.shop.name} (${storeDomain})` }
        : {
            name: 'Shopify store',
            status: 'fail',
            found: `the token is for ${data.shop.myshopifyDomain}, not ${storeDomain}`,
            fix: 'SHOPIFY_STORE_DOMAIN, the credential and SHOPIFY_API_ORIGIN must all name the same store',
          },
    );
  } catch (err) {
    return [...results, { name: 'Shopify store', status: 'fail', found: reason(err), fix: 'check the Shopify settings above' }];
  }
  try {
    if (subscribe) await subscribeShopifyWebhooks(shopify, webhookUri, logger);
    const missing = await missingWebhookTopics(shopify, webhookUri);
    results.push(
      missing.length === 0
        ? { name: 'Shopify webhooks', status: 'ok', found: `subscribed to ${webhookUri}` }
        : {
            name: 'Shopify webhooks',
            // The doctor only looks: before a first start there is nothing to find yet.
            status: subscribe ? 'fail' : 'warn',
            found: `no subscription to ${webhookUri} for ${missing.join(', ')}`,
            fix: subscribe
              ? 'Shopify refused the subscription: PUBLIC_URL must be the https address Shopify can reach'
              : 'the shop subscribes them at start; if it has started with this PUBLIC_URL, look for "Shopify refused a webhook subscription" in its log',
          },
    );
  } catch (err) {
    results.push({ name: 'Shopify webhooks', status: 'fail', found: reason(err), fix: 'the app needs the read_orders scope' });
  }
  return results;
}

async function databaseChecks(database: DatabaseConfig, timeoutMs: number): Promise<CheckResult[]> {
  if (database.kind === 'pglite') return [{ name: 'database', status: 'ok', found: `embedded PGlite in ${database.dir}` }];
  const client = new pg.Client({
    connectionString: database.url,
    ssl: database.ssl ? { rejectUnauthorized: true } : undefined,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
  });
  try {
    await client.connect();
    await client.query('select 1');
    return [{ name: 'database', status: 'ok', found: `Postgres at ${new URL(database.url).host} answers` }];
  } catch (err) {
    return [{ name: 'database', status: 'fail', found: reason(err), fix: 'DATABASE_URL must reach a Postgres the shop may write to' }];
  } finally {
    await client.end().catch(() => {});
  }
}

/** The one start line of a live shop: what it runs with, never a secret. */
export function liveStartLine(config: Config & { mode: 'live'; shopify: StoreShopifyConfig }, facts: LiveFacts): string {
  const { chain, shopify, payments } = config;
  const parts = [
    `chain ${BASE_CHAIN_ID} via ${rpcHost(chain.rpcUrl)}`,
    `token ${facts.symbol ?? '?'} at ${chain.tokenAddress}`,
    `store wallet ${chain.storeWallet}`,
    `${payments.requiredConfirmations} confirmation${payments.requiredConfirmations === 1 ? '' : 's'}`,
    `Shopify store ${shopify.storeDomain}`,
    ...(shopify.apiOriginConfigured ? [`Shopify API at ${shopify.apiOrigin}`] : []),
    shopify.credential.kind === 'client-credentials' ? 'client-credentials token' : 'legacy static token',
  ];
  return `live: ${parts.join(', ')}`;
}

const MARK = { ok: '✓', warn: '!', fail: '✗' } as const;

/** The doctor's lines: ✓, ! or ✗, the check, what was found and, unless ok, what to change. */
export function formatCheck(result: CheckResult): string {
  const line = `${MARK[result.status]} ${result.name}: ${result.found}`;
  return result.status === 'ok' ? line : `${line}\n    → ${result.fix ?? 'see docs/going-live.md'}`;
}
