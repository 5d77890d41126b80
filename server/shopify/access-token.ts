/**
 * Where the Admin API access token comes from. Two kinds, as Shopify has them:
 *
 *  - a legacy custom app's permanent token (`SHOPIFY_ADMIN_TOKEN`, `shpat_…`): used as it is;
 *  - an app made in the Dev Dashboard (every app made since 1 January 2026): the shop exchanges the
 *    app's client id and secret for a token with the OAuth client-credentials grant,
 *    `POST {apiOrigin}/admin/oauth/access_token`, answered `{ access_token, scope, expires_in }`.
 *    Such a token expires (after about a day), so it is renewed ahead of `expires_in` (a margin,
 *    with jitter, so that several instances do not all ask at once), and again when Shopify answers
 *    401 to it. Every caller waiting for a renewal shares the one request.
 *
 * The token lives in this process's memory only: it is never logged, written to disk or shared
 * with another instance (each instance gets its own).
 */
import { ErrorCode } from '../../common/errors';
import { AppError } from '../lib/errors';
import { UnavailableError } from '../lib/unavailable';
import type { Logger } from '../lib/logger';

export interface AccessTokenSource {
  readonly kind: 'static-token' | 'client-credentials';
  /** The token to send now; fetched first when none is held or the held one has expired. */
  token(): Promise<string>;
  /**
   * Shopify answered 401 to `rejected`. Answers a token to retry with (a renewed one, or the one
   * another caller's renewal already brought), or null when this kind cannot renew.
   */
  renewAfterRejection(rejected: string): Promise<string | null>;
  /** Ends the renewal schedule. */
  stop(): void;
}

/** A legacy custom app's permanent token: nothing to renew. */
export class StaticAccessToken implements AccessTokenSource {
  readonly kind = 'static-token';
  constructor(private readonly value: string) {}
  token(): Promise<string> {
    return Promise.resolve(this.value);
  }
  renewAfterRejection(): Promise<null> {
    return Promise.resolve(null);
  }
  stop(): void {}
}

/** A grant Shopify refused (a wrong client id or secret, an app not installed on the store). */
export class ShopifyGrantRefused extends AppError {
  constructor(
    message: string,
    /** Shopify's OAuth error code (`invalid_client`, `app_not_installed`, …), when it gave one. */
    readonly oauthError: string | null,
    readonly httpStatus: number,
  ) {
    super(ErrorCode.shopifyError, message);
    this.name = 'ShopifyGrantRefused';
  }
}

/** What the grant answered. */
export interface Grant {
  accessToken: string;
  /** The access scopes the token carries (Shopify's comma-separated `scope`). */
  scopes: string[];
  /** From `expires_in`; Infinity when Shopify gave none. */
  lifetimeMs: number;
}

export interface GrantRequest {
  /** Where the token endpoint is: `https://<store>.myshopify.com`, or SHOPIFY_API_ORIGIN. */
  apiOrigin: string;
  /** The store, for messages. */
  storeDomain: string;
  clientId: string;
  clientSecret: string;
  /** How long the request may take. */
  timeoutMs: number;
}

/**
 * One client-credentials grant: `POST {apiOrigin}/admin/oauth/access_token`. Throws
 * ShopifyGrantRefused when Shopify refuses the credentials (HTTP 4xx: what to check is in the
 * message) and `shopify-unavailable` when it does not answer in time or answers 5xx.
 */
export async function requestGrant(req: GrantRequest): Promise<Grant> {
  const { apiOrigin, storeDomain, clientId, clientSecret, timeoutMs } = req;
  let response: Response;
  try {
    response = await fetch(`${apiOrigin}/admin/oauth/access_token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ client_id: clientId, client_secret: clientSecret, grant_type: 'client_credentials' }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    const reason = describeFetchFailure(err, timeoutMs);
    throw new AppError(ErrorCode.shopifyUnavailable, `Shopify's token endpoint (${apiOrigin}) did not answer: ${reason}`, {
      cause: new UnavailableError(`Shopify ${storeDomain}`, reason, 'shopify'),
    });
  }
  const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  if (response.status >= 500 || response.status === 429) {
    throw new AppError(ErrorCode.shopifyUnavailable, `Shopify's token endpoint answered HTTP ${response.status}`, {
      cause: new UnavailableError(`Shopify ${storeDomain}`, `HTTP ${response.status}`, 'shopify'),
    });
  }
  if (!response.ok) {
    const oauthError = typeof body?.error === 'string' ? body.error : null;
    const description = typeof body?.error_description === 'string' ? body.error_description : '';
    throw new ShopifyGrantRefused(grantRefusalMessage(response.status, oauthError, description, storeDomain), oauthError, response.status);
  }
  const accessToken = body?.access_token;
  if (typeof accessToken !== 'string' || !accessToken) {
    throw new AppError(ErrorCode.shopifyError, `Shopify's token endpoint answered HTTP ${response.status} without an access_token`);
  }
  const expiresIn = Number(body?.expires_in);
  return {
    accessToken,
    scopes:
      typeof body?.scope === 'string'
        ? body.scope
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : [],
    lifetimeMs: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn * 1000 : Infinity,
  };
}

