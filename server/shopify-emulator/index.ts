// Local stand-in for Shopify's Admin GraphQL API (contract: shared/reference/shopify-admin-api.md).
// Routes, relative to wherever the app is mounted:
//   POST /admin/api/:version/graphql.json   the Admin API (token, cost, leaky bucket, faults)
//   GET  /cdn/images/:handle-:n.svg         generated product photos
//   /__emulator/*                           test/dev controls (see control-routes.ts)
import { randomUUID } from 'node:crypto';
import { Router } from '@koa/router';
import Koa from 'koa';
import { createAdminSchema, type AdminContext } from './admin-resolvers';
import { controlRoutes } from './control-routes';
import { demoCatalogue } from './demo-catalogue';
import { EmulatorState, type EmulatorProduct, type EmulatorProductInput } from './emulator-state';
import { graphqlEndpoint, type EmulatorRuntime, type RequestLogEntry } from './graphql-endpoint';
import { LeakyBucket } from './leaky-bucket';
import { renderProductImageSvg } from './product-image';

export { EMULATOR_SHOP } from './admin-resolvers';
export { demoCatalogue } from './demo-catalogue';
export type {
  EmulatorEvent,
  EmulatorImage,
  EmulatorImageInput,
  EmulatorProduct,
  EmulatorProductInput,
  EmulatorVariant,
  EmulatorVariantInput,
  ProductStatus,
} from './emulator-state';
export { EmulatorState } from './emulator-state';
export type { RequestLogEntry } from './graphql-endpoint';

export interface ShopifyEmulatorOptions {
  /** Origin (+ optional path prefix) under which browsers reach this app; image URLs are built from it. */
  publicOrigin: string;
  /** The only accepted X-Shopify-Access-Token; anything else gets HTTP 401. */
  accessToken: string;
  /** Webhook HMAC key (used once webhooks are emulated). */
  clientSecret: string;
  catalogue?: 'demo' | 'empty';
  bucket?: { maximumAvailable: number; restoreRate: number };
  now?: () => number;
}

export interface ShopifyEmulator {
  /** Routes mounted at '/'; mount under a prefix with koa-mount if needed. */
  app: Koa;
  state: EmulatorState;
  upsertProduct(p: EmulatorProductInput): EmulatorProduct;
  deleteProduct(legacyId: string): void;
  /**
   * The next n GraphQL calls that pass validation and the cost limit answer THROTTLED (HTTP 200,
   * no data, actualQueryCost null), as a drained bucket would.
   */
  throttleNext(n: number): void;
  /** The next n GraphQL calls answer with this HTTP status (and Retry-After in seconds, if given). */
  failNext(n: number, status: 429 | 500 | 503, retryAfterSeconds?: number): void;
  /** Back to the initial catalogue, a full bucket, no pending faults and an empty request log. */
  reset(): void;
  requestLog: RequestLogEntry[];
}

const IMAGE_FILE = /^(.+)-(\d+)\.svg$/;

export function createShopifyEmulator(opts: ShopifyEmulatorOptions): ShopifyEmulator {
  const now = opts.now ?? Date.now;
  const origin = opts.publicOrigin.replace(/\/+$/, '');
  const state = new EmulatorState(() => (opts.catalogue === 'empty' ? [] : demoCatalogue()), now);
  const bucket = new LeakyBucket(opts.bucket?.maximumAvailable ?? 2000, opts.bucket?.restoreRate ?? 100, now);
  const adminContext: AdminContext = {
    state,
    imageUrl: (product, position) => `${origin}/cdn/images/${product.handle}-${position}.svg`,
  };
  const runtime: EmulatorRuntime = {
    schema: createAdminSchema(),
    state,
    bucket,
    accessToken: opts.accessToken,
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
    throttleNext: (n) => {
      runtime.faults.throttle = n;
    },
    failNext: (n, status, retryAfterSeconds) => {
      runtime.faults.fail = { count: n, status, retryAfterSeconds };
    },
    reset: () => {
      state.reset();
      bucket.reset();
      runtime.faults = { throttle: 0, fail: { count: 0, status: 503 } };
      // In place: callers hold a reference to this array.
      runtime.requestLog.length = 0;
    },
    requestLog: runtime.requestLog,
  };

  const router = new Router();
  router.post('/admin/api/:version/graphql.json', graphqlEndpoint(runtime));
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
    // product's handle, title and type, and the position in the URL).
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.body = renderProductImageSvg({ handle: product.handle, title: product.title, productType: product.productType, position });
  });
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
  app.use(control.routes()).use(control.allowedMethods());
  return emulator;
}
