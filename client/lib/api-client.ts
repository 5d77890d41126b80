import type { ErrorCode } from '../../common/errors';
import { reportRequestOutcome } from './online-status';

/** An HTTP failure from the shop's API, with its default message (defaultErrorMessage). */
export class ApiError extends Error {
  readonly status: number;
  /** The server's stable error code (`{ code, message }` bodies), when it sent one we know. */
  readonly code: ErrorCode | null;
  /** The server's human-readable message, when the body carried one. */
  readonly serverMessage: string | null;
  readonly bodyText: string;

  constructor(
    status: number,
    message: string,
    details: { code?: ErrorCode | null; serverMessage?: string | null; bodyText?: string } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = details.code ?? null;
    this.serverMessage = details.serverMessage ?? null;
    this.bodyText = details.bodyText ?? '';
  }
}

/** What to tell a person about a failed call: the server's own message when it sent one, else the default text. */
export function apiErrorText(error: ApiError): string {
  return error.serverMessage?.trim() || error.message;
}

/** Status 0: the request never got an HTTP answer (offline, DNS, CORS…). */
export const NETWORK_ERROR_MESSAGE = 'Network error: check your connection and try again.';

/**
 * The default text for a failed response: '{status}: {statusText}' from 500 up,
 * '{status}: {body text}' otherwise.
 */
export function defaultErrorMessage(status: number, statusText: string, bodyText: string): string {
  return status >= 500 ? `${status}: ${statusText}` : `${status}: ${bodyText}`;
}

/** Builds the ApiError for a non-success response (reads the body). */
export async function errorFromResponse(response: Response): Promise<ApiError> {
  const bodyText = await response.text().catch(() => '');
  // The list of codes is loaded when an error first arrives, not with the first screen's script;
  // should it not load (offline, before the service worker has it), the body is read without it.
  const { code, message } = await import('./error-body').then(
    ({ parseErrorBody }) => parseErrorBody(bodyText),
    () => ({ code: null, message: null }),
  );
  return new ApiError(response.status, defaultErrorMessage(response.status, response.statusText, bodyText), {
    code,
    serverMessage: message,
    bodyText,
  });
}

export interface ApiRequestInit extends Omit<RequestInit, 'body'> {
  /** Sent as JSON. */
  json?: unknown;
  /** What sends the request (tests pass a fake); the browser's fetch by default. */
  fetch?: typeof fetch;
}

/**
 * Every call to the shop's server goes through here: same-origin cookies included, JSON in. Answers
 * the response whatever its status, for callers that read a status themselves; a request that got
 * no HTTP answer throws a status-0 ApiError (an abort is rethrown as it is). Whether an answer came
 * is reported to the shop's connection state (lib/online-status).
 */
export async function apiRequest(path: string, init: ApiRequestInit = {}): Promise<Response> {
  const { json, headers, fetch: send = fetch, ...rest } = init;
  const requestHeaders = new Headers(headers);
  requestHeaders.set('Accept', 'application/json');
  if (json !== undefined) requestHeaders.set('Content-Type', 'application/json');
  let response: Response;
  try {
    response = await send(path, {
      credentials: 'include',
      ...rest,
      headers: requestHeaders,
      body: json === undefined ? undefined : JSON.stringify(json),
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    // No HTTP answer: the shop shows it is offline (lib/online-status) until one comes.
    reportRequestOutcome(false);
    throw new ApiError(0, NETWORK_ERROR_MESSAGE);
  }
  reportRequestOutcome(true);
  return response;
}

/** `apiRequest` for JSON answers: a non-success answer is thrown as ApiError with defaultErrorMessage's text. */
export async function apiFetch<T>(path: string, init: ApiRequestInit = {}): Promise<T> {
  const response = await apiRequest(path, init);
  if (!response.ok) throw await errorFromResponse(response);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}
