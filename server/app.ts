/**
 * The Koa app factory, used by main.ts and by the integration tests. Everything it needs comes in
 * through `deps`; it starts nothing in the background.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Koa from 'koa';
import { Router } from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import mount from 'koa-mount';
import serve from 'koa-static';
import type { PaymentsStatus, PublicConfig } from '../common/api';
import type { RenderShopPage, ShopRenderModule } from '../common/shop-render';
import type { SponsoredGas } from '../common/sponsored-gas';
import { BASE_CHAIN_ID } from '../common/chain';
import { ErrorCode } from '../common/errors';
import type { Config } from './config';
import type { Db } from './db';
import { compression, COMPRESSION_THRESHOLD } from './lib/compression';
import compose from 'koa-compose';
import { isLostDatabaseConnection } from './lib/db-errors';
import { AppError, toErrorAnswer } from './lib/errors';
import { requestLog } from './lib/request-log';
import type { Logger } from './lib/logger';
import { rateLimitMiddleware, type RateLimiter } from './lib/rate-limit';
import { refuseCrossSiteWrites } from './lib/cross-site';
import { refuseNulInAddress, refuseNulInBody } from './lib/nul-characters';
import { allowInlineScripts, securityHeaderSet, securityHeaders } from './lib/security-headers';
import { FastLaneApp, storedReadLane } from './lib/fast-lane';
import type { BucketSize } from './lib/token-bucket';
import { catalogueRoutes, catalogueStoredReads, type CatalogueService } from './modules/catalogue';
import { cartReadLane, cartRoutes, type CartService } from './modules/cart';
import { sessionMiddleware, type SessionService } from './modules/session';
import { paymentRoutes, type CheckoutService, type OrderFromTransaction, type PaymentTarget } from './modules/payments';
import { orderRoutes, shopifyWebhookRoutes, type OrdersService } from './modules/orders';
import { paymasterRoutes, type PaymasterService } from './modules/paymaster';
import { authRoutes, type AuthService } from './modules/auth';
import { notificationRoutes, type PushSubscriptions } from './modules/notifications';
import { priceReferenceRoutes, type PriceReferenceService } from './modules/price-reference';
import { swapRoutes, type SwapQuotes } from './modules/swaps';
import {
  adminRoutes,
  type AdminService,
  type InventoryAdmin,
  type OrdersDesk,
  type PaymentsDesk,
  type TransferAttach,
} from './modules/admin';
import { BASE_PUBLIC_RPC_URL } from './config';
import { pageScriptsOf } from './pages/client-manifest';
import type { Readiness } from './ops/readiness';
import { reasonOf, type Outages } from './lib/outages';
import { healthRoutes } from './ops/health-routes';
import type { WebhookEndpoints } from './modules/outgoing-webhooks';
import { shopPages, type ShopPagesOptions } from './pages/shop-pages';
import { pageMeta } from './pages/seo/page-meta';
import { seoRoutes } from './pages/seo/routes';
import type { SitemapLimits } from './pages/seo/sitemap';

export interface AppDeps {
  config: Config;
  db: Db;
  logger: Logger;
  catalogue: CatalogueService;
  sessions: SessionService;
  carts: CartService;
  /** Counts requests to the rate-limited routes (shared by all instances through the database). */
  rateLimiter: RateLimiter;
  /**
   * The admin area: login and sessions, the inventory, the payments desk (with attaching transfers), the orders view, the
   * audit trail (`now`: the sessions' clock, for Retry-After).
   */
  admin: {
    sessions: AdminService;
    inventory: InventoryAdmin;
    desk: PaymentsDesk;
    attach: TransferAttach;
    ordersDesk: OrdersDesk;
    /** The paymaster's deposit left and its sponsorships per day; absent when the shop pays no gas. */
    sponsoredGas?: () => Promise<SponsoredGas>;
    /** The merchant's webhook endpoints. */
    webhooks: WebhookEndpoints;
    now?: () => Date;
  };
  /** The built client (dist/); when absent only the API is served. */
  staticDir?: string;
  /** How much one sitemap file holds (the protocol's 50,000 addresses and 50 MB unless a test asks for less). */
  sitemapLimits?: SitemapLimits;
  /** The server renders of new home views allowed (shop-pages.ts's VIEW_RENDERS unless a test asks for another). */
  viewRenders?: BucketSize;
  /** What GET /api/health/ready asks (ready when absent). */
  readiness?: Readiness;
  /** Where a lost database is reported, once per outage (a warning per request when absent). */
  outages?: Outages;
  /**
   * Demo surfaces, served only when `config.mode` is 'local' (ignored otherwise, whoever passes
   * them): the Demo Wallet's JSON-RPC routes (built by local-mode.ts, acting as one dev account
   * of the local chain), and apps mounted under a path (the Shopify emulator).
   */
  demoWallet?: Router;
  mounts?: Array<{ path: string; app: Koa }>;
  /** The Shopify app's client secret (the webhook HMAC key) when there are no payments. */
  webhookSecret?: string;
  /** Checkout, orders and Shopify webhooks; absent in tests that need no chain. */
  payments?: {
    target: PaymentTarget;
    checkouts: CheckoutService;
    orderFromTx: OrderFromTransaction;
    orders: OrdersService;
    auth: AuthService;
    /** The shop's paymaster service, when it pays smart wallets' gas. */
    paymaster?: PaymasterService;
    /** Paying with ETH or USDC: the swaps' quotes, when a coin has a route. */
    swaps?: SwapQuotes;
    /** The Shopify app's client secret, the webhook HMAC key. */
    webhookSecret: string | undefined;
    /** Order updates by Web Push: the signed-in wallets' subscriptions and the VAPID public key (null: off). */
    notifications: { subscriptions: PushSubscriptions; publicKey: string | null };
  };
  /** The dollar reference beside prices (GET /api/price-reference answers null without it). */
  priceReference?: PriceReferenceService;
}

