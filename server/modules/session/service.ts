/**
 * Anonymous shopper sessions: a random token in an httpOnly cookie names a row in the database,
 * so any server instance can serve the shopper. Only the token's SHA-256 is stored.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../../db';
import { hashToken } from '../../lib/session-token';

export interface SessionOptions {
  ttlMs: number;
  /** Sliding expiry is refreshed at most this often per session (saves a write per request). */
  touchEveryMs?: number;
  now?: () => Date;
}

/** A session cookie's token: 32 random bytes in base64url. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The most live sessions this process remembers (the oldest remembered is forgotten first). */
const MAX_KNOWN_SESSIONS = 10_000;

export class SessionService {
  private readonly now: () => Date;
  private readonly touchEveryMs: number;
  /**
   * Sessions this process has read, with the expiry and last touch it read or wrote. A session row
   * is deleted only once expired (the sweep) and its expiry only moves later, so a session known
   * here to live until T lives until T on every instance: until then, or until its expiry is due a
   * refresh, it is answered without a database read.
   */
  private readonly known = new Map<string, { expiresAt: number; lastSeenAt: number }>();

  constructor(
    private readonly db: Db,
    private readonly opts: SessionOptions,
  ) {
    this.now = opts.now ?? (() => new Date());
    this.touchEveryMs = opts.touchEveryMs ?? 60 * 60 * 1000;
  }

  get ttlMs(): number {
    return this.opts.ttlMs;
  }

  /**
   * The live session a cookie token names when this process knows it without the database: a
   * well-formed token of a session it read or wrote, not expired, its expiry not due a refresh.
   * Undefined when only `resolve` can say.
   */
  knownId(token: string | undefined): string | undefined {
    if (!token || !TOKEN.test(token)) return undefined;
    const id = hashToken(token);
    const now = this.now().getTime();
    const known = this.known.get(id);
    return known && known.expiresAt > now && now - known.lastSeenAt <= this.touchEveryMs ? id : undefined;
  }

  /** The live session a cookie token names, or null (unknown, malformed or expired). */
  async resolve(token: string | undefined): Promise<string | null> {
    if (!token || !TOKEN.test(token)) return null;
    const knownId = this.knownId(token);
    if (knownId) return knownId;
    const id = hashToken(token);
    const now = this.now();
    const row = await this.db('sessions').where({ id }).where('expires_at', '>', now).first('last_seen_at', 'expires_at');
    if (!row) {
      this.known.delete(id);
      return null;
    }
    let seen = { expiresAt: new Date(row.expires_at).getTime(), lastSeenAt: new Date(row.last_seen_at).getTime() };
    if (now.getTime() - seen.lastSeenAt > this.touchEveryMs) {
      const expiresAt = new Date(now.getTime() + this.opts.ttlMs);
      await this.db('sessions').where({ id }).update({ last_seen_at: now, expires_at: expiresAt });
      seen = { expiresAt: expiresAt.getTime(), lastSeenAt: now.getTime() };
    }
    this.remember(id, seen);
    return id;
  }

  private remember(id: string, seen: { expiresAt: number; lastSeenAt: number }): void {
    this.known.delete(id);
    if (this.known.size >= MAX_KNOWN_SESSIONS) this.known.delete(this.known.keys().next().value!);
    this.known.set(id, seen);
  }

  async create(): Promise<{ id: string; token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    const id = hashToken(token);
    const now = this.now();
    const expiresAt = new Date(now.getTime() + this.opts.ttlMs);
    await this.db('sessions').insert({ id, created_at: now, last_seen_at: now, expires_at: expiresAt });
    this.remember(id, { expiresAt: expiresAt.getTime(), lastSeenAt: now.getTime() });
    return { id, token, expiresAt };
  }

  /** Deletes expired sessions (their carts go with them). Returns how many. */
  async sweep(): Promise<number> {
    const now = this.now().getTime();
    for (const [id, seen] of this.known) if (seen.expiresAt <= now) this.known.delete(id);
    return this.db('sessions').where('expires_at', '<=', this.now()).delete();
  }
}
