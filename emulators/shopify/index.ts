// Local stand-in for Shopify's Admin GraphQL API; see README.md beside this file. Routes, relative
// to wherever the app is mounted:
//   POST /admin/api/:version/graphql.json   the Admin API (token, cost, leaky bucket, faults)
//   POST /admin/oauth/access_token          the client-credentials grant (with `clientId` only)
//   GET  /cdn/images/:handle-:n.svg         generated product photos
//   GET|POST /:shopId/invoices/:token       a draft order's hosted invoice (checkout) page
//   GET  /bulk/:token.jsonl                 a finished bulk query's file (until its URL expires)
//   /__emulator/*                           test/dev controls, loopback clients only (control-routes.ts)
// State changes (draft created, invoice completed, order fulfilled, product changed) are sent as
// signed webhooks to the subscriptions made with webhookSubscriptionCreate (webhooks.ts).
import { randomUUID } from 'node:crypto';
import { Router } from '@koa/router';
import Koa from 'koa';
import { AccessTokens } from './access-tokens';
import { execute } from 'graphql';
import { createAdminSchema, EMULATOR_SHOP, type AdminContext } from './admin-resolvers';
import { controlRoutes } from './control-routes';
import { demoCatalogue } from './demo-catalogue';
import { EmulatorState, type EmulatorProduct } from './emulator-state';
import { graphqlEndpoint, type EmulatorRuntime } from './graphql-endpoint';
import { invoiceRoutes } from './invoice-routes';
import { LeakyBucket } from './leaky-bucket';
import { EmulatorOrders, type EmulatorDraftOrder } from './order-state';
import { renderProductImageSvg, requestedImageSize } from './product-image';
import { BulkOperations } from './bulk-operations';
import type { ShopifyEmulator, ShopifyEmulatorOptions } from './emulator';
import { toIsoSeconds } from './emulator-state';
import { inventoryLevelPayload, orderEventMessages, productDeletePayload, productPayload, type PayloadLinks } from './rest-payloads';
import { tokenEndpoint } from './token-endpoint';
import { Webhooks } from './webhooks';

export { signWebhookBody } from './webhooks';
export type { ShopifyEmulator, ShopifyEmulatorOptions } from './emulator';

/** Shopify's retry schedule is 8 tries over 4 hours; a local stand-in needs it shorter. */
const DEFAULT_WEBHOOK_RETRY_DELAYS_MS = [1000, 5000, 30000];
/** A granted token's life, answered as expires_in: Shopify's last about a day. */
const DEFAULT_TOKEN_TTL_SECONDS = 86399;
const DEFAULT_GRANTED_SCOPES = ['read_products', 'read_inventory', 'write_draft_orders', 'read_orders'];

const IMAGE_FILE = /^(.+)-(\d+)\.svg$/;

