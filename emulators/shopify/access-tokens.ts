// The Admin API tokens the emulator accepts: the permanent token of a legacy admin-made custom app
// (given at construction), and tokens minted by the client-credentials grant, which stop working
// after their time to live on the emulator's clock. Granted tokens are kept only as SHA-256 digests
// and only until they expire, so memory stays bounded however long the emulator runs.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** How a grant request carried its parameters. */
export type GrantBodyKind = 'json' | 'form';

export interface AccessTokenGrant {
  /** When it was granted, in ms on the emulator's clock. */
  grantedAt: number;
  /** When it stops working, in ms; moved earlier by expireAccessTokens(). */
  expiresAt: number;
  body: GrantBodyKind;
}

/** The newest grants kept in the log; `count` goes on counting past it. */
const GRANT_LOG_LIMIT = 1000;

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** Equality of two strings in time that does not depend on where they differ (nor on their lengths). */
export function constantTimeEqual(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

export interface AccessTokenOptions {
  /** The permanent token, if this emulator accepts one. */
  staticToken?: string;
  ttlSeconds: number;
  now: () => number;
}

export class AccessTokens {
  /** The grant log, oldest first (the newest GRANT_LOG_LIMIT); callers may hold on to this array. */
  readonly grants: AccessTokenGrant[] = [];
  private granted = 0;
  /**
   * Unexpired granted tokens by digest, in order of grant. They all live equally long, so this is
   * also the order in which they expire and pruning stops at the first one still valid.
   */
  private readonly live = new Map<string, AccessTokenGrant>();

  constructor(private readonly opts: AccessTokenOptions) {}

  /** Grants made since the start (or the last reset), including those gone from the log. */
  get count(): number {
    return this.granted;
  }

  /** Granted tokens that still work. */
  get activeCount(): number {
    this.prune();
    return this.live.size;
  }

  /** Mints a token: `shpat_` and 32 random hex digits. */
  grant(body: GrantBodyKind): { accessToken: string; expiresInSeconds: number } {
    this.prune();
    const accessToken = `shpat_${randomBytes(16).toString('hex')}`;
    const grantedAt = this.opts.now();
    const record: AccessTokenGrant = { grantedAt, expiresAt: grantedAt + this.opts.ttlSeconds * 1000, body };
    this.live.set(digest(accessToken).toString('hex'), record);
    this.granted += 1;
    this.grants.push(record);
    if (this.grants.length > GRANT_LOG_LIMIT) this.grants.splice(0, this.grants.length - GRANT_LOG_LIMIT);
    return { accessToken, expiresInSeconds: this.opts.ttlSeconds };
  }

  /** Whether an X-Shopify-Access-Token value may call the Admin API now. */
  accepts(token: string): boolean {
    if (!token) return false;
    if (this.opts.staticToken !== undefined && constantTimeEqual(token, this.opts.staticToken)) return true;
    this.prune();
    const record = this.live.get(digest(token).toString('hex'));
    // Checked again: a test clock moved backwards can leave a later grant expiring first.
    return record !== undefined && record.expiresAt > this.opts.now();
  }

  /** Ends every granted token now (the static token keeps working); returns how many were live. */
  expireAll(): number {
    this.prune();
    const now = this.opts.now();
    for (const record of this.live.values()) record.expiresAt = now;
    const expired = this.live.size;
    this.live.clear();
    return expired;
  }

  /** Forgets every granted token and the log (in place). */
  reset(): void {
    this.live.clear();
    this.grants.length = 0;
    this.granted = 0;
  }

  private prune(): void {
    const now = this.opts.now();
    for (const [key, record] of this.live) {
      if (record.expiresAt > now) break;
      this.live.delete(key);
    }
  }
}
