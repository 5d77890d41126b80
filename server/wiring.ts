/**
 * The one place the server's services are built from their parts. `npm start` (main.ts), the
 * integration-test harness and, through it, the benches all call buildServices, so the tests run
 * the wiring the shop runs. What differs for tests is an option here, not a second copy.
 *
 * Start-up that depends on the mode stays with the caller: main.ts starts the local chain, deploys
 * the demo token and (local mode only, by a dynamic import) the Shopify emulator, then hands in
 * the chain target, the emulator's Shopify client and its mount. This file never imports them.
 */
import type { AppDeps } from './app';
import type { Config } from './config';
import { dbKind, type Db } from './db';
import type { Logger } from './lib/logger';
import { RateLimiter } from './lib/rate-limit';
import { dependencyProbes, PROBE_TIMEOUT_MS, Readiness } from './ops/readiness';
import { Outages } from './lib/outages';
import { CatalogueService, syncRunEventData } from './modules/catalogue';
import { ClientCredentialsToken, requestGrant, ShopifyGraphql, StaticAccessToken } from './shopify';
import { CartService } from './modules/cart';
import {
  claimedUnitsByVariant,
  createPaymentServices,
  transferEventData,
  type ChainTarget,
  type PaymentServices,
  type SwapFacts,
} from './modules/payments';
import { orderEventData, OrdersService, refundEventData, ShopifyHandoff, unsyncedSalesByVariant } from './modules/orders';
import { WebhookEndpoints, WebhookSender, type WebhookAudit } from './modules/outgoing-webhooks';
import { StockService } from './modules/stock';
import { AuthService } from './modules/auth';
import { PaymasterService, SponsoredGasReport, SponsorshipWatcher } from './modules/paymaster';
import { SessionService } from './modules/session';
import { OrderNews, PushSubscriptions } from './modules/notifications';
import { PriceReferenceService } from './modules/price-reference';
import { SwapQuotes } from './modules/swaps';
import { AdminService, InventoryAdmin, OrdersDesk, PaymentsDesk, recordAudit, TransferAttach } from './modules/admin';
import { sleep as realSleep, type Sleep } from './lib/sleep';

export interface ServiceOptions {
  config: Config;
  db: Db;
  logger: Logger;
  /** The Shopify Admin client; by default the live store's, from `config.shopify`. Local mode and tests pass the emulator's. */
  shopify?: ShopifyGraphql;
  /** Where payments go; without it there is no checkout, no orders and no webhooks (tests that need no chain). */
  target?: ChainTarget;
  /**
   * With `target`: the swap route's facts (lower case; null or absent when no route is set): who
   * paid a transfer from its pools is proven from the chain, and refunds go to them.
   */
  swap?: SwapFacts | null;
  /** The built client (dist/) to serve. */
  staticDir?: string;
  /** Demo surfaces (local mode only, see AppDeps). */
  mounts?: AppDeps['mounts'];
  demoWallet?: AppDeps['demoWallet'];

  // Test knobs.
  /**
   * The clock of sessions and rate-limit windows (the tests' clock, moved by hand). Payments keep
   * the wall clock: their tests pay on a real local chain, in real time.
   */
  now?: () => Date;
  /**
   * Catalogue sync paging, small in tests so that paging is exercised; `method: 'paged'` skips the
   * bulk query; `bulk` polls faster in tests.
   */
  catalogueSync?: {
    pageSize?: number;
    variantsFirst?: number;
    method?: 'bulk' | 'paged';
    bulk?: { pollFirstMs?: number; pollMaxMs?: number };
  };
  /** The webhook HMAC key, when it is not the configured app's (the test emulator's). */
  webhookSecret?: string;
  /** How the admin login's delay is waited (tests record it and move their clock instead). */
  sleep?: Sleep;
  /** How the admin password is checked (tests count the real checks through it). */
  verifyAdminPassword?: (password: string, hashLine: string) => Promise<boolean>;
  /** The first wait before the catalogue's lost LISTEN connection is made again (doubling, at most 5 s). */
  catalogueReconnectMs?: number;
  /** How the merchant's webhook URLs' hosts are resolved (a test resolves a name to a private address). */
  webhookResolve?: (host: string) => Promise<string[]>;
}

