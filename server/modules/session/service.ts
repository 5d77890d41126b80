/**
 * Anonymous shopper sessions: a random token in an httpOnly cookie names a row in the database,
 * so any server instance can serve the shopper. Only the token's SHA-256 is stored.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../db';

export interface SessionOptions {
  ttlMs: number;
  /** Sliding expiry is refreshed at most this often per session (saves a write per request). */
  touchEveryMs?: number;
  now?: () => Date;
}

export class SessionService {
  private readonly now: () => Date;
  private readonly touchEveryMs: number;

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

  /** The live session a cookie token names, or null (unknown, malformed or expired). */
  async resolve(token: string | undefined): Promise<string | null> {
    if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
    const id = hashToken(token);
    const now = this.now();
    const row = await this.db('sessions').where({ id }).where('expires_at', '>', now).first('last_seen_at');
    if (!row) return null;
    if (now.getTime() - new Date(row.last_seen_at).getTime() > this.touchEveryMs) {
      await this.db('sessions')
        .where({ id })
        .update({ last_seen_at: now, expires_at: new Date(now.getTime() + this.opts.ttlMs) });
    }
    return id;
  }

  async create(): Promise<{ id: string; token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    const id = hashToken(token);
    const now = this.now();
    const expiresAt = new Date(now.getTime() + this.opts.ttlMs);
    await this.db('sessions').insert({ id, created_at: now, last_seen_at: now, expires_at: expiresAt });
    return { id, token, expiresAt };
  }

  /** Deletes expired sessions (their carts go with them). Returns how many. */
  async sweep(): Promise<number> {
    return this.db('sessions').where('expires_at', '<=', this.now()).delete();
  }
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
