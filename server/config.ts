/**
 * The one place the environment is read. Every setting is parsed and validated here; every
 * embedded default (PGlite, the Shopify emulator, …) is decided here and announced once at start.
 * Production (`NODE_ENV=production`) refuses to start while a real setting is missing and lists
 * all of them at once. Elsewhere the shop runs either the full local demo (nothing real set) or
 * live (a real chain and a real store); a mix of the two is refused (see `ModeConfig`).
 */
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { ADDRESS_PATTERN, BASE_CHAIN_ID } from '../common/chain';
import { fetchRefusesPort, isLoopbackHost } from './lib/hosts';
import { parsePasswordHash } from './lib/password-hash';
import { optional, urlString } from './lib/settings';
import { mixedModeProblems, shopifyCredentialProblems } from './settings-problems';
import {
  PAYMASTER_SETTINGS,
  paymasterConfig,
  paymasterProblems,
  sponsorshipRules,
  type PaymasterConfig,
  type SponsorshipRules,
} from './paymaster-config';
import { PUSH_SETTINGS, pushConfig, pushProblems, type PushConfig } from './push-config';
import {
  PRICE_REFERENCE_SETTINGS,
  priceReferenceConfig,
  priceReferenceProblems,
  type PriceReferenceConfig,
} from './price-reference-config';
import { SWAP_SETTINGS, swapConfig, type SwapConfig } from './swap-config';

