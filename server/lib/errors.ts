import { ErrorCode, type ApiErrorBody } from '../../common/errors';
import { isLostDatabaseConnection } from './db-errors';

/**
 * The HTTP status of every code, the only place the server decides one for an error. Typed over the
 * whole union, so a new code without a status fails the typecheck.
 */
export const HTTP_STATUS: Record<ErrorCode, number> = {
  [ErrorCode.badRequest]: 400,
  [ErrorCode.invalidJson]: 400,
  [ErrorCode.payloadTooLarge]: 413,
  [ErrorCode.unsupportedMediaType]: 415,
  [ErrorCode.notFound]: 404,
  [ErrorCode.methodNotAllowed]: 405,
  [ErrorCode.notImplemented]: 501,
  [ErrorCode.rateLimited]: 429,
  [ErrorCode.internal]: 500,
  [ErrorCode.serviceUnavailable]: 503,

  [ErrorCode.productNotFound]: 404,
  [ErrorCode.shopifyUnavailable]: 503,
  [ErrorCode.shopifyError]: 502,
  [ErrorCode.syncInProgress]: 409,

  [ErrorCode.variantNotFound]: 404,
  [ErrorCode.variantSoldOut]: 409,
  [ErrorCode.insufficientStock]: 409,
  [ErrorCode.quantityLimit]: 409,
  [ErrorCode.cartItemNotFound]: 404,

  [ErrorCode.cartEmpty]: 409,
  [ErrorCode.cartItemUnavailable]: 409,
  [ErrorCode.checkoutNotFound]: 404,
  [ErrorCode.checkoutClosed]: 409,
  [ErrorCode.orderNotFound]: 404,
  [ErrorCode.transactionNotFound]: 404,
  [ErrorCode.transactionFailed]: 422,
  // Not a failure: the payment is on its way. Answered like one (thrown, `{ code, message }`) because
  // the route has nothing else to say until the transfer is deep enough.
  [ErrorCode.awaitingConfirmations]: 202,
  [ErrorCode.transferNotFound]: 422,
  [ErrorCode.paymentUnderpaid]: 422,
  [ErrorCode.transactionAlreadyUsed]: 409,
  [ErrorCode.paymentUnmatched]: 422,
  [ErrorCode.chainUnavailable]: 503,
  [ErrorCode.checkoutBusy]: 503,
  [ErrorCode.tooManyCheckouts]: 429,
  [ErrorCode.webhookUnauthorized]: 401,

  [ErrorCode.signInRequired]: 401,
  [ErrorCode.walletMismatch]: 403,
  [ErrorCode.invalidNonce]: 401,
  [ErrorCode.invalidMessage]: 401,
  [ErrorCode.invalidSignature]: 401,

  [ErrorCode.adminSessionRequired]: 401,
  [ErrorCode.adminInvalidPassword]: 401,
  [ErrorCode.adminLocked]: 429,
  [ErrorCode.adminLoginInProgress]: 429,
  [ErrorCode.adminLoginBusy]: 503,
  [ErrorCode.adminLinkRefused]: 401,
  [ErrorCode.crossSiteRequest]: 403,
  [ErrorCode.inventoryItemNotFound]: 404,
  [ErrorCode.invalidCursor]: 400,
  [ErrorCode.attentionItemNotFound]: 404,
  [ErrorCode.refundWrongToken]: 422,
  [ErrorCode.refundNotFromStoreWallet]: 422,
  [ErrorCode.refundWrongRecipient]: 422,
  [ErrorCode.refundWrongAmount]: 422,
  [ErrorCode.refundExceedsRefundable]: 409,
  [ErrorCode.refundAlreadyRecorded]: 409,
  [ErrorCode.transferNotAttachable]: 409,
  [ErrorCode.checkoutNotAttachable]: 409,
  [ErrorCode.handoffNotRetryable]: 409,
  [ErrorCode.transferNotRefundable]: 409,
  [ErrorCode.refundBeforePayment]: 422,
  [ErrorCode.notificationsOff]: 404,
  [ErrorCode.invalidPushSubscription]: 400,
  [ErrorCode.pushEndpointRefused]: 400,
  [ErrorCode.pushSubscriptionNotFound]: 404,
  [ErrorCode.pushSubscriptionTaken]: 409,
  [ErrorCode.webhookUrlRefused]: 400,
  [ErrorCode.webhookEndpointLimit]: 409,
  [ErrorCode.swapUnavailable]: 409,
  [ErrorCode.swapQuoteFailed]: 503,
  [ErrorCode.refundPayerUnknown]: 409,
};

/**
 * The one error type the HTTP layer understands: a code and a message a person can act on. The
 * error middleware answers it with the code's status from `HTTP_STATUS`. A code answered 5xx shows
 * its message only when the thrower says it is safe (`expose`); otherwise it becomes a generic
 * `internal-error` (logged, never leaked).
 */
export class AppError extends Error {
  readonly expose: boolean;

  /** Extra fields of the body for the codes that have them (see ApiErrorBody). */
  readonly details: Pick<ApiErrorBody, 'attemptsRemaining' | 'lockedUntil' | 'newBrowsersPaused'>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: {
      expose?: boolean;
      details?: Pick<ApiErrorBody, 'attemptsRemaining' | 'lockedUntil' | 'newBrowsersPaused'>;
      /** What caused it (an UnavailableError makes a periodic job report an outage once, not every pass). */
      cause?: unknown;
    } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.expose = options.expose ?? false;
    this.details = options.details ?? {};
  }
}

const INTERNAL_ERROR: ApiErrorBody = { code: ErrorCode.internal, message: 'Something went wrong on our side. Please try again.' };

/** The status (from the code's row in `HTTP_STATUS`) and `{ code, message }` body of a failed request. */
export function toErrorAnswer(err: unknown): { status: number; body: ApiErrorBody } {
  const answer = (code: ErrorCode, message: string) => ({ status: HTTP_STATUS[code], body: { code, message } });
  if (isLostDatabaseConnection(err)) {
    return answer(ErrorCode.serviceUnavailable, 'The shop lost its database connection for a moment. Please try again in a few seconds.');
  }
  if (err instanceof AppError) {
    const status = HTTP_STATUS[err.code];
    return status < 500 || err.expose
      ? { status, body: { code: err.code, message: err.message, ...err.details } }
      : { status, body: INTERNAL_ERROR };
  }
  // http-errors thrown by Koa, the body parser and the router
  const e = err as { status?: number; statusCode?: number; expose?: boolean; message?: string; type?: string };
  const status = e.status ?? e.statusCode;
  // The router's answer to a method it implements for no path at all (PROPFIND, TRACE, …): the
  // client's doing, so its own code, not an internal error (RFC 9110 §15.6.2).
  if (status === 501) return answer(ErrorCode.notImplemented, 'This server does not implement that request method.');
  if (status && status >= 400 && status < 500) {
    if (status === 413) return answer(ErrorCode.payloadTooLarge, 'The request body is too large (at most 32 KB).');
    if (status === 400 && /json/i.test(e.message ?? '')) return answer(ErrorCode.invalidJson, 'The request body is not valid JSON.');
    if (status === 405) return answer(ErrorCode.methodNotAllowed, 'This path does not take that request method.');
    // Any other client error of theirs (a bad charset, a malformed static path…) keeps its own status.
    return { status, body: { code: ErrorCode.badRequest, message: e.expose && e.message ? e.message : 'Bad request' } };
  }
  return { status: HTTP_STATUS[ErrorCode.internal], body: INTERNAL_ERROR };
}
