/**
 * Every code the HTTP API answers with. The body of every error response (and of the 202 "ask
 * again") is `{ code, message }`; the server's one table (`server/lib/errors.ts`) gives each its
 * HTTP status, so a code added here without a status fails the typecheck.
 */
export const ErrorCode = {
  // The request itself
  /** 400: a query or body that does not fit the route's schema (or another client error of Koa's). */
  badRequest: 'bad-request',
  /** 400: the body is not JSON. */
  invalidJson: 'invalid-json',
  /** 413: the body is larger than the route takes. */
  payloadTooLarge: 'payload-too-large',
  /** 415: a body that is not `application/json`. */
  unsupportedMediaType: 'unsupported-media-type',
  /** 404: no route at this path. */
  notFound: 'not-found',
  /** 405: the path exists, not with this method. */
  methodNotAllowed: 'method-not-allowed',
  /** 501: a request method this server implements for no path (PROPFIND, TRACE, …). */
  notImplemented: 'not-implemented',
  /** 429: over a rate limit; `Retry-After` says in how many seconds to ask again. */
  rateLimited: 'rate-limited',
  /** 500: anything unexpected; the message is generic (the details are logged, never sent). */
  internal: 'internal-error',
  /** 503: the server lost its database connection (a restart, a failover); `Retry-After` says when to ask again. */
  serviceUnavailable: 'service-unavailable',

  // Catalogue (the Shopify and sync codes come from background work: no route answers them today)
  /** 404: no listed product with that id. */
  productNotFound: 'product-not-found',
  /** 503: Shopify did not answer after the retries (its details are not shown: answered as `internal-error`). */
  shopifyUnavailable: 'shopify-unavailable',
  /** 502: Shopify answered with an error. */
  shopifyError: 'shopify-error',
  /** 409: a catalogue sync is already running (on any server instance); its progress is at GET /api/inventory/sync. */
  syncInProgress: 'sync-in-progress',

  // Cart
  /** 404: no variant with that id is for sale. */
  variantNotFound: 'variant-not-found',
  /** 409: the variant is sold out. */
  variantSoldOut: 'variant-sold-out',
  /** 409: fewer left than the cart would hold. */
  insufficientStock: 'insufficient-stock',
  /** 409: over the per-line quantity cap. */
  quantityLimit: 'quantity-limit',
  /** 404: no such line in this session's cart. */
  cartItemNotFound: 'cart-item-not-found',

  // Checkout and orders (docs/payments.md)
  /** 409: checkout of an empty cart. */
  cartEmpty: 'cart-empty',
  /** 409: a cart line cannot be bought as it is (gone, sold out, too few left). */
  cartItemUnavailable: 'cart-item-unavailable',
  /** 404: no such checkout in this browser session. */
  checkoutNotFound: 'checkout-not-found',
  /** 409: the checkout was already paid by another transaction (this payment is recorded). */
  checkoutClosed: 'checkout-closed',
  /** 404: no such order for this viewer. */
  orderNotFound: 'order-not-found',
  /** 404: no transaction with that hash on the shop's chain. */
  transactionNotFound: 'transaction-not-found',
  /** 422: mined but reverted (receipt status 0). */
  transactionFailed: 'transaction-failed',
  /** 202, not an error: pending or not yet deep enough; ask again shortly. */
  awaitingConfirmations: 'awaiting-confirmations',
  /** 422: no Transfer of the POG token to the store wallet in that transaction. */
  transferNotFound: 'transfer-not-found',
  /** 422: the transfer carried less than the checkout's exact amount (recorded for the admin). */
  paymentUnderpaid: 'payment-underpaid',
  /** 409: that transfer already paid another session's checkout. */
  transactionAlreadyUsed: 'transaction-already-used',
  /** 422: the transfer matches none of the caller's checkouts (kept for the admin). */
  paymentUnmatched: 'payment-unmatched',
  /** 503: the chain's RPC could not be reached while verifying a payment. */
  chainUnavailable: 'chain-unavailable',
  /** 503: every amount tried for this total was taken (practically never: 10^12 per price). */
  checkoutBusy: 'checkout-busy',
  /** 429: this browser session already has as many unpaid payment requests open as it may. */
  tooManyCheckouts: 'too-many-checkouts',
  /** 401: a Shopify webhook whose HMAC does not match the shop's client secret. */
  webhookUnauthorized: 'webhook-unauthorized',

  // Sign-In with Ethereum and order history
  /** 401: the order history needs a signed-in wallet. */
  signInRequired: 'sign-in-required',
  /** 403: signed in as another wallet than the one asked about. */
  walletMismatch: 'wallet-mismatch',
  /** 401 on verify: nonce unknown, used, expired, or not this session's. */
  invalidNonce: 'invalid-nonce',
  /** 401 on verify: the message is not for this site (domain, URI, chain) or out of its time. */
  invalidMessage: 'invalid-message',
  /** 401 on verify: the signature is not the address's. */
  invalidSignature: 'invalid-signature',

  // Admin area
  /** 401: an admin route without a live admin session (none, expired, or logged out). */
  adminSessionRequired: 'admin-session-required',
  /** 401: a wrong admin password; the body says `attemptsRemaining`. */
  adminInvalidPassword: 'admin-invalid-password',
  /** 429: too many wrong passwords; the body says `lockedUntil` (and `newBrowsersPaused` for the pause on new browsers), and `Retry-After` is set. */
  adminLocked: 'admin-locked',
  /** 429: this address (or browser) already has a login being checked, and as many waiting as it may; `Retry-After` is set. */
  adminLoginInProgress: 'admin-login-in-progress',
  /** 503: the server is checking as many logins as it can and holds no more waiting; `Retry-After` is set. */
  adminLoginBusy: 'admin-login-busy',
  /** 401: a sign-in link that this server did not make, that expired, that was used already, or made before the admin password changed. */
  adminLinkRefused: 'admin-link-refused',
  /** 403: a request that changes something, or an admin read, from another site (Origin / Sec-Fetch-Site). */
  crossSiteRequest: 'cross-site-request',
  /** 404: no variant with that id in the inventory. */
  inventoryItemNotFound: 'inventory-item-not-found',
  /** 400: a page cursor that is not one this list gave, or was given for another search or filter. */
  invalidCursor: 'invalid-cursor',

  // Payments desk
  /** 404: no transfer to the store wallet with that id needs (or needed) attention. */
  attentionItemNotFound: 'attention-item-not-found',
  /** 422: the refund transaction moved no POG token (another token, or no transfer at all). */
  refundWrongToken: 'refund-wrong-token',
  /** 422: the refund's POG transfer did not come from the store wallet. */
  refundNotFromStoreWallet: 'refund-not-from-store-wallet',
  /** 422: the refund went to another address than the one that paid. */
  refundWrongRecipient: 'refund-wrong-recipient',
  /** 422: the refund carried another amount than the one prepared. */
  refundWrongAmount: 'refund-wrong-amount',
  /** 409: more than what that transfer paid minus what was already refunded. */
  refundExceedsRefundable: 'refund-exceeds-refundable',
  /** 409: that refund transaction is already recorded against another transfer. */
  refundAlreadyRecorded: 'refund-already-recorded',
  /** 409: the transfer cannot be attached (it already counts towards a checkout, or money went back). */
  transferNotAttachable: 'transfer-not-attachable',
  /** 409: the checkout cannot take a transfer (paid, or created after the transfer was seen). */
  checkoutNotAttachable: 'checkout-not-attachable',
  /** 409: the transfer is not on chain now (a reorganisation removed it): nothing can be refunded from it. */
  transferNotRefundable: 'transfer-not-refundable',
  /** 422: the refund transaction was mined before the payment it would refund (it is some earlier transfer). */
  refundBeforePayment: 'refund-before-payment',
  /** 409: the order's Shopify hand-off is done or not failing, so there is nothing to retry. */
  handoffNotRetryable: 'handoff-not-retryable',

  // Order updates by Web Push (docs/order-updates.md)
  /** 404: the shop sends no order updates (no VAPID keys configured). */
  notificationsOff: 'notifications-off',
  /** 400: not a browser's push subscription (the endpoint, or keys of the wrong size or alphabet). */
  invalidPushSubscription: 'invalid-push-subscription',
  /** 400: a push endpoint the shop will not call (not https, or a private, loopback or link-local address). */
  pushEndpointRefused: 'push-endpoint-refused',
  /** 404: this signed-in wallet has no subscription with that endpoint. */
  pushSubscriptionNotFound: 'push-subscription-not-found',
  /** 409: that endpoint is subscribed for another wallet (the browser subscribes again, with a new endpoint). */
  pushSubscriptionTaken: 'push-subscription-taken',
  /** 400: a webhook endpoint URL the shop will not call (not https, or a private, loopback or link-local address). */
  webhookUrlRefused: 'webhook-url-refused',
  /** 409: the shop already has the most webhook endpoints it keeps (remove or reuse one). */
  webhookEndpointLimit: 'webhook-endpoint-limit',

  // Paying with ETH or USDC (a swap that delivers the exact POGS to the store wallet)
  /** 409: this shop does not take that coin (no swap route is set for it). */
  swapUnavailable: 'swap-unavailable',
  /** 503: the swap's pools could not quote the amount now (no liquidity, or the quoter did not answer). */
  swapQuoteFailed: 'swap-quote-failed',
  /** 409: the transfer was paid through a swap whose payer the chain does not prove: the shop will not refund a pool or a router. */
  refundPayerUnknown: 'refund-payer-unknown',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

const CODES: ReadonlySet<string> = new Set(Object.values(ErrorCode));

/** Whether a code read off the wire is one of ours (an older client may meet a newer server's). */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && CODES.has(value);
}

export interface ApiErrorBody {
  code: ErrorCode;
  message: string;
  /** `admin-invalid-password`: wrong passwords left before the lock. */
  attemptsRemaining?: number;
  /** `admin-locked`: ISO time the lock ends. */
  lockedUntil?: string;
  /** `admin-locked`: true when the lock is the pause on every browser that has not logged in before. */
  newBrowsersPaused?: boolean;
}