/**
 * What a chain target brings: the payment services (built by the payments module from their
 * dependencies), and beside them the orders, the Shopify hand-off and Sign-In with Ethereum.
 */
export interface PaymentSystem extends PaymentServices {
  orders: OrdersService;
  handoff: ShopifyHandoff;
  auth: AuthService;
  /** The shop's paymaster service, when it pays smart wallets' gas (its own paymaster's settings, or a hosted one's). */
  paymaster?: PaymasterService;
  /** With the paymaster: its deposit left and the sponsorships per day, for the admin. */
  sponsoredGas?: SponsoredGasReport;
  /** With the paymaster: what each sponsorship really cost, and whether it paid its checkout. */
  sponsorshipWatcher?: SponsorshipWatcher;
  /** Paying with ETH or USDC, when a coin has a route: the swaps' quotes. */
  swaps?: SwapQuotes;
  /** The Shopify app's client secret, the webhook HMAC key. */
  webhookSecret: string | undefined;
  /** Order updates by Web Push: the subscriptions, the job that sends the news, and the VAPID public key (null: off). */
  notifications: { subscriptions: PushSubscriptions; news: OrderNews; publicKey: string | null };
}

export interface Services {
  config: Config;
  db: Db;
  logger: Logger;
  shopify: ShopifyGraphql;
  /** What payments on their way hold (the catalogue, the inventory and payments judge stock with it). */
  stock: StockService;
  catalogue: CatalogueService;
  sessions: SessionService;
  carts: CartService;
  rateLimiter: RateLimiter;
  /** Admin login and sessions (the expiry sweep removes ended ones). */
  admin: AdminService;
  /** Checkout, settlement, orders, the chain watcher and the hand-off; present when a target was given. */
  payments?: PaymentSystem;
  /** The dollar reference beside prices, when configured (with a chain target): its job reads the chain. */
  priceReference?: PriceReferenceService;
  /** The merchant's webhook endpoints (the admin's) and the job that sends their events. */
  webhooks: { endpoints: WebhookEndpoints; sender: WebhookSender };
  /** Whether traffic should come here (GET /api/health/ready); main.ts marks the shutdown. */
  readiness: Readiness;
  /** The shared services' outages as this instance sees them (one log line as each begins and ends). */
  outages: Outages;
  /** What createApp takes. */
  app: AppDeps;
}

