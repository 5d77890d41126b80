/** Stable error codes of the HTTP API. The body of every error response is `{ code, message }`. */
export const ErrorCode = {
  badRequest: 'bad-request',
  invalidJson: 'invalid-json',
  payloadTooLarge: 'payload-too-large',
  notFound: 'not-found',
  /** 405: the path exists, not with this method. */
  methodNotAllowed: 'method-not-allowed',
  /** 501: a request method this server implements for no path (PROPFIND, TRACE, …). */
  notImplemented: 'not-implemented',
  productNotFound: 'product-not-found',
  shopifyUnavailable: 'shopify-unavailable',
  shopifyError: 'shopify-error',
  syncInProgress: 'sync-in-progress',
  /** 429: over a rate limit; `Retry-After` says in how many seconds to ask again. */
  rateLimited: 'rate-limited',
  internal: 'internal-error',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode] | (string & {});

export interface ApiErrorBody {
  code: ErrorCode;
  message: string;
}

/** Cart error codes (messages in the spec's words where it has them). */
export const CartErrorCode = {
  variantNotFound: 'variant-not-found',
  variantSoldOut: 'variant-sold-out',
  insufficientStock: 'insufficient-stock',
  quantityLimit: 'quantity-limit',
  itemNotFound: 'cart-item-not-found',
  unsupportedMediaType: 'unsupported-media-type',
} as const;

/** Checkout and order error codes (design/payments.md §1 and §3). */
export const PaymentErrorCode = {
  cartEmpty: 'cart-empty',
  cartItemUnavailable: 'cart-item-unavailable',
  checkoutNotFound: 'checkout-not-found',
  checkoutClosed: 'checkout-closed',
  orderNotFound: 'order-not-found',
  /** No transaction with that hash on the shop's chain. */
  transactionNotFound: 'transaction-not-found',
  /** Mined but reverted (receipt status 0). */
  transactionFailed: 'transaction-failed',
  /** 202: pending or not yet deep enough; ask again shortly. */
  awaitingConfirmations: 'awaiting-confirmations',
  /** No Transfer of the POG token to the store wallet in that transaction. */
  transferNotFound: 'transfer-not-found',
  /** The transfer carried less than the checkout's exact amount (recorded for the admin). */
  paymentUnderpaid: 'payment-underpaid',
  /** That transfer already paid another checkout. */
  transactionAlreadyUsed: 'transaction-already-used',
  /** The transfer matches no checkout (kept for the admin). */
  paymentUnmatched: 'payment-unmatched',
  /** A late payment whose items are gone: recorded for the admin, no order. */
  paymentNeedsReview: 'payment-needs-review',
  chainUnavailable: 'chain-unavailable',
  /** 503: every amount tried for this total was taken (practically never: 10^12 per price). */
  checkoutBusy: 'checkout-busy',
  /** 429: this browser session already has as many unpaid payment requests open as it may. */
  tooManyCheckouts: 'too-many-checkouts',
  webhookUnauthorized: 'webhook-unauthorized',
} as const;

/** Sign-In with Ethereum and order-history codes (issue 6). */
export const AuthErrorCode = {
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
} as const;
