/**
 * An integration-test world: the Koa app on an ephemeral port, its database (PGlite or a Postgres
 * schema), and the Shopify emulator on its own port, reached through the real Shopify client.
 * The emulator's leaky bucket runs on a test clock that the client's waits advance, so throttling
 * is exercised exactly without real waiting. With `localShopify` the emulator is wired instead
 * exactly as `npm start` wires it in local mode (inside the app, secrets from DATA_DIR).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BASE_CHAIN_ID } from '../../common/chain';
import { loadConfig, type Config } from '../config';
import { createApp, type AppDeps } from '../app';
import { createLogger, type Logger } from '../lib/logger';
import type { RateLimiter } from '../lib/rate-limit';
import type { CatalogueService } from '../modules/catalogue';
import { ShopifyGraphql } from '../shopify';
import type { CartService } from '../modules/cart';
import type { SessionService } from '../modules/session';
import { createShopifyEmulator, type ShopifyEmulator, type ShopifyEmulatorOptions } from '../../emulators/shopify';
import { startLocalShopify } from '../local/local-shopify';
import { createTestDatabase, type TestDatabase } from './databases';
import { ensureDemoToken } from '../chain/demo-token';
import { ensurePricePool } from '../chain/price-pool';
import { ensureSwapVenue, localSwapConfig } from '../chain/swap-venue';
import { localSwapFacts } from '../local/local-mode';
import type { LocalChain } from '../chain/local-chain';
import type { ChainTarget } from '../modules/payments';
import { subscribeShopifyWebhooks } from '../modules/orders';
import { buildServices, type PaymentSystem, type ServiceOptions, type Services } from '../wiring';
import { hashPassword } from '../lib/password-hash';

/** The admin password of every test world (its hash, at a cheap scrypt cost, is ADMIN_PASSWORD_HASH). */
export const TEST_ADMIN_PASSWORD = 'integration-admin-password';

/**
 * Logs in as the admin with the test password and returns the session cookie to send
 * (`pogs_admin=…`); `headers` adds to the request's (a same-site Origin, say). Throws with the
 * server's answer when the login is refused.
 */
export async function adminSession(h: Pick<Harness, 'api'>, headers: Record<string, string> = {}): Promise<string> {
  const res = await h.api('/api/admin/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ password: TEST_ADMIN_PASSWORD }),
  });
  const cookie = /pogs_admin=[^;]+/.exec(res.headers.get('set-cookie') ?? '')?.[0];
  if (res.status !== 200 || !cookie) throw new Error(`admin login answered ${res.status}: ${await res.text()}`);
  return cookie;
}

/** What `adminCaller`'s calls may set: the method, a JSON body, the cookie (null: none at all) and more headers. */
export interface AdminCall {
  method?: string;
  body?: unknown;
  cookie?: string | null;
  headers?: Record<string, string>;
}

/**
 * Calls the API as the admin: `session()` gives the session cookie at call time (a test logs in
 * once, later), a body goes as JSON, and `cookie: null` calls as a stranger with no cookie.
 */
