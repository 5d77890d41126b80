/**
 * Shopify Admin GraphQL access through the real `@shopify/admin-api-client`, pointed either at a
 * configured store or, via `customFetchApi`, at another origin (SHOPIFY_API_ORIGIN, the bundled
 * emulator: the client forces https on `storeDomain`, so rewriting the origin is the only way to
 * reach a stand-in or an egress proxy).
 *
 * The access token comes from an AccessTokenSource (access-token.ts) at each request: a 401 gets
 * the token renewed once (one renewal shared by every call that met it) and the call retried once.
 * Every request has a timeout (SHOPIFY_TIMEOUT_MS).
 *
 * The client itself does not retry a THROTTLED answer (it is HTTP 200) and misreads Retry-After as
 * milliseconds, so it runs with `retries: 0` and this wrapper owns the retry policy:
 *  - THROTTLED: wait until the leaky bucket holds the requested cost again,
 *    ceil((requested − available) / restoreRate) seconds, then retry;
 *  - HTTP 429: wait Retry-After seconds (or back off exponentially);
 *  - HTTP 5xx / network failure: exponential back-off (only for read queries).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createAdminApiClient, type AdminApiClient } from '@shopify/admin-api-client';
import { ErrorCode } from '../../common/errors';
import { AppError } from '../lib/errors';
import { shopifyErrors, shopifyWaits } from '../lib/metrics';
import { UnavailableError } from '../lib/unavailable';
import type { Logger } from '../lib/logger';
import { sleep as realSleep, type Sleep } from '../lib/sleep';
import { StaticAccessToken, type AccessTokenSource } from './access-token';

export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}
export interface QueryCost {
  requestedQueryCost: number;
  actualQueryCost: number | null;
  throttleStatus: ThrottleStatus;
}

export interface ShopifyGraphqlOptions {
  storeDomain: string;
  apiVersion: string;
  /** A legacy app's permanent token, or where tokens come from (client credentials). */
  accessToken: string | AccessTokenSource;
  /** Where requests really go (SHOPIFY_API_ORIGIN, or the emulator's origin + mount path); unset for a real store. */
  originOverride?: string | (() => string);
  /** How long one request may take (default 20 s). */
  timeoutMs?: number;
  logger?: Logger;
  sleep?: Sleep;
  maxAttempts?: number;
  /** Lower bound of a throttle wait (Shopify advises ≥ 1 s). */
  minThrottleWaitMs?: number;
  /** Called for every wait, with its reason; sync statistics and tests read it. */
  onWait?: (reason: 'throttled' | 'rate-limited' | 'unavailable', ms: number) => void;
}

export class ShopifyRequestError extends AppError {
  constructor(
    message: string,
    readonly graphQLCodes: string[] = [],
    readonly httpStatus?: number,
  ) {
    super(ErrorCode.shopifyError, message, { expose: true });
    this.name = 'ShopifyRequestError';
  }
}

/** Placed in the client's own configuration; every request replaces it with the real token (see customFetchApi). */
const TOKEN_PLACEHOLDER = 'replaced-per-request';
const ACCESS_TOKEN_HEADER = 'X-Shopify-Access-Token';

export class ShopifyGraphql {
  private readonly client: AdminApiClient;
  /** Where access tokens come from. */
  readonly tokens: AccessTokenSource;
  /** The token of the request being sent (the client merges its own headers over per-request ones). */
  private readonly requestToken = new AsyncLocalStorage<string>();
  private readonly sleep: Sleep;
  private readonly maxAttempts: number;
  private readonly minThrottleWaitMs: number;
  /** Waits so far, by reason (the sync reports them). */
  readonly waits = { throttled: 0, 'rate-limited': 0, unavailable: 0 };
  /** When Shopify last answered a call (any answer but a network failure, 5xx or 429), ms since the epoch. */
  lastAnsweredAt: number | null = null;

  constructor(private readonly opts: ShopifyGraphqlOptions) {
    this.sleep = opts.sleep ?? realSleep;
    this.maxAttempts = opts.maxAttempts ?? 6;
    this.minThrottleWaitMs = opts.minThrottleWaitMs ?? 1000;
    this.tokens = typeof opts.accessToken === 'string' ? new StaticAccessToken(opts.accessToken) : opts.accessToken;
    const override = opts.originOverride;
    const timeoutMs = opts.timeoutMs ?? 20_000;
    this.client = createAdminApiClient({
      storeDomain: opts.storeDomain,
      apiVersion: opts.apiVersion,
      accessToken: TOKEN_PLACEHOLDER,
      retries: 0,
      userAgentPrefix: 'pogs-shop/0.1',
      customFetchApi: (url, init) => {
        const token = this.requestToken.getStore();
        if (!token) throw new Error('ShopifyGraphql: a request was sent without its access token');
        const headers = new Headers(init?.headers as HeadersInit | undefined);
        headers.set(ACCESS_TOKEN_HEADER, token);
        let target = url;
        if (override) {
          const u = new URL(url);
          target = (typeof override === 'function' ? override() : override).replace(/\/+$/, '') + u.pathname + u.search;
        }
        return fetch(target, { ...(init as RequestInit), headers, signal: AbortSignal.timeout(timeoutMs) });
      },
    });
  }