export function createShopifyEmulator(opts: ShopifyEmulatorOptions): ShopifyEmulator {
  if (opts.accessToken === undefined && opts.clientId === undefined) {
    throw new Error('The Shopify emulator needs an accessToken, a clientId (for the client-credentials grant), or both');
  }
  if (opts.clientId === '') throw new Error('clientId must not be empty');
  const ttlSeconds = opts.tokenTtlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS;
  if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1) throw new Error(`tokenTtlSeconds must be a whole number ≥ 1 (got ${ttlSeconds})`);
  const now = opts.now ?? Date.now;
  const tokens = new AccessTokens({ staticToken: opts.accessToken, ttlSeconds, now });
  const origin = opts.publicOrigin.replace(/\/+$/, '');
  const shopId = EMULATOR_SHOP.id;
  const state = new EmulatorState(demoCatalogue, now);
  const orders = new EmulatorOrders(state, now);
  const webhooks = new Webhooks({
    clientSecret: opts.clientSecret,
    shopDomain: EMULATOR_SHOP.myshopifyDomain,
    retryDelaysMs: opts.webhookRetryDelaysMs ?? DEFAULT_WEBHOOK_RETRY_DELAYS_MS,
    now,
  });
  const bucket = new LeakyBucket(opts.bucket?.maximumAvailable ?? 2000, opts.bucket?.restoreRate ?? 100, now);
  const imageUrl = (product: EmulatorProduct, position: number) => `${origin}/cdn/images/${product.handle}-${position}.svg`;
  const invoiceUrl = (draft: EmulatorDraftOrder) => `${origin}/${shopId}/invoices/${draft.invoiceToken}`;
  const links: PayloadLinks = {
    invoiceUrl,
    // The invoice page doubles as the order status page once its draft is completed.
    orderStatusUrl: (order) => {
      const draft = orders.getDraftOrder(order.draftOrderLegacyId);
      if (!draft) throw new Error(`Order ${order.name} has lost its draft order`);
      return invoiceUrl(draft);
    },
  };
  orders.subscribe((event) => webhooks.trigger(orderEventMessages(event, links)));
  const schema = createAdminSchema();
  const bulkOperations: BulkOperations = new BulkOperations({
    schema,
    now,
    execute: (document) =>
      Promise.resolve(
        execute({ schema, document, contextValue: { ...adminContext, apiVersion: 'bulk', bulk: true } satisfies AdminContext }),
      ),
    fileUrl: (token, expiresAt) => `${opts.bulkFileOrigin?.().replace(/\/+$/, '') ?? origin}/bulk/${token}.jsonl?expires=${expiresAt}`,
  });
  const adminContext: EmulatorRuntime['adminContext'] = { state, orders, webhooks, invoiceUrl, imageUrl, bulkOperations };
  const runtime: EmulatorRuntime = {
    schema,
    state,
    bucket,
    tokens,
    now,
    faults: { throttle: 0, fail: { count: 0, status: 503 } },
    requestLog: [],
    adminContext,
  };

  const emulator: ShopifyEmulator = {
    app: new Koa(),
    state,
    upsertProduct: (p) => state.upsertProduct(p),
    deleteProduct: (legacyId) => state.deleteProduct(legacyId),
    changeProduct: (p) => {
      const existed = Boolean((p.legacyId && state.getProduct(p.legacyId)) || (p.handle && state.getProductByHandle(p.handle)));
      const product = state.upsertProduct(p);
      webhooks.trigger([{ topic: existed ? 'PRODUCTS_UPDATE' : 'PRODUCTS_CREATE', payload: productPayload(product) }]);
      return product;
    },
    removeProduct: (legacyId) => {
      state.deleteProduct(legacyId);
      webhooks.trigger([{ topic: 'PRODUCTS_DELETE', payload: productDeletePayload(legacyId) }]);
    },
    setInventory: (variantLegacyId, quantity) => {
      const { variant } = state.setInventory(variantLegacyId, quantity);
      webhooks.trigger([{ topic: 'INVENTORY_LEVELS_UPDATE', payload: inventoryLevelPayload(variant, toIsoSeconds(now())) }]);
    },
    bulkOperations,
    throttleNext: (n) => {
      runtime.faults.throttle = n;
    },
    failNext: (n, status, retryAfterSeconds) => {
      runtime.faults.fail = { count: n, status, retryAfterSeconds };
    },
    reset: () => {
      state.reset();
      orders.reset();
      webhooks.reset();
      bucket.reset();
      bulkOperations.reset();
      runtime.faults = { throttle: 0, fail: { count: 0, status: 503 } };
      // In place: callers hold a reference to this array.
      runtime.requestLog.length = 0;
      tokens.reset();
    },
    requestLog: runtime.requestLog,
    orders,
    completeDraftOrder: (draftId, shippingAddress, email) => orders.completeDraftOrder(draftId, { shippingAddress, email }),
    fulfillOrder: (orderId, trackingUrl) => orders.fulfillOrder(orderId, trackingUrl ?? null),
    webhookDeliveries: webhooks.deliveries,
    webhooksIdle: () => webhooks.idle(),
    redeliver: (webhookId) => webhooks.redeliver(webhookId),
    accessTokenGrants: tokens.grants,
    expireAccessTokens: () => tokens.expireAll(),
  };

  const router = new Router();
  router.post('/admin/api/:version/graphql.json', graphqlEndpoint(runtime));
  if (opts.clientId !== undefined) {
    const client = { clientId: opts.clientId, clientSecret: opts.clientSecret };
    router.post('/admin/oauth/access_token', tokenEndpoint({ client, tokens, scopes: opts.grantedScopes ?? DEFAULT_GRANTED_SCOPES }));
  }
  router.get('/cdn/images/:file', (ctx) => {
    const match = IMAGE_FILE.exec(ctx.params.file ?? '');
    const product = match ? state.getProductByHandle(match[1]) : undefined;
    const position = match ? Number(match[2]) : 0;
    if (!product || position < 1 || position > product.images.length) {
      ctx.status = 404;
      ctx.body = { errors: 'Not Found' };
      return;
    }
    ctx.type = 'image/svg+xml';
    // Like Shopify's CDN, an image URL is treated as immutable (the SVG depends only on the
    // product's handle, title and type, the position and the size parameters in the URL).
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    const size = requestedImageSize(ctx.query.width, ctx.query.height);
    ctx.body = renderProductImageSvg({ handle: product.handle, title: product.title, productType: product.productType, position, size });
  });
  // A finished bulk query's file; the URL stops working when it expires (Shopify's storage answers 403).
  router.get('/bulk/:file', (ctx) => {
    const token = /^([0-9a-f]{32})\.jsonl$/.exec(ctx.params.file ?? '')?.[1];
    const op = token ? bulkOperations.byToken(token) : undefined;
    if (!op?.file || !op.expiresAt) {
      ctx.status = 404;
      ctx.body = { errors: 'Not Found' };
      return;
    }
    if (now() > op.expiresAt) {
      ctx.status = 403;
      ctx.type = 'application/xml';
      ctx.body =
        '<?xml version="1.0" encoding="UTF-8"?><Error><Code>ExpiredToken</Code><Message>The provided token has expired.</Message></Error>';
      return;
    }
    ctx.type = 'application/jsonl';
    ctx.body = op.file;
  });
  const invoices = invoiceRoutes({ shopId, state, orders, imageUrl });
  const control = controlRoutes(runtime, emulator);

  const { app } = emulator;
  app.use(async (ctx, next) => {
    ctx.set('X-Request-Id', randomUUID());
    try {
      await next();
    } catch (err) {
      const status = (err as { status?: number }).status ?? 500;
      ctx.status = status;
      ctx.body = { errors: status >= 500 ? 'Internal Server Error' : (err as Error).message };
      if (status >= 500) ctx.app.emit('error', err, ctx);
    }
  });
  app.use(router.routes()).use(router.allowedMethods());
  app.use(invoices.routes()).use(invoices.allowedMethods());
  app.use(control.routes()).use(control.allowedMethods());
  return emulator;
}