export function adminCaller(api: Harness['api'], session: () => string) {
  return (path: string, init: AdminCall = {}) =>
    api(path, {
      method: init.method ?? 'GET',
      headers: {
        ...(init.cookie === null ? {} : { cookie: init.cookie ?? session() }),
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
}

export interface Harness {
  config: Config;
  database: TestDatabase;
  emulator: ShopifyEmulator;
  shopify: ShopifyGraphql;
  catalogue: CatalogueService;
  sessions: SessionService;
  carts: CartService;
  rateLimiter: RateLimiter;
  baseUrl: string;
  /** Where the emulator answers (its /__emulator control routes too). */
  emulatorOrigin: string;
  /** Every wait the Shopify client asked for, in ms, with its reason. */
  waits: Array<{ reason: string; ms: number }>;
  /** Every admin login delay the server waited, in ms (each moves the clock instead of waiting). */
  adminDelays: number[];
  clock: { now: number };
  /** With `opts.chain`: checkout, settlement, watcher and hand-off on a fresh demo token. */
  payments?: PaymentSystem;
  /** The swap route's facts payments were given (null or absent: no route). */
  swap?: ServiceOptions['swap'];
  /** Everything buildServices made, as main.ts gets it (for createWorkers). */
  services: Services;
  api(path: string, init?: RequestInit): Promise<Response>;
  /**
   * Postgres only: a second server instance (its own connection pool, as another process would
   * have) on the same database, without payments. Closed with the harness.
   */
  startAnotherInstance(): Promise<{
    baseUrl: string;
    api(path: string, init?: RequestInit): Promise<Response>;
    /** Its own connection pool: a change written here reaches the first instance only as another process's would. */
    db: Services['db'];
    catalogue: CatalogueService;
  }>;
  close(): Promise<void>;
}

const ACCESS_TOKEN = 'shpat_integration_test_token';

export async function startHarness(
  kind: 'pglite' | 'postgres',
  opts: {
    bucket?: ShopifyEmulatorOptions['bucket'];
    pageSize?: number;
    variantsFirst?: number;
    /** How full syncs read Shopify (default: a bulk query, paging as its fallback). */
    syncMethod?: 'bulk' | 'paged';
    /** Extra environment for loadConfig (e.g. a real chain's settings). */
    env?: Record<string, string>;
    demoWallet?: AppDeps['demoWallet'];
    /** A running local chain: payments are wired to a demo token freshly deployed on it. */
    chain?: LocalChain;
    /** With `chain`: the swap route's facts (which transfers came through a swap, and from whom); with `swapVenue`, the venue's by default. */
    swap?: ServiceOptions['swap'];
    /**
     * With `chain`: payments reach the chain through this RPC URL instead (the demo token is still
     * deployed on `chain`; e.g. an RPC that never answers), and with this timeout per call.
     */
    chainRpc?: { rpcUrl?: string; timeoutMs?: number };
    /**
     * With `chain`: local mode's dollar reference deployed beside the fresh demo token (its pool and
     * feeds, server/chain/price-pool.ts) and configured, as `npm start` does in local mode.
     */
    pricePool?: boolean;
    /**
     * With `chain` and `pricePool`: local mode's swap venue (SwapRouter02, QuoterV2, demo USDC and
     * its pool, server/chain/swap-venue.ts) and its routes configured, as `npm start` does in local mode.
     */
    swapVenue?: boolean;
    /** Emulator options beyond the defaults (e.g. fast webhook retries). */
    emulator?: Partial<ShopifyEmulatorOptions>;
    /**
     * Shopify as `npm start` runs it in local mode (startLocalShopify): the emulator inside the
     * app at /shopify-emulator, its token and webhook secret from `env.DATA_DIR`; the test clock
     * and `opts.emulator` do not apply.
     */
    localShopify?: boolean;
    /** Also offer createApp the test emulator at /shopify-emulator, as main does in local mode. */
    mountEmulator?: boolean;
    /** The built client to serve (a folder with index.html). */
    staticDir?: string;
    /** The server renders of new home views allowed (AppDeps). */
    viewRenders?: AppDeps['viewRenders'];
    /** The first wait before the catalogue's lost LISTEN connection is made again. */
    catalogueReconnectMs?: number;
    /** Where the server logs (silent by default); a test that reads the log lines passes its own. */
    logger?: Logger;
    /** Postgres: the URL the app's connections go through instead of TEST_DATABASE_URL (a proxy a test can cut). */
    postgresVia?: string;
    /** How the admin password is checked (a test wraps the real check to count the checks). */
    verifyAdminPassword?: ServiceOptions['verifyAdminPassword'];
  } = {},
): Promise<Harness> {
  const clock = { now: Date.parse('2026-11-01T00:00:00Z') };
  const database = await createTestDatabase(kind, opts.postgresVia);
  const logger = opts.logger ?? createLogger({ level: 'silent' });
  const servers: Server[] = [];
  const catalogues: CatalogueService[] = [];

  // Every test file sends its many requests from 127.0.0.1: limits 100 times the real ones, unless
  // a test asks for others (the rate-limit tests use the real ones).
  const config0 = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_SCALE: '100',
    ADMIN_PASSWORD_HASH: await hashPassword(TEST_ADMIN_PASSWORD, { N: 1024, r: 8, p: 1 }),
    ...opts.env,
  });
  let config = config0;
  let baseUrl = '';
  const waits: Harness['waits'] = [];
  const adminDelays: number[] = [];
  let emulator: ShopifyEmulator;
  let shopify: ShopifyGraphql;
  let mounts: AppDeps['mounts'] = [];
  let emulatorOrigin = '';
  if (opts.localShopify) {
    const local = await startLocalShopify(config0, { origin: () => baseUrl, logger });
    ({ config, emulator, shopify } = local);
    mounts = [local.mount];
  } else {
    const emulatorServer = await listen(createServer());
    emulatorOrigin = `http://127.0.0.1:${(emulatorServer.address() as AddressInfo).port}`;
    emulator = createShopifyEmulator({
      publicOrigin: emulatorOrigin,
      accessToken: ACCESS_TOKEN,
      clientSecret: 'integration-test-secret',
      bucket: opts.bucket,
      now: () => clock.now,
      ...opts.emulator,
    });
    emulatorServer.on('request', emulator.app.callback());
    servers.push(emulatorServer);
    if (opts.mountEmulator) mounts = [{ path: '/shopify-emulator', app: emulator.app }];

    shopify = new ShopifyGraphql({
      storeDomain: 'pogs-test.myshopify.com',
      apiVersion: '2026-07',
      accessToken: ACCESS_TOKEN,
      originOverride: emulatorOrigin,
      logger,
      onWait: (reason, ms) => waits.push({ reason, ms }),
      // Waiting advances the emulator's clock instead of the wall clock.
      sleep: async (ms) => {
        clock.now += ms;
      },
    });
  }
  let target: ChainTarget | undefined;
  let swap = opts.swap;
  if (opts.chain) {
    const token = await ensureDemoToken(database.db, opts.chain.rpcUrl);
    target = {
      rpcUrl: opts.chainRpc?.rpcUrl ?? opts.chain.rpcUrl,
      chainId: BASE_CHAIN_ID,
      tokenAddress: token.tokenAddress,
      storeWallet: token.storeWallet,
      timeoutMs: opts.chainRpc?.timeoutMs,
    };
    if (opts.pricePool) {
      const pricePool = await ensurePricePool(database.db, opts.chain.rpcUrl, token.tokenAddress);
      const { pool, usdFeed, sequencerFeed } = pricePool;
      config = { ...config, priceReference: { ...config.priceReference, contracts: { pool, usdFeed, sequencerFeed } } };
      if (opts.swapVenue) {
        const venue = await ensureSwapVenue(database.db, opts.chain.rpcUrl, { ...pricePool, token: token.tokenAddress });
        config = { ...config, swap: localSwapConfig(config.swap, venue, pricePool.weth) };
        // Who paid a swap, as local mode wires it.
        swap ??= localSwapFacts(venue, pricePool);
      }
    }
  }
  const now = () => new Date(clock.now);
  // What every instance of this world shares; each gets its own database connections.
  const wiring: Omit<ServiceOptions, 'db'> = {
    config,
    logger,
    shopify,
    now,
    catalogueSync: {
      pageSize: opts.pageSize ?? 5,
      variantsFirst: opts.variantsFirst ?? 10,
      method: opts.syncMethod,
      bulk: { pollFirstMs: 5, pollMaxMs: 20 },
    },
    // localShopify: the webhook key is the one main.ts wires, from the data folder's secrets.
    webhookSecret: opts.localShopify ? undefined : 'integration-test-secret',
    sleep: async (ms) => {
      adminDelays.push(ms);
      clock.now += ms;
    },
    catalogueReconnectMs: opts.catalogueReconnectMs,
    verifyAdminPassword: opts.verifyAdminPassword,
  };
  const services = buildServices({
    ...wiring,
    db: database.db,
    target,
    swap,
    demoWallet: opts.demoWallet,
    mounts,
    staticDir: opts.staticDir,
  });
  const { catalogue, sessions, carts, rateLimiter, payments } = services;
  catalogues.push(catalogue);
  const appServer = await listen(createServer(createApp({ ...services.app, viewRenders: opts.viewRenders }).callback()));
  servers.push(appServer);
  baseUrl = `http://127.0.0.1:${(appServer.address() as AddressInfo).port}`;
  emulatorOrigin ||= `${baseUrl}/shopify-emulator`;
  if (payments) await subscribeShopifyWebhooks(shopify, `${baseUrl}/api/webhooks/shopify`, logger);

  return {
    emulatorOrigin,
    config,
    database,
    emulator,
    shopify,
    catalogue,
    sessions,
    carts,
    rateLimiter,
    baseUrl,
    waits,
    adminDelays,
    clock,
    payments,
    swap,
    services,
    api: (path, init) => fetch(baseUrl + path, init),
    async startAnotherInstance() {
      if (!database.connectAgain) throw new Error('a second instance needs Postgres (PGlite is one process)');
      // Without a chain target: no second watcher or hand-off competing with the first.
      const other = buildServices({ ...wiring, db: database.connectAgain() });
      catalogues.push(other.catalogue);
      const server = await listen(createServer(createApp(other.app).callback()));
      servers.push(server);
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      return { baseUrl: url, api: (path, init) => fetch(url + path, init), db: other.db, catalogue: other.catalogue };
    },
    async close() {
      await payments?.watcher.stop(); // releases its lock's connection
      await payments?.sponsorshipWatcher?.stop(); // likewise
      payments?.chain.destroy();
      services.outages.close();
      for (const s of servers) await new Promise((r) => s.close(r));
      for (const c of catalogues) await c.close(); // its LISTEN connection
      await carts.close(); // it hears cart changes
      await database.destroy();
    },
  };
}

async function listen(server: Server): Promise<Server> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}