const DEFAULT_SHOPIFY_API_VERSION = '2026-07';

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: optional(urlString),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().default('data'),
  DATABASE_URL: optional(z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')),
  DATABASE_SSL: z.enum(['true', 'false']).default('false'),
  SHOPIFY_STORE_DOMAIN: optional(z.string().regex(/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/, 'must look like your-shop.myshopify.com')),
  SHOPIFY_ADMIN_TOKEN: optional(z.string().min(10)),
  SHOPIFY_CLIENT_ID: optional(
    z.string().regex(/^[A-Za-z0-9_-]{8,128}$/, "must be the Client ID from the app's Settings in Shopify's Dev Dashboard"),
  ),
  /** Where the Admin API and the token endpoint are reached, when not at https://SHOPIFY_STORE_DOMAIN (rehearsals, egress proxies). */
  SHOPIFY_API_ORIGIN: optional(
    urlString.refine((u) => {
      const url = new URL(u);
      return url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
    }, 'must be an origin only, such as https://shopify-egress.internal:8443 (no path, query or credentials)'),
  ),
  /** How long one call to Shopify (the Admin API, the token endpoint) may take. */
  SHOPIFY_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(20_000),
  SHOPIFY_API_VERSION: z
    .string()
    .regex(/^\d{4}-(01|04|07|10)$/, 'must be a quarterly version like 2026-07')
    .default(DEFAULT_SHOPIFY_API_VERSION),
  SHOPIFY_CLIENT_SECRET: optional(z.string().min(8)),
  CATALOGUE_SYNC_INTERVAL_MINUTES: z.coerce.number().min(0).default(15),
  CATALOGUE_STALENESS_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  SESSION_TTL_DAYS: z.coerce.number().positive().max(365).default(30),
  BASE_RPC_URL: optional(urlString),
  /** How long one call to the chain's RPC may take. */
  CHAIN_RPC_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(10_000),
  /** How long one attempt to send an event to a merchant's webhook endpoint may take (docs/webhooks.md). */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  LOCAL_CHAIN_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  /** Local mode: how many products the bundled emulator's demo store has (copies of the 27 demo products past 27). */
  LOCAL_DEMO_PRODUCTS: z.coerce.number().int().min(27, 'is at least 27 (the demo products)').max(50_000).default(27),
  POG_TOKEN_ADDRESS: optional(z.string().regex(ADDRESS_PATTERN, 'must be a 0x-prefixed 20-byte address')),
  STORE_WALLET_ADDRESS: optional(z.string().regex(ADDRESS_PATTERN, 'must be a 0x-prefixed 20-byte address')),
  /** Blocks on top of a payment's block before it counts (1 = the block itself). */
  REQUIRED_CONFIRMATIONS: optional(z.coerce.number().int().min(1).max(1000)),
  /** At most a day (1440 minutes). */
  CHECKOUT_TTL_MINUTES: z.coerce.number().positive().max(1440).default(30),
  /** How long after expiry a payment for a checkout is still recognised as a (late) payment for it. */
  LATE_PAYMENT_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 30)
    .default(24),
  CHAIN_POLL_INTERVAL_MS: optional(z.coerce.number().int().min(100).max(600_000)),
  /** Largest block range asked of eth_getLogs at once (public RPCs cap it). */
  CHAIN_LOG_RANGE: z.coerce.number().int().min(1).max(100_000).default(2000),
  /** First block the watcher scans on a fresh database (default: the head at first start). */
  CHAIN_START_BLOCK: optional(z.coerce.number().int().min(0)),
  EXPLORER_URL: urlString.default('https://basescan.org'),
  COMMUNITY_URL: urlString.default('https://discord.gg/pogs'),
  BRAND_URL: urlString.default('https://pogs.com'),
  WALLETCONNECT_PROJECT_ID: optional(z.string().regex(/^[0-9a-f]{32}$/i, 'must be a 32-character WalletConnect Cloud project id')),
  ...PAYMASTER_SETTINGS,
  ...PUSH_SETTINGS,
  ...PRICE_REFERENCE_SETTINGS,
  ...SWAP_SETTINGS,
  /** Prometheus metrics on their own listener (GET /metrics); off unless set. Never the public port. */
  METRICS_PORT: optional(z.coerce.number().int().min(1).max(65535)),
  /**
   * The address the metrics listener binds: this machine only unless set (it has no authentication).
   * A scraper on another machine or container needs 0.0.0.0 (or that interface's address).
   */
  METRICS_HOST: z
    .string()
    .trim()
    .refine(
      (h) => isIP(h) !== 0,
      'must be an IP address to listen on: 127.0.0.1 (this machine only), 0.0.0.0 (every interface), or the address of one interface',
    )
    .default('127.0.0.1'),
  /** How long a shutdown waits for the requests in flight and the background jobs' passes. */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(25_000),
  /** After SIGTERM, how long the server goes on serving while readiness says 503 (default 5 s behind a proxy, else 0). */
  SHUTDOWN_DELAY_MS: optional(z.coerce.number().int().min(0).max(600_000)),
  /** Readiness: how far the chain watcher may be behind the head, in blocks. */
  READY_MAX_WATCHER_LAG_BLOCKS: z.coerce.number().int().min(1).max(1_000_000).default(50),
  /** Readiness: how old the chain's newest block may be, in seconds (not checked on the local chain, which mines on demand). */
  READY_MAX_HEAD_AGE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  /** Readiness: how long the chain's and the watcher's probe answers are reused, in ms (0: asked on every health check). */
  READY_CHAIN_PROBE_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  /** Multiplies every rate limit (server/lib/rate-limit.ts); 0 turns them off (load tests). */
  RATE_LIMIT_SCALE: z.coerce.number().min(0).max(1000).default(1),
  /**
   * Reverse proxies of ours in front of the server that append to X-Forwarded-For. None unless
   * told: a server reached directly must not believe a header any client can write.
   */
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  /** The admin password's scrypt hash (`npm run admin:hash`); the password itself is never configured. */
  ADMIN_PASSWORD_HASH: optional(
    z
      .string()
      .trim()
      .superRefine((v, ctx) => {
        const parsed = parsePasswordHash(v);
        if (typeof parsed === 'string') ctx.addIssue({ code: 'custom', message: parsed });
      }),
  ),
});

/** @internal Every setting the shop reads, by name: the test that keeps `.env.example` true reads it. */
export const SETTING_NAMES: readonly string[] = Object.keys(envSchema.shape);

/**
 * Settings a real deployment must give; production refuses to start without them. The Shopify app's
 * credential is required too, in one of two kinds (see SHOPIFY_CREDENTIAL_MISSING).
 */
