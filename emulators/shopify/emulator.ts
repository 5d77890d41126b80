/**
 * What the Shopify emulator is to its users (the shop's tests, the launcher, the control routes,
 * the demo catalogue): its options and its handle. Types only, so the parts index.ts assembles can
 * name the emulator without importing the file that builds it.
 */
import type Koa from 'koa';
import type { AccessTokenGrant } from './access-tokens';
import type { BulkOperations } from './bulk-operations';
import type { EmulatorProduct, EmulatorProductInput, EmulatorState } from './emulator-state';
import type { RequestLogEntry } from './graphql-endpoint';
import type { EmulatorAddressInput, EmulatorDraftOrder, EmulatorFulfillment, EmulatorOrder, EmulatorOrders } from './order-state';
import type { WebhookDelivery } from './webhooks';

export interface ShopifyEmulatorOptions {
  /** Origin (+ optional path prefix) under which browsers reach this app; image and invoice URLs are built from it. */
  publicOrigin: string;
  /**
   * Where the shop's server fetches a bulk query's file (Shopify serves it from its storage, not
   * from the browser-facing origin); publicOrigin when not given.
   */
  bulkFileOrigin?: () => string;
  /**
   * A permanent X-Shopify-Access-Token, as a legacy admin-made custom app has. The Admin API
   * accepts it and the unexpired tokens of the client-credentials grant (with `clientId`); any
   * other token gets HTTP 401. Give this, `clientId`, or both.
   */
  accessToken?: string;
  /**
   * The app's client id: turns on POST /admin/oauth/access_token, which grants a token for this id
   * and `clientSecret`.
   */
  clientId?: string;
  /** The app's client secret: half of the grant's credential, and the webhook HMAC key (X-Shopify-Hmac-Sha256). */
  clientSecret: string;
  /** How long a granted token works, in whole seconds of the emulator's clock; default 86399. */
  tokenTtlSeconds?: number;
  /** What a granted token may do, answered as the grant's comma-separated `scope`. */
  grantedScopes?: readonly string[];
  bucket?: { maximumAvailable: number; restoreRate: number };
  now?: () => number;
  /**
   * Pause before each webhook retry after a non-2xx answer or network failure; its length is the
   * number of retries. Default DEFAULT_WEBHOOK_RETRY_DELAYS_MS; tests pass a few milliseconds.
   */
  webhookRetryDelaysMs?: readonly number[];
}

export interface ShopifyEmulator {
  /** Routes mounted at '/'; mount under a prefix with koa-mount if needed. */
  app: Koa;
  state: EmulatorState;
  /** Changes the catalogue silently (no webhooks): fixtures and benches. */
  upsertProduct(p: EmulatorProductInput): EmulatorProduct;
  deleteProduct(legacyId: string): void;
  /** What a merchant's edit does: the change, then products/create or products/update. */
  changeProduct(p: EmulatorProductInput): EmulatorProduct;
  /** What a merchant's delete does: the removal, then products/delete. Throws for an unknown id. */
  removeProduct(legacyId: string): void;
  /** A stock adjustment of one variant, then inventory_levels/update. Throws for an unknown id. */
  setInventory(variantLegacyId: string, quantity: number): void;
  /** Bulk queries: hold them RUNNING (until released), or make the next one FAIL. */
  bulkOperations: Pick<BulkOperations, 'setHold' | 'failNextOperation' | 'current'>;
  /**
   * The next n GraphQL calls that pass validation and the cost limit answer THROTTLED (HTTP 200,
   * no data, actualQueryCost null), as a drained bucket would.
   */
  throttleNext(n: number): void;
  /** The next n GraphQL calls answer with this HTTP status (and Retry-After in seconds, if given). */
  failNext(n: number, status: 429 | 500 | 503, retryAfterSeconds?: number): void;
  /**
   * Back to the initial catalogue, a full bucket, no pending faults, an empty request log, and no
   * draft orders, orders, webhook subscriptions or deliveries (pending retries are dropped), nor
   * granted tokens or grants.
   */
  reset(): void;
  requestLog: RequestLogEntry[];
  /** Draft orders, orders and fulfilments. */
  orders: EmulatorOrders;
  /**
   * What "Complete order" on the hosted invoice does: stores the address (and checkout email),
   * completes the draft, creates a paid order and fires draft_orders/update, orders/create and
   * orders/paid. `draftId` is a DraftOrder gid or numeric id. Throws OrderStateError (404 unknown, 409 already completed).
   */
  completeDraftOrder(
    draftId: string,
    shippingAddress?: EmulatorAddressInput,
    email?: string,
  ): { draftOrder: EmulatorDraftOrder; order: EmulatorOrder };
  /**
   * Ships every line in one fulfilment (status SUCCESS) and fires
   * fulfillments/create, orders/fulfilled and orders/updated. `orderId` is an Order gid or
   * numeric id; `trackingUrl`, the parcel's tracking page (in the webhooks' tracking_url and
   * tracking_urls). Throws OrderStateError (404 unknown, 409 already fulfilled).
   */
  fulfillOrder(orderId: string, trackingUrl?: string | null): { order: EmulatorOrder; fulfillment: EmulatorFulfillment };
  /** Every webhook delivery so far, oldest first (the same array throughout, also after reset). */
  webhookDeliveries: WebhookDelivery[];
  /** Resolves once no delivery is in flight or waiting for a retry. */
  webhooksIdle(): Promise<void>;
  /**
   * Every client-credentials grant made (the newest 1,000), oldest first: when, until when, and
   * whether the request was form-encoded or JSON. Never the token itself. The same array
   * throughout, also after reset.
   */
  readonly accessTokenGrants: readonly AccessTokenGrant[];
  /**
   * Ends every granted token now, as if its time were up (the static token keeps working); the
   * next Admin API call with one gets HTTP 401. Returns how many were still valid.
   */
  expireAccessTokens(): number;
  /** Sends a logged delivery again with the identical body and headers; returns its new log entry. */
  redeliver(webhookId: string): WebhookDelivery;
}
