/**
 * Reading POST /api/orders/create's answer: it must be an object with a shippingUrl, and each way
 * it can fail has its own 'Order Creation Failed' message. Pure.
 */
import type { Order } from '../../../../common/api';
import { parseErrorBody } from '../../../lib/error-body';
import { CheckoutFailure, ORDER_CREATION_FAILED_TITLE } from './payment-failure';

export const INVALID_JSON_MESSAGE = 'Server returned invalid JSON response';
export const INVALID_ORDER_MESSAGE = 'Server returned invalid order format';
export const MISSING_SHIPPING_URL_MESSAGE = 'Server response missing shipping URL';

/** 202 {code: 'awaiting-confirmations'}: the transfer is not deep enough yet; ask again. */
export const AWAITING_CONFIRMATIONS_STATUS = 202;

export type CreateOrderAnswer = { kind: 'order'; order: Order } | { kind: 'retry' };

function failure(message: string): CheckoutFailure {
  return new CheckoutFailure(ORDER_CREATION_FAILED_TITLE, message);
}

/**
 * A path on this site or an http(s) URL. Anything else (a `javascript:` URL…) is treated as
 * missing: the shopper's browser is sent there.
 */
function isNavigableUrl(value: unknown): value is string {
  if (typeof value !== 'string' || !value.trim()) return false;
  if (value.startsWith('/') && !value.startsWith('//')) return true;
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/**
 * 202 → retry; another non-success → 'Server error ({status}): {body}' (the server's message
 * when the body is its `{ code, message }`, else the raw text); then the body must be JSON, an
 * object, and carry a usable shippingUrl.
 */
export function readCreateOrderAnswer(status: number, bodyText: string): CreateOrderAnswer {
  if (status === AWAITING_CONFIRMATIONS_STATUS) return { kind: 'retry' };
  if (status < 200 || status > 299) {
    const body = parseErrorBody(bodyText).message ?? bodyText;
    throw failure(`Server error (${status}): ${body.trim()}`);
  }
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    throw failure(INVALID_JSON_MESSAGE);
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw failure(INVALID_ORDER_MESSAGE);
  if (!isNavigableUrl((body as Record<string, unknown>).shippingUrl)) throw failure(MISSING_SHIPPING_URL_MESSAGE);
  return { kind: 'order', order: body as Order };
}