export const PRODUCTION_REQUIRED = [
  'DATABASE_URL',
  'PUBLIC_URL',
  'SHOPIFY_STORE_DOMAIN',
  'SHOPIFY_CLIENT_SECRET',
  'BASE_RPC_URL',
  'POG_TOKEN_ADDRESS',
  'STORE_WALLET_ADDRESS',
  'ADMIN_PASSWORD_HASH',
] as const;

export type DatabaseConfig = { kind: 'postgres'; url: string; ssl: boolean } | { kind: 'pglite'; dir: string };

/**
 * How the shop gets its Admin API token from a real store. An app made in Shopify's Dev Dashboard
 * (every app made since 1 January 2026) exchanges its client id and secret for a token that expires
 * after about a day (the client-credentials grant); a legacy custom app has a permanent `shpat_`.
 */
export type ShopifyCredential =
  { kind: 'client-credentials'; clientId: string; clientSecret: string } | { kind: 'static-token'; accessToken: string };

export interface StoreShopifyConfig {
  kind: 'store';
  /** Names the shop: invoice links and the webhooks' X-Shopify-Shop-Domain carry it. */
  storeDomain: string;
  /** Where the Admin API and the token endpoint are reached: `https://<storeDomain>` unless SHOPIFY_API_ORIGIN says otherwise. */
  apiOrigin: string;
  /** True when SHOPIFY_API_ORIGIN was given (announced at start). */
  apiOriginConfigured: boolean;
  credential: ShopifyCredential;
  apiVersion: string;
  /** The app's client secret: the webhook HMAC key (and, with client credentials, half the credential). */
  clientSecret?: string;
}
export interface EmulatorShopifyConfig {
  kind: 'emulator';
  apiVersion: string;
  mountPath: string;
  /** Where the emulator's random access token and webhook secret are kept (made on first start, mode 0600). */
  secretsFile: string;
  /** How many products its demo store has (LOCAL_DEMO_PRODUCTS): the 27 demo products, then copies of them. */
  demoProducts: number;
  /**
   * Read from `secretsFile` at start (see withEmulatorSecrets); absent until then, so nothing is
   * ever signed or accepted with a guessable constant.
   */
  accessToken?: string;
  clientSecret?: string;
}

/**
 * The admin password: its configured hash, or (local mode without one) a random password made on
 * first start and kept in the data folder (file mode 0600), read at start (see withAdminPassword).
 */
export type AdminPasswordConfig =
  | { kind: 'configured'; hash: string }
  | {
      kind: 'generated';
      file: string;
      /** Absent until main.ts has read or made the file. */
      hash?: string;
    };

export interface RpcChainConfig {
  kind: 'rpc';
  rpcUrl: string;
  tokenAddress: string;
  storeWallet: string;
}
/** The embedded anvil node (chain id 8453); port 0 picks a free one. */
export interface LocalChainConfig {
  kind: 'local';
  port: number;
  stateFile: string;
}

/** Base mainnet's public RPC, offered to wallets that do not know Base yet. */
export const BASE_PUBLIC_RPC_URL = 'https://mainnet.base.org';

export interface PaymentsConfig {
  requiredConfirmations: number;
  checkoutTtlMs: number;
  latePaymentMs: number;
  pollIntervalMs: number;
  logRange: number;
  startBlock: number | null;
}