export function createApp(deps: AppDeps): Koa {
  const { config, db, logger, catalogue, sessions, carts } = deps;
  // Behind our own proxies only the X-Forwarded-For entries they added are believed: a client
  // could write anything before them.
  const app = new FastLaneApp({ proxy: config.trustedProxyHops > 0, maxIpsCount: config.trustedProxyHops });

  // Koa reports stream errors outside the middleware chain; a shopper closing the tab mid-response
  // (premature close, reset, broken pipe) is not an error worth a log line.
  app.on('error', (err: NodeJS.ErrnoException) => {
    if (['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'ECONNABORTED'].includes(err.code ?? '')) return;
    logger.error({ err }, 'server error');
  });
  const trustProxyId = config.trustedProxyHops > 0;
  const security = securityHeaderSet(config);
  // The catalogue's stored answers, when ready, are given ahead of the middleware below: the same
  // request id, log line, histogram and headers, without the chain (lib/fast-lane.ts).
  app.addLane(storedReadLane({ find: catalogueStoredReads(catalogue), security, logger, trustProxyId }));
  // Likewise a shopper's cart when its answer is in memory and current (modules/cart/lane.ts).
  app.addLane(cartReadLane({ carts, sessions, security, logger, trustProxyId }));
  app.use(requestLog({ logger, trustProxyId }));
  const afterErrorHandler = app.middleware.length + 1;
  app.use(errorHandler(logger, deps.outages, () => app.middleware.slice(afterErrorHandler)));
  app.use(compression({ threshold: COMPRESSION_THRESHOLD }));
  // On every answer, errors included (server/lib/security-headers.ts).
  app.use(securityHeaders(security));
  // Before anything reads or writes: another site's request makes no session, rate-limit count or change.
  app.use(refuseCrossSiteWrites(config));
  // A NUL in an API request's path or query is refused before any route or session (lib/nul-characters.ts).
  app.use(refuseNulInAddress());
  // Demo surfaces exist only in full local mode (config.ts decides it; checked here again).
  const demo = config.mode === 'local';
  if (!demo && (deps.mounts?.length || deps.demoWallet)) {
    logger.error('demo surfaces (Shopify emulator, Demo Wallet) were offered to a live shop; they are not served');
  }
  if (demo) for (const m of deps.mounts ?? []) app.use(mount(m.path, m.app));
  // The catalogue's reads, the busiest routes, ahead of what they never need (webhooks, request
  // bodies, sessions, rate limits): every page and every shopper asks them, answered from memory.
  const catalogueRouter = catalogueRoutes(catalogue);
  app.use(catalogueRouter.routes()).use(catalogueRouter.allowedMethods({ throw: true }));
  {
    // Before the body parser: the HMAC is computed over the raw bytes. Order topics need payments;
    // the catalogue's topics are handed to the catalogue.
    const clientSecret = deps.payments ? deps.payments.webhookSecret : deps.webhookSecret;
    const webhooks = shopifyWebhookRoutes({ db, logger, clientSecret, handlers: [catalogue.webhooks] });
    app.use(webhooks.routes()).use(webhooks.allowedMethods({ throw: true }));
  }
  app.use(
    bodyParser({
      enableTypes: ['json'],
      jsonLimit: '32kb',
      // DELETE too: removing a push subscription names its endpoint in the body.
      parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'],
      // Only objects and arrays are JSON bodies worth parsing for this API.
      jsonStrict: true,
    }),
  );
  app.use(refuseNulInBody());

  const api = new Router();
  const publicConfig = (): PublicConfig => ({
    shopName: 'POGS Shop',
    productName: 'POGS',
    tokenSymbol: 'POG',
    currencyLabel: '$POGS',
    tokenDecimals: 18,
    chainId: BASE_CHAIN_ID,
    chainName: 'Base',
    explorerUrl: config.publicLinks.explorerUrl,
    communityUrl: config.publicLinks.communityUrl,
    brandUrl: config.publicLinks.brandUrl,
    walletConnectProjectId: config.walletConnectProjectId,
    chainRpcUrl: BASE_PUBLIC_RPC_URL,
    demoWallet: demo && Boolean(deps.demoWallet),
    mode: config.mode,
    tokenAddress: deps.payments?.target.tokenAddress ?? null,
    storeWallet: deps.payments?.target.storeWallet ?? null,
    gasPaidByShop: Boolean(deps.payments?.paymaster),
    payWith: deps.payments?.swaps?.coins() ?? [],
  });
  api.get('/api/config', (ctx) => {
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = publicConfig();
  });
  // Paused while this instance sees the chain's RPC down (lib/outages.ts): a shopper is told before
  // sending a transfer the shop could not see yet.
  api.get('/api/payments/status', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const status: PaymentsStatus = { paused: Boolean(deps.payments && deps.outages?.isDown('chain')) };
    ctx.body = status;
  });
  healthRoutes(api, { config, logger, catalogue, readiness: deps.readiness, outages: deps.outages });

  const session = sessionMiddleware(sessions, { secure: config.env === 'production' });
  app.use(session);
  // Before every router it guards: a refused request creates no session, nonce or checkout and
  // makes no RPC call.
  app.use(rateLimitMiddleware(deps.rateLimiter, { logger, outages: deps.outages, sessionId: (ctx) => ctx.state.session.id() }));
  const routers = [
    api,
    // Ahead of the built client's files: robots.txt and the sitemap follow PUBLIC_URL and the catalogue.
    seoRoutes({ catalogue, publicUrl: config.publicUrl, sitemapLimits: deps.sitemapLimits }),
    cartRoutes(carts),
    priceReferenceRoutes(deps.priceReference),
    adminRoutes({
      admin: deps.admin.sessions,
      inventory: deps.admin.inventory,
      desk: deps.admin.desk,
      attach: deps.admin.attach,
      ordersDesk: deps.admin.ordersDesk,
      sponsoredGas: deps.admin.sponsoredGas,
      webhooks: deps.admin.webhooks,
      config,
      db,
      now: deps.admin.now,
    }),
  ];
  if (deps.payments) {
    const { checkouts, orderFromTx, orders, auth } = deps.payments;
    routers.push(
      paymentRoutes(checkouts, orderFromTx),
      orderRoutes(orders, auth),
      authRoutes(auth, config),
      notificationRoutes({ ...deps.payments.notifications, auth }),
    );
    if (deps.payments.paymaster) routers.push(paymasterRoutes(deps.payments.paymaster, checkouts));
    if (deps.payments.swaps) routers.push(swapRoutes({ quotes: deps.payments.swaps, checkouts, db }));
  }
  // Never with a real chain or store: the Demo Wallet exists only in the full local demo.
  if (demo && deps.demoWallet) routers.push(deps.demoWallet);
  for (const router of routers) {
    app.use(router.routes()).use(router.allowedMethods({ throw: true }));
  }

  if (deps.staticDir && fs.existsSync(path.join(deps.staticDir, 'index.html'))) {
    app.use(
      staticClient(deps.staticDir, { catalogue, publicConfig, logger, meta: pageMeta(config.publicUrl), viewRenders: deps.viewRenders }),
    );
  }
  return app;
}

/** Paths only the server answers (the API, the local Shopify emulator): never the shop's index.html. */
const SERVER_PATHS = /^\/(api|shopify-emulator)(\/|$)/i;
const isApiPath = (p: string) => /^\/api(\/|$)/i.test(p);

/** How long a client is told to wait after the database connection was lost (Retry-After, seconds). */
const LOST_DATABASE_RETRY_AFTER_S = 2;

/**
 * Answers every error with `{ code, message }` and its status (server/lib/errors.ts). A read
 * (GET, HEAD) that failed because the database connection was lost is run once more, on a fresh
 * connection, before it is answered `503 service-unavailable` with Retry-After; a write is not
 * repeated (it may have happened). `downstream` is what runs after this middleware, for that retry.
 */
function errorHandler(logger: Logger, outages: Outages | undefined, downstream: () => Koa.Middleware[]): Koa.Middleware {
  // A lost database: once per outage in the log (lib/outages.ts), not once per request.
  const databaseLost = (ctx: Koa.Context, err: unknown, what: string) => {
    const line = { reqId: ctx.state.requestId, reason: reasonOf(err) };
    if (outages?.report(err)) logger.debug(line, what);
    else logger.warn(line, what);
  };
  const answered = (ctx: Koa.Context) => {
    // Nothing answered (the routers' allowedMethods already turned a known path with the wrong
    // method into a 405, and an unknown method into a 501).
    if (ctx.status === 404 && ctx.body == null) {
      const what = isApiPath(ctx.path) ? 'There is no API endpoint' : 'There is nothing at';
      throw new AppError(ErrorCode.notFound, `${what} ${ctx.method} ${ctx.path}`);
    }
  };
  return async (ctx, next) => {
    try {
      try {
        await next();
      } catch (err) {
        // Only a read that has not begun its answer can simply be run again.
        const read = ctx.method === 'GET' || ctx.method === 'HEAD';
        if (!(isLostDatabaseConnection(err) && read && ctx.body == null && !ctx.headerSent)) throw err;
        databaseLost(ctx, err, 'database connection lost; reading once more');
        await compose(downstream())(ctx);
      }
      answered(ctx);
    } catch (err) {
      const { status, body } = toErrorAnswer(err);
      if (body.code === ErrorCode.serviceUnavailable) {
        databaseLost(ctx, err, 'database connection lost');
        ctx.set('Retry-After', String(LOST_DATABASE_RETRY_AFTER_S));
      } else if (status === 503) {
        // Something unavailable for a while (the chain or Shopify not answering, said once where it
        // was met: lib/outages.ts; a login refused while too many are being checked, counted in
        // pogs_rate_limit_refusals_total): not a line for every request that meets it.
        logger.debug({ reqId: ctx.state.requestId, code: body.code }, 'answered unavailable');
      } else if (status >= 500 && status !== 501) {
        logger.error({ err, reqId: ctx.state.requestId, method: ctx.method, path: ctx.path }, 'request failed');
      }
      // The rest of an oversized body may still be on its way: closing the connection after the
      // answer keeps it from being read as the client's next request.
      if (status === 413) ctx.set('Connection', 'close');
      ctx.status = status;
      ctx.set('Cache-Control', 'no-store');
      ctx.body = body;
    }
  };
}

/**
 * The client's server-rendering entry, built beside the client (`dist` → `dist-ssr/entry-server.js`,
 * see client/entry-server.tsx), loaded once on the first page that needs it. Without it (a build
 * without the SSR step, or a test's bare index.html) the pages carry their data only.
 */
function serverRendering(dir: string, logger: Logger): () => Promise<RenderShopPage | null> {
  const file = path.join(path.dirname(dir), `${path.basename(dir)}-ssr`, 'entry-server.js');
  let loaded: Promise<RenderShopPage | null> | undefined;
  return () =>
    (loaded ??= fs.existsSync(file)
      ? import(pathToFileURL(file).href).then(
          (module: ShopRenderModule) => module.renderShopPage,
          (err: unknown) => {
            logger.error({ err, file }, 'the server-rendering entry could not be loaded: pages carry their data only');
            return null;
          },
        )
      : Promise.resolve(null));
}

/**
 * Serves the built client. Hashed assets are cached for a year; index.html and the service worker
 * are always revalidated so a release reaches shoppers. Unknown paths get index.html (SPA routes),
 * except the server's own (/api, /shopify-emulator): those get the JSON 404. The home and the
 * product pages get index.html with their data inlined (shop-pages.ts), its ETag following the
 * catalogue, still revalidated on every visit.
 */
function staticClient(dir: string, data: Omit<ShopPagesOptions, 'template'>): Koa.Middleware {
  const files = serve(dir, {
    index: 'index.html',
    setHeaders(res, filePath) {
      const rel = path.relative(dir, filePath);
      if (rel.startsWith(`assets${path.sep}`)) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      else res.setHeader('Cache-Control', 'no-cache');
    },
  });
  const indexHtml = fs.readFileSync(path.join(dir, 'index.html'));
  const pageFor = shopPages({
    ...data,
    template: indexHtml.toString('utf8'),
    render: serverRendering(dir, data.logger),
    pageScripts: pageScriptsOf(dir, data.logger),
  });
  const wantsPage = (ctx: Koa.Context) =>
    (ctx.method === 'GET' || ctx.method === 'HEAD') && ctx.accepts('html') === 'html' && !path.extname(ctx.path);
  return async (ctx, next) => {
    if (SERVER_PATHS.test(ctx.path)) return next();
    const page = wantsPage(ctx) ? await pageFor(ctx.path, new URLSearchParams(ctx.querystring)) : null;
    if (page) {
      ctx.status = 200;
      ctx.type = 'html';
      ctx.set('Cache-Control', 'no-cache');
      ctx.set('ETag', page.etag);
      allowInlineScripts(ctx, page.scriptSources);
      if (ctx.fresh) ctx.status = 304;
      else ctx.body = page.body;
      return;
    }
    await files(ctx, next);
    if (ctx.body != null || ctx.status !== 404) return;
    if (wantsPage(ctx)) {
      ctx.status = 200;
      ctx.type = 'html';
      ctx.set('Cache-Control', 'no-cache');
      ctx.body = indexHtml;
    }
  };
}