interface HeldToken {
  value: string;
  /** ms since the epoch; Infinity when Shopify gave no `expires_in`. */
  expiresAt: number;
  scopes: string[];
}

/** The renewal happens at most this long before expiry, plus up to as much again of jitter. */
const MAX_MARGIN_MS = 5 * 60_000;
/** …and never later than this share of the token's lifetime before its end. */
const MARGIN_SHARE = 0.1;
/** A failed scheduled renewal is tried again after this (doubling), while the held token lasts. */
const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 60_000;

/**
 * When to renew a token granted now for `lifetimeMs`: before its end by a margin (a tenth of its
 * life, at most 5 minutes) plus a random part of as much again, so that instances started
 * together spread their grants. Answers ms from now.
 */
export function renewalDelayMs(lifetimeMs: number, random: number): number {
  const margin = Math.min(MAX_MARGIN_MS, lifetimeMs * MARGIN_SHARE);
  return Math.max(0, Math.round(lifetimeMs - margin - margin * random));
}

/** Tokens from the client-credentials grant, renewed ahead of expiry and after a 401. */
export class ClientCredentialsToken implements AccessTokenSource {
  readonly kind = 'client-credentials';
  private held: HeldToken | null = null;
  private renewing: Promise<HeldToken> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private failedRenewals = 0;
  private stopped = false;
  /** Grants this instance received. */
  grants = 0;

  constructor(
    /** Asks Shopify for a token (requestGrant with the app's credentials). */
    private readonly grant: () => Promise<Grant>,
    private readonly opts: { logger?: Logger; random?: () => number } = {},
  ) {}

  /** The scopes of the token held now (empty before the first grant). */
  get scopes(): string[] {
    return this.held?.scopes ?? [];
  }

  async token(): Promise<string> {
    const held = this.held;
    if (held && Date.now() < held.expiresAt) return held.value;
    return (await this.renew()).value;
  }

  async renewAfterRejection(rejected: string): Promise<string> {
    const held = this.held;
    if (held && held.value !== rejected && Date.now() < held.expiresAt) return held.value;
    return (await this.renew()).value;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** One grant request at a time: every caller that needs a new token waits for the same one. */
  private renew(): Promise<HeldToken> {
    this.renewing ??= this.fetchToken().finally(() => {
      this.renewing = null;
    });
    return this.renewing;
  }

  private async fetchToken(): Promise<HeldToken> {
    const grant = await this.grant();
    const held: HeldToken = { value: grant.accessToken, expiresAt: Date.now() + grant.lifetimeMs, scopes: grant.scopes };
    this.held = held;
    this.grants++;
    this.failedRenewals = 0;
    const lifetime = Number.isFinite(grant.lifetimeMs) ? grant.lifetimeMs : null;
    this.opts.logger?.debug({ expiresInSeconds: lifetime && lifetime / 1000 }, 'shopify: access token granted');
    if (lifetime !== null) this.schedule(renewalDelayMs(lifetime, (this.opts.random ?? Math.random)()));
    return held;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.renew().catch((err: unknown) => this.renewalFailed(err));
    }, ms);
    this.timer.unref();
  }

  /** A scheduled renewal failed: try again while the held token lasts (after it, callers renew themselves). */
  private renewalFailed(err: unknown): void {
    this.failedRenewals++;
    const left = (this.held?.expiresAt ?? 0) - Date.now();
    const reason = err instanceof Error ? err.message : String(err);
    if (this.failedRenewals === 1) this.opts.logger?.warn({ reason }, 'shopify: renewing the access token failed; trying again');
    if (left <= 0) return;
    this.schedule(Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** (this.failedRenewals - 1), left / 2));
  }
}

function grantRefusalMessage(status: number, oauthError: string | null, description: string, storeDomain: string): string {
  const said = [oauthError, description].filter(Boolean).join(': ') || `HTTP ${status}`;
  if (oauthError === 'app_not_installed' || /not installed/i.test(description)) {
    return `Shopify refused the client-credentials grant (${said}): install the app on ${storeDomain} (Dev Dashboard → your app → Install app)`;
  }
  if (oauthError === 'shop_not_permitted') {
    return `Shopify refused the client-credentials grant (${said}): the app and ${storeDomain} must belong to the same organisation`;
  }
  return `Shopify refused the client-credentials grant (${said}): check SHOPIFY_CLIENT_ID and SHOPIFY_CLIENT_SECRET (Dev Dashboard → your app → Settings) and SHOPIFY_STORE_DOMAIN`;
}

/** A fetch failure in a few words (a timeout, a refused connection, an untrusted certificate, …). */
export function describeFetchFailure(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return `no answer within ${timeoutMs / 1000} s`;
  const cause = e?.cause;
  if (cause?.code) return `${cause.code}${cause.message ? ` (${cause.message})` : ''}`;
  return cause?.message ?? e?.message ?? String(err);
}