interface ConfigCommon {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  /** Origin browsers use to reach this server (no trailing slash). */
  publicUrl: string;
  /** True when PUBLIC_URL was given (otherwise publicUrl is a guess from the port). */
  publicUrlConfigured: boolean;
  logLevel: string;
  database: DatabaseConfig;
  catalogueSyncIntervalMs: number;
  /**
   * While the catalogue's change notifications are not heard (PGlite has no other writer; a lost
   * Postgres LISTEN connection), how often the catalogue version is read instead.
   */
  catalogueStalenessMs: number;
  /** How long an anonymous shopper session (and its cart) lives after its last use. */
  sessionTtlMs: number;
  publicLinks: { explorerUrl: string; communityUrl: string; brandUrl: string };
  walletConnectProjectId: string | null;
  /**
   * How many proxies of our own stand in front of the server. The client's IP is the address the
   * outermost of them saw (the entry that many from the end of X-Forwarded-For); anything a client
   * wrote into the header before that is not believed. 0: the socket's address, the header ignored.
   */
  trustedProxyHops: number;
  /** Multiplies every rate limit; 0 turns rate limiting off. */
  rateLimitScale: number;
  adminPassword: AdminPasswordConfig;
  payments: PaymentsConfig;
  /** How long one outbound call may take before it counts as failed. */
  timeouts: { shopifyMs: number; chainRpcMs: number; paymasterServiceMs: number; pushMs: number; webhookMs: number };
  /** Order updates by Web Push: their VAPID keys, or off (push-config.ts). */
  push: PushConfig;
  /** Who pays smart wallets' gas: the shop's own verifying paymaster or a hosted service (null: nobody, the shop pays no gas). */
  paymaster: PaymasterConfig | null;
  /** The budget, the per-account limit and the extra wallets of sponsored gas (local mode's own paymaster follows them too). */
  sponsorship: SponsorshipRules;
  /** The dollar reference beside prices: where it is read and when it is hidden (contracts null: off). */
  priceReference: PriceReferenceConfig;
  /** Paying with ETH or USDC: each coin's route into POGS (none: POGS only), the router, the quoter and the bounds. */
  swap: SwapConfig;
  /** The metrics listener's port (null: no metrics listener). */
  metricsPort: number | null;
  /** The address the metrics listener binds (127.0.0.1 unless METRICS_HOST says otherwise). */
  metricsHost: string;
  /** How long a shutdown waits for requests in flight and background jobs. */
  shutdownGraceMs: number;
  /** How long a shutdown goes on serving, unready, before it stops accepting (within the grace). */
  shutdownDelayMs: number;
  /** What readiness allows (server/ops/readiness.ts). */
  readiness: { maxWatcherLagBlocks: number; maxHeadAgeSeconds: number | null; chainProbeCacheMs: number };
  /** One human sentence per embedded default in use, announced at start. */
  defaults: string[];
}

/**
 * `local`: NOTHING real is configured (no chain, no Shopify store, not production), so the shop
 * runs its demo: the embedded chain with its demo token, the Shopify emulator and the Demo Wallet.
 * `live`: a real chain AND a real Shopify store. Anything in between is refused by loadConfig: a
 * real chain beside the emulator takes real money for orders nobody ships, and a real store beside
 * the local chain lets free demo tokens create real Shopify orders. The demo surfaces (emulator,
 * its controls, Demo Wallet) exist only in `local` mode; createApp checks this flag too.
 *
 * What the mode decides: demo stand-ins in local mode, real services in live mode, never a mix.
 */
export type ModeConfig =
  | { mode: 'local'; shopify: EmulatorShopifyConfig; chain: LocalChainConfig }
  | { mode: 'live'; shopify: StoreShopifyConfig; chain: RpcChainConfig };