  /**
   * Runs a query, waiting out throttling and transient failures. A mutation that must not run
   * twice (`idempotent: false`, e.g. draftOrderCreate) is retried only when Shopify certainly did
   * not run it (THROTTLED, 429); after a network error or a 5xx it fails at once, and the caller
   * looks up what happened before trying again.
   */
  async query<T>(
    query: string,
    variables: Record<string, unknown>,
    opts: { idempotent?: boolean } = {},
  ): Promise<{ data: T; cost?: QueryCost }> {
    const idempotent = opts.idempotent ?? true;
    let lastError: unknown;
    let renewedAfter401 = false;
    for (let attempt = 1; attempt <= this.maxAttempts; attempt++) {
      let response: Awaited<ReturnType<AdminApiClient['request']>>;
      const token = await this.tokens.token();
      try {
        response = await this.requestToken.run(token, () => this.client.request(query, { variables }));
      } catch (err) {
        lastError = err;
        if (!idempotent) break;
        await this.wait('unavailable', backoffMs(attempt));
        continue;
      }
      const cost = (response.extensions as { cost?: QueryCost } | undefined)?.cost;
      const errors = response.errors;
      const answered = errors?.networkStatusCode;
      if (!errors || (answered !== undefined && answered < 500 && answered !== 429)) this.lastAnsweredAt = Date.now();
      if (!errors) return { data: response.data as T, cost };

      const codes = (errors.graphQLErrors ?? [])
        .map((e) => (e as { extensions?: { code?: string } }).extensions?.code)
        .filter((c): c is string => Boolean(c));
      const status = errors.networkStatusCode;

      if (status === 401 && !renewedAfter401) {
        // An expired or revoked token was refused before anything ran: renew it once (shared with
        // every call that met the same 401) and send this call once more.
        renewedAfter401 = true;
        if (await this.tokens.renewAfterRejection(token)) {
          attempt--;
          continue;
        }
      }
      if (codes.includes('THROTTLED')) {
        lastError = new ShopifyRequestError('Shopify throttled the request', codes, status);
        await this.wait('throttled', this.throttleWaitMs(cost));
        continue;
      }
      if (status === 429) {
        lastError = new ShopifyRequestError('Shopify rate limit (HTTP 429)', codes, status);
        const retryAfter = Number.parseFloat(errors.response?.headers.get('Retry-After') ?? '');
        await this.wait('rate-limited', Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter * 1000 : backoffMs(attempt));
        continue;
      }
      if (status === undefined || status >= 500) {
        lastError = new ShopifyRequestError(errors.message ?? 'Shopify is unavailable', codes, status);
        if (!idempotent) break;
        await this.wait('unavailable', backoffMs(attempt));
        continue;
      }
      const detail = (errors.graphQLErrors ?? []).map((e) => e.message).join('; ');
      shopifyErrors.inc({ kind: status === 401 || status === 403 ? 'refused' : 'error' });
      throw new ShopifyRequestError(refusalMessage(status, this.tokens.kind, detail || errors.message), codes, status);
    }
    const message = lastError instanceof Error ? lastError.message : 'Shopify is unavailable';
    shopifyErrors.inc({ kind: 'unavailable' });
    throw new AppError(ErrorCode.shopifyUnavailable, idempotent ? `${message} (gave up after ${this.maxAttempts} attempts)` : message, {
      cause: new UnavailableError(`Shopify ${this.opts.storeDomain}`, message, 'shopify'),
    });
  }

  /** How long until the bucket again holds what the throttled query asked for. */
  throttleWaitMs(cost: QueryCost | undefined): number {
    if (!cost?.throttleStatus || !(cost.throttleStatus.restoreRate > 0)) return Math.max(this.minThrottleWaitMs, 1000);
    const missing = cost.requestedQueryCost - cost.throttleStatus.currentlyAvailable;
    const seconds = Math.ceil(Math.max(missing, 0) / cost.throttleStatus.restoreRate);
    return Math.max(this.minThrottleWaitMs, seconds * 1000);
  }

  private async wait(reason: 'throttled' | 'rate-limited' | 'unavailable', ms: number) {
    this.waits[reason]++;
    shopifyWaits.inc({ reason });
    this.opts.onWait?.(reason, ms);
    this.opts.logger?.warn({ reason, waitMs: ms }, 'shopify: waiting before retry');
    await this.sleep(ms);
  }
}

function refusalMessage(status: number, kind: AccessTokenSource['kind'], detail: string | undefined): string {
  if (status === 401) {
    return kind === 'static-token'
      ? 'Shopify refused the access token (HTTP 401); check SHOPIFY_ADMIN_TOKEN'
      : 'Shopify refused a freshly granted access token (HTTP 401); check that the app is installed on the store';
  }
  if (status === 403) {
    return `Shopify refused the request (HTTP 403): the app lacks an access scope it needs (read_products, read_inventory, write_draft_orders, read_orders)${detail ? `: ${detail}` : ''}`;
  }
  return `Shopify query failed: ${detail || `HTTP ${status}`}`;
}

function backoffMs(attempt: number): number {
  return Math.min(30_000, 1000 * 2 ** (attempt - 1));
}