export function buildServices(opts: ServiceOptions): Services {
  const { config, db, logger, target, now } = opts;
  const shopify = opts.shopify ?? storeClient(config, logger);
  const outages = new Outages({ logger });
  // The units held for payments on their way, each part read by the module that owns its rows:
  // payments' claims and orders' sales Shopify does not have yet (the stock module imports neither).
  const stock = new StockService({ claimed: claimedUnitsByVariant, sold: unsyncedSalesByVariant });
  const catalogue = new CatalogueService(db, shopify, stock, logger, opts.catalogueSync, {
    stalenessMs: config.catalogueStalenessMs,
    reconnectMs: opts.catalogueReconnectMs,
    outages,
  });
  const sessions = new SessionService(db, { ttlMs: config.sessionTtlMs, now });
  const carts = new CartService(db, catalogue, logger);
  const rateLimiter = new RateLimiter(db, { scale: config.rateLimitScale, now });
  // With a chain target: payments and what they feed. They keep the wall clock (`now` is not theirs).
  let payments: PaymentSystem | undefined;
  let priceReference: PriceReferenceService | undefined;
  if (target) {
    const orders = new OrdersService(db, { explorerUrl: config.mode === 'local' ? null : config.publicLinks.explorerUrl });
    const paymentServices = createPaymentServices({
      config,
      db,
      logger,
      target,
      orders,
      stock,
      outages,
      // Built just below, on the payments' chain client: each order keeps the reference at its payment's block.
      referenceAt: async (block) => (priceReference ? priceReference.atBlock(block) : null),
      swap: opts.swap,
    });
    const { contracts } = config.priceReference;
    if (contracts) {
      priceReference = new PriceReferenceService({
        chain: paymentServices.chain,
        config: { ...config.priceReference, contracts },
        tokenAddress: target.tokenAddress,
        logger,
        outages,
      });
    }
    const handoff = new ShopifyHandoff({ db, shopify, logger, outages });
    // The chain's RPC also checks smart accounts' sign-in signatures (ERC-1271, ERC-6492).
    const auth = new AuthService(db, {
      chainId: target.chainId,
      rpc: paymentServices.chain.request,
      // A proven wallet may claim the transfers it sent with a wrong amount (never a typed address).
      onSignedIn: (sessionId, address) =>
        paymentServices.settlement
          .adoptUnmatched(sessionId, address)
          .catch((err) => logger.error({ err }, 'matching a signed-in wallet’s transfers failed')),
    });
    // The shop's paymaster, when it pays smart wallets' gas: the service, the admin's report, and
    // the watcher that settles each sponsorship from the paymaster's UserOperationEvents.
    let sponsored: Pick<PaymentSystem, 'paymaster' | 'sponsoredGas' | 'sponsorshipWatcher'> = {};
    if (config.paymaster) {
      const pm = config.paymaster;
      const own = pm.sponsor.kind === 'verifying' ? pm.sponsor.address : null;
      const paymaster = new PaymasterService(db, {
        chainId: target.chainId,
        paymaster: pm,
        sponsorTimeoutMs: config.timeouts.paymasterServiceMs,
        url: `${config.publicUrl}/api/paymaster`,
        rpc: paymentServices.chain.request,
        logger,
      });
      sponsored = {
        paymaster,
        // Sponsorships are recorded with the wall clock, so the days are counted with it too.
        sponsoredGas: new SponsoredGasReport(db, {
          paymasterAddress: own,
          entryPoint: pm.entryPoint,
          rpc: paymentServices.chain.request,
          ledger: paymaster.ledger,
          logger,
        }),
        sponsorshipWatcher: new SponsorshipWatcher({
          db,
          dbKind: dbKind(db),
          chain: paymentServices.chain,
          chainId: target.chainId,
          entryPoint: pm.entryPoint,
          ownPaymaster: own,
          tokenAddress: target.tokenAddress,
          storeWallet: target.storeWallet,
          requiredConfirmations: config.payments.requiredConfirmations,
          logRange: config.payments.logRange,
          pollIntervalMs: config.payments.pollIntervalMs,
          startAtGenesis: config.chain.kind === 'local',
          logger,
          outages,
        }),
      };
    }
    // Order updates: off while there are no VAPID keys (a live shop without them; local mode before main.ts read its own).
    const vapid = config.push.kind === 'off' ? null : (config.push.keys ?? null);
    const local = config.mode === 'local';
    const subscriptions = new PushSubscriptions(db, { local });
    const news = new OrderNews({
      db,
      subscriptions,
      vapid,
      origin: config.publicUrl,
      timeoutMs: config.timeouts.pushMs,
      local,
      logger,
    });
    payments = {
      ...paymentServices,
      orders,
      handoff,
      auth,
      notifications: { subscriptions, news, publicKey: vapid?.publicKey ?? null },
      ...sponsored,
      swaps: Object.keys(config.swap.routes).length
        ? new SwapQuotes({
            chain: paymentServices.chain,
            config: config.swap,
            tokenAddress: target.tokenAddress,
            storeWallet: target.storeWallet,
          })
        : undefined,
      webhookSecret: opts.webhookSecret ?? config.shopify.clientSecret,
    };
  }
  const passwordHash = config.adminPassword.hash;
  if (!passwordHash) throw new Error('local mode: read the generated admin password (loadLocalAdminPassword) before buildServices');
  const admin = new AdminService(db, { passwordHash, now, sleep: opts.sleep ?? realSleep, verify: opts.verifyAdminPassword });
  const inventory = new InventoryAdmin(db, catalogue, stock, { now });
  const desk = new PaymentsDesk(db, {
    config,
    chainHead: payments && (() => payments.chain.blockNumber()),
    refunds: payments?.refunds,
    now,
  });
  const attach = new TransferAttach(db, { desk, settlement: payments?.settlement, now });
  const ordersDesk = new OrdersDesk(db, { config, handoff: payments?.handoff, now });
  const sponsoredGas = payments?.sponsoredGas;
  // The merchant's webhooks: their changes in the admin's audit trail, each event's data composed
  // by the module that owns it (outgoing-webhooks imports none of them).
  const audit = (trx: Parameters<typeof recordAudit>[0], e: WebhookAudit) => recordAudit(trx, e);
  const localMode = config.mode === 'local';
  const webhooks = {
    endpoints: new WebhookEndpoints(db, { audit, local: localMode, resolve: opts.webhookResolve, now }),
    sender: new WebhookSender({
      db,
      audit,
      local: localMode,
      resolve: opts.webhookResolve,
      timeoutMs: config.timeouts.webhookMs,
      logger,
      composers: {
        'order.paid': (id) => orderEventData(db, id),
        'order.confirmed': (id) => orderEventData(db, id),
        'order.shipped': (id) => orderEventData(db, id),
        'order.refunded': (id) => orderEventData(db, id),
        'payment.needs_attention': (subject) => transferEventData(db, subject),
        'payment.refund_recorded': (id) => refundEventData(db, id),
        'catalogue.synced': (id) => syncRunEventData(db, id),
      },
    }),
  };
  // One set of probes: readiness asks them, and while a service is down the outages ask it again.
  const probes = dependencyProbes({
    db,
    shopify,
    payments,
    maxHeadAgeSeconds: config.readiness.maxHeadAgeSeconds,
    timeoutMs: PROBE_TIMEOUT_MS,
  });
  outages.useProbes(probes);
  const readiness = new Readiness({ db, shopify, payments, catalogue: () => catalogue.list(), outages, probes, ...config.readiness });
  const app: AppDeps = {
    config,
    db,
    logger,
    catalogue,
    sessions,
    carts,
    rateLimiter,
    admin: {
      sessions: admin,
      inventory,
      desk,
      attach,
      ordersDesk,
      sponsoredGas: sponsoredGas && (() => sponsoredGas.read()),
      webhooks: webhooks.endpoints,
      now,
    },
    staticDir: opts.staticDir,
    readiness,
    outages,
    mounts: opts.mounts,
    demoWallet: opts.demoWallet,
    webhookSecret: opts.webhookSecret ?? config.shopify.clientSecret,
    payments,
    priceReference,
  };
  return {
    config,
    db,
    logger,
    shopify,
    stock,
    catalogue,
    sessions,
    carts,
    rateLimiter,
    admin,
    payments,
    priceReference,
    webhooks,
    readiness,
    outages,
    app,
  };
}

/** The Shopify client of a live shop: its credential's token source, its API origin, its timeout (also the doctor's). */
export function storeClient(config: Config, logger: Logger): ShopifyGraphql {
  if (config.shopify.kind !== 'store')
    throw new Error('local mode: pass the Shopify emulator’s client (startLocalShopify) to buildServices');
  const { storeDomain, apiVersion, credential, apiOrigin, apiOriginConfigured } = config.shopify;
  const timeoutMs = config.timeouts.shopifyMs;
  const tokens =
    credential.kind === 'static-token'
      ? new StaticAccessToken(credential.accessToken)
      : new ClientCredentialsToken(
          () => requestGrant({ apiOrigin, storeDomain, clientId: credential.clientId, clientSecret: credential.clientSecret, timeoutMs }),
          { logger },
        );
  return new ShopifyGraphql({
    storeDomain,
    apiVersion,
    accessToken: tokens,
    originOverride: apiOriginConfigured ? apiOrigin : undefined,
    timeoutMs,
    logger,
  });
}