export type Config = ConfigCommon & ModeConfig;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Configuration problems:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  const problems: string[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(`${issue.path.join('.')}: ${issue.message}`);
  }
  const production = (env.NODE_ENV ?? '') === 'production';
  const isSet = (key: string) => Boolean(env[key] && env[key]!.trim() !== '');
  if (production) {
    const missing = PRODUCTION_REQUIRED.filter((key) => !isSet(key));
    if (missing.length) problems.push(`missing required settings for production: ${missing.join(', ')}`);
  }
  problems.push(...shopifyCredentialProblems({ production, isSet }));
  const storeKeys = (['SHOPIFY_STORE_DOMAIN', 'SHOPIFY_CLIENT_ID', 'SHOPIFY_ADMIN_TOKEN'] as const).filter(isSet);
  const chainKeys = ['BASE_RPC_URL', 'POG_TOKEN_ADDRESS', 'STORE_WALLET_ADDRESS'] as const;
  const chainSet = chainKeys.filter(isSet);
  if (chainSet.length && chainSet.length < chainKeys.length && !production) {
    problems.push(`${chainKeys.join(', ')} must be set together (missing: ${chainKeys.filter((k) => !chainSet.includes(k)).join(', ')})`);
  }
  problems.push(...paymasterProblems(isSet, parsed.success ? parsed.data.PAYMASTER_SERVICE_URL : undefined));
  problems.push(...pushProblems(parsed.success ? parsed.data : undefined));
  problems.push(...priceReferenceProblems(isSet));
  if (!production) problems.push(...mixedModeProblems({ chain: chainSet, store: storeKeys, clientSecret: isSet('SHOPIFY_CLIENT_SECRET') }));
  const storeComplete = isSet('SHOPIFY_STORE_DOMAIN') && (isSet('SHOPIFY_CLIENT_ID') || isSet('SHOPIFY_ADMIN_TOKEN'));
  const liveSettings = production || (chainSet.length === chainKeys.length && storeComplete);
  // A live shop (real chain and store) outside production is refused without a hash as well: a
  // generated password is for the local demo only, and a live shop without an admin sells nothing.
  if (!production && liveSettings && !isSet('ADMIN_PASSWORD_HASH')) {
    problems.push("ADMIN_PASSWORD_HASH is not set: a live shop needs the admin password's hash (make one with `npm run admin:hash`)");
  }
  if (parsed.success) {
    const e = parsed.data;
    if (liveSettings && e.PUBLIC_URL) {
      const url = new URL(e.PUBLIC_URL);
      if (url.protocol !== 'https:' && !isLoopbackHost(url.hostname)) {
        problems.push(
          `PUBLIC_URL must be https:// for a live shop (found ${url.origin}): shoppers' wallets sign in to it and its cookies are Secure. Plain http is only for a loopback host (localhost, 127.0.0.1, [::1])`,
        );
      }
    }
    if (e.SHOPIFY_API_ORIGIN) {
      const url = new URL(e.SHOPIFY_API_ORIGIN);
      if (!isSet('SHOPIFY_STORE_DOMAIN')) {
        problems.push(
          'SHOPIFY_API_ORIGIN says where a real store is reached, but no store is given (SHOPIFY_STORE_DOMAIN): remove it, or configure the store',
        );
      } else if (url.protocol !== 'https:' && !isLoopbackHost(url.hostname)) {
        problems.push(
          `SHOPIFY_API_ORIGIN must be https:// (found ${url.origin}): the shop sends its Shopify credentials there. Plain http is only for a loopback host`,
        );
      }
      const port = Number(url.port);
      if (port && fetchRefusesPort(port)) {
        problems.push(
          `SHOPIFY_API_ORIGIN uses port ${port}, which Node's fetch refuses to call (a "bad port" of the Fetch standard): use another port`,
        );
      }
    }
    const rpcPort = e.BASE_RPC_URL ? Number(new URL(e.BASE_RPC_URL).port) : 0;
    if (rpcPort && fetchRefusesPort(rpcPort)) {
      problems.push(
        `BASE_RPC_URL uses port ${rpcPort}, which Node's fetch refuses to call (a "bad port" of the Fetch standard): use another port`,
      );
    }
    if (!liveSettings && !storeKeys.length && !chainSet.length && fetchRefusesPort(e.PORT)) {
      problems.push(
        `PORT ${e.PORT} is a port Node's fetch refuses to call (a "bad port" of the Fetch standard), and the local demo calls its own Shopify emulator on it: choose another PORT (e.g. 3000)`,
      );
    }
  }
  if (problems.length || !parsed.success) throw new ConfigError(problems);

  const e = parsed.data;
  const defaults: string[] = [];
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  if (!e.PUBLIC_URL) defaults.push(`public URL: ${publicUrl} (set PUBLIC_URL to the address shoppers use)`);

  let database: DatabaseConfig;
  if (e.DATABASE_URL) {
    database = { kind: 'postgres', url: e.DATABASE_URL, ssl: e.DATABASE_SSL === 'true' };
  } else {
    const dir = path.resolve(e.DATA_DIR, 'pglite');
    database = { kind: 'pglite', dir };
    defaults.push(`database: embedded PGlite, data kept in ${dir} (set DATABASE_URL to use Postgres)`);
  }

  // Refused above unless both are real or both are local; production has both (PRODUCTION_REQUIRED).
  const live = Boolean(
    e.BASE_RPC_URL &&
    e.POG_TOKEN_ADDRESS &&
    e.STORE_WALLET_ADDRESS &&
    e.SHOPIFY_STORE_DOMAIN &&
    (e.SHOPIFY_CLIENT_ID || e.SHOPIFY_ADMIN_TOKEN),
  );
  let demo: ModeConfig;
  if (live) {
    const credential: ShopifyCredential = e.SHOPIFY_CLIENT_ID
      ? { kind: 'client-credentials', clientId: e.SHOPIFY_CLIENT_ID, clientSecret: e.SHOPIFY_CLIENT_SECRET! }
      : { kind: 'static-token', accessToken: e.SHOPIFY_ADMIN_TOKEN! };
    demo = {
      mode: 'live',
      shopify: {
        kind: 'store',
        storeDomain: e.SHOPIFY_STORE_DOMAIN!,
        apiOrigin: e.SHOPIFY_API_ORIGIN ? new URL(e.SHOPIFY_API_ORIGIN).origin : `https://${e.SHOPIFY_STORE_DOMAIN!}`,
        apiOriginConfigured: Boolean(e.SHOPIFY_API_ORIGIN),
        credential,
        apiVersion: e.SHOPIFY_API_VERSION,
        clientSecret: e.SHOPIFY_CLIENT_SECRET,
      },
      chain: { kind: 'rpc', rpcUrl: e.BASE_RPC_URL!, tokenAddress: e.POG_TOKEN_ADDRESS!, storeWallet: e.STORE_WALLET_ADDRESS! },
    };
  } else {
    const secretsFile = path.resolve(e.DATA_DIR, 'shopify-emulator-secrets.json');
    const stateFile = path.resolve(e.DATA_DIR, 'anvil-state.json');
    demo = {
      mode: 'local',
      shopify: {
        kind: 'emulator',
        apiVersion: e.SHOPIFY_API_VERSION,
        mountPath: '/shopify-emulator',
        secretsFile,
        demoProducts: e.LOCAL_DEMO_PRODUCTS,
      },
      chain: { kind: 'local', port: e.LOCAL_CHAIN_PORT, stateFile },
    };
    defaults.push(
      'mode: full local demo, because no real chain and no Shopify store are configured (configure both to run live; one without the other is refused)',
      `shopify: bundled emulator with the demo catalogue (${e.LOCAL_DEMO_PRODUCTS} products) at ${publicUrl}/shopify-emulator, its access token and webhook secret kept in ${secretsFile} (set SHOPIFY_STORE_DOMAIN, SHOPIFY_CLIENT_ID and SHOPIFY_CLIENT_SECRET for a real store)`,
      `chain: local anvil node (chain id ${BASE_CHAIN_ID}) with funded dev accounts and a Demo Wallet, state kept in ${stateFile} (set BASE_RPC_URL, POG_TOKEN_ADDRESS and STORE_WALLET_ADDRESS for Base)`,
    );
  }
  const { chain } = demo;
  const push = pushConfig(e, { live, dataDir: e.DATA_DIR });
  defaults.push(...push.defaults);

  let adminPassword: AdminPasswordConfig;
  if (e.ADMIN_PASSWORD_HASH) {
    adminPassword = { kind: 'configured', hash: e.ADMIN_PASSWORD_HASH };
  } else {
    // Only local mode gets here: production and live mode refuse to start without a hash (above).
    const file = path.resolve(e.DATA_DIR, 'admin-password.json');
    adminPassword = { kind: 'generated', file };
    defaults.push(
      `admin password: generated on first start and kept in ${file}, printed at every start (set ADMIN_PASSWORD_HASH, from \`npm run admin:hash\`, to choose your own)`,
    );
  }

  return Object.freeze({
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    publicUrl,
    publicUrlConfigured: Boolean(e.PUBLIC_URL),
    logLevel: e.LOG_LEVEL,
    database,
    ...demo,
    catalogueSyncIntervalMs: e.CATALOGUE_SYNC_INTERVAL_MINUTES * 60_000,
    catalogueStalenessMs: e.CATALOGUE_STALENESS_MS,
    sessionTtlMs: e.SESSION_TTL_DAYS * 24 * 60 * 60 * 1000,
    publicLinks: { explorerUrl: e.EXPLORER_URL.replace(/\/+$/, ''), communityUrl: e.COMMUNITY_URL, brandUrl: e.BRAND_URL },
    walletConnectProjectId: e.WALLETCONNECT_PROJECT_ID ?? null,
    trustedProxyHops: e.TRUSTED_PROXY_HOPS,
    rateLimitScale: e.RATE_LIMIT_SCALE,
    adminPassword,
    timeouts: {
      shopifyMs: e.SHOPIFY_TIMEOUT_MS,
      chainRpcMs: e.CHAIN_RPC_TIMEOUT_MS,
      paymasterServiceMs: e.PAYMASTER_SERVICE_TIMEOUT_MS,
      pushMs: e.PUSH_TIMEOUT_MS,
      webhookMs: e.WEBHOOK_TIMEOUT_MS,
    },
    push: push.push,
    paymaster: paymasterConfig(e),
    sponsorship: sponsorshipRules(e),
    priceReference: priceReferenceConfig(e),
    swap: swapConfig(e),
    metricsPort: e.METRICS_PORT ?? null,
    metricsHost: e.METRICS_HOST,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    // Behind a proxy its health checks need a moment to notice; reached directly, nothing does.
    shutdownDelayMs: Math.min(e.SHUTDOWN_DELAY_MS ?? ((e.TRUSTED_PROXY_HOPS ?? 0) > 0 ? 5_000 : 0), e.SHUTDOWN_GRACE_MS),
    readiness: {
      maxWatcherLagBlocks: e.READY_MAX_WATCHER_LAG_BLOCKS,
      maxHeadAgeSeconds: chain.kind === 'local' ? null : e.READY_MAX_HEAD_AGE_SECONDS,
      chainProbeCacheMs: e.READY_CHAIN_PROBE_CACHE_MS,
    },
    payments: {
      // Local anvil mines on demand and never reorgs; Base blocks come every ~2 s.
      requiredConfirmations: e.REQUIRED_CONFIRMATIONS ?? (chain.kind === 'local' ? 1 : 3),
      checkoutTtlMs: e.CHECKOUT_TTL_MINUTES * 60_000,
      latePaymentMs: e.LATE_PAYMENT_HOURS * 3_600_000,
      pollIntervalMs: e.CHAIN_POLL_INTERVAL_MS ?? (chain.kind === 'local' ? 1000 : 2000),
      logRange: e.CHAIN_LOG_RANGE,
      startBlock: e.CHAIN_START_BLOCK ?? null,
    },
    defaults,
  });
}

/** The generated admin password's hash, read from (or made in) its file in the data folder at start. */
export function withAdminPassword(config: Config, hash: string): Config {
  if (config.adminPassword.kind !== 'generated') throw new Error('The admin password is configured (ADMIN_PASSWORD_HASH)');
  return Object.freeze({ ...config, adminPassword: Object.freeze({ ...config.adminPassword, hash }) });
}

/** The emulator's access token and webhook secret, read from its secrets file at start (local mode only). */
export function withEmulatorSecrets(config: Config, secrets: { accessToken: string; clientSecret: string }): Config {
  if (config.mode !== 'local') throw new Error('The Shopify emulator has secrets only in local mode');
  return Object.freeze({ ...config, shopify: Object.freeze({ ...config.shopify, ...secrets }) });
}
