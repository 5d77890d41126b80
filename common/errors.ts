/** Stable error codes of the HTTP API. The body of every error response is `{ code, message }`. */
export const ErrorCode = {
  badRequest: 'bad-request',
  invalidJson: 'invalid-json',
  payloadTooLarge: 'payload-too-large',
  notFound: 'not-found',
  productNotFound: 'product-not-found',
  shopifyUnavailable: 'shopify-unavailable',
  shopifyError: 'shopify-error',
  syncInProgress: 'sync-in-progress',
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
