/**
 * Admin login and sessions. The password is checked against its scrypt hash on the server; the
 * session is a random token in an httpOnly cookie naming a database row (only the token's SHA-256
 * is stored), so every server instance honours it and logout ends it everywhere.
 *
 * The lockout is one row shared by every instance (admin_login_state): the lock is checked first;
 * then the server waits 1 s plus 1 s per previous failure (at most 5 s) and checks the password;
 * then it records the outcome under the row's lock, so concurrent attempts on any instances are
 * counted one at a time, and none gets through a lock another attempt has just set.
 */
import { adminLockouts, adminLoginFailures } from '../../lib/metrics';
import { createHash, randomBytes } from 'node:crypto';
import {
  ADMIN_LOCKOUT_MS,
  ADMIN_MAX_FAILED_ATTEMPTS,
  ADMIN_SESSION_TTL_MS,
  adminLoginDelayMs,
  type AdminSession,
} from '../../../common/admin';
import { ErrorCode } from '../../../common/errors';
import type { Db } from '../../db';
import { AppError } from '../../lib/errors';
import { verifyPassword } from '../../lib/password-hash';
import type { Sleep } from '../../lib/sleep';
import { recordAudit, type AuditChange } from './audit';

/** A live admin session, as the routes see it. */
export interface AdminSessionInfo {
  id: string;
  /** Names the session in the audit trail: a hash of its id, never the token. */
  label: string;
  expiresAt: Date;
}

export interface AdminServiceOptions {
  /** The admin password's hash line (config.adminPassword). */
  passwordHash: string;
  now?: () => Date;
  /** How the login delay is waited (tests record it instead of waiting). */
  sleep: Sleep;
}

type LoginVerdict =
  | { kind: 'ok'; token: string; session: AdminSession }
  | { kind: 'invalid'; attemptsRemaining: number }
  | { kind: 'locked'; lockedUntil: Date };

const NOT_SIGNED_IN: AdminSession = { authenticated: false, expiresAt: null };

export class AdminService {
  private readonly now: () => Date;

  constructor(
    private readonly db: Db,
    private readonly opts: AdminServiceOptions,
  ) {
    this.now = opts.now ?? (() => new Date());
  }

  /**
   * Checks the password and opens a session (its cookie token and what to answer). Throws
   * `admin-locked` (with lockedUntil) or `admin-invalid-password` (with attemptsRemaining).
   */
  async login(password: string): Promise<{ token: string; session: AdminSession }> {
    const state = await this.db('admin_login_state').where({ id: 1 }).first('failures', 'locked_until');
    const lockedUntil = state?.locked_until ? new Date(state.locked_until) : null;
    if (lockedUntil && lockedUntil > this.now()) throw lockedError(lockedUntil, this.now());
    // After a lock the count starts again.
    const previousFailures = lockedUntil ? 0 : (state?.failures ?? 0);
    await this.opts.sleep(adminLoginDelayMs(previousFailures));
    const correct = await verifyPassword(password, this.opts.passwordHash);

    const verdict = await this.db.transaction(async (trx): Promise<LoginVerdict> => {
      const row = await trx('admin_login_state').where({ id: 1 }).forUpdate().first('failures', 'locked_until');
      const at = this.now();
      const until = row?.locked_until ? new Date(row.locked_until) : null;
      // Another attempt (on any instance) locked it while this one waited: refused, right or wrong.
      if (until && until > at) return { kind: 'locked', lockedUntil: until };
      const failures = until ? 0 : (row?.failures ?? 0);
      if (correct) {
        await trx('admin_login_state').where({ id: 1 }).update({ failures: 0, locked_until: null, updated_at: at });
        const token = randomBytes(32).toString('base64url');
        const id = hashToken(token);
        const expiresAt = new Date(at.getTime() + ADMIN_SESSION_TTL_MS);
        await trx('admin_sessions').insert({ id, created_at: at, expires_at: expiresAt });
        const changes: AuditChange[] = failures ? [{ field: 'failedAttempts', from: failures, to: 0 }] : [];
        await recordAudit(trx, { at, action: 'login-succeeded', session: sessionLabel(id), target: null, changes });
        return { kind: 'ok', token, session: { authenticated: true, expiresAt: expiresAt.toISOString() } };
      }
      const count = failures + 1;
      const newLock = count >= ADMIN_MAX_FAILED_ATTEMPTS ? new Date(at.getTime() + ADMIN_LOCKOUT_MS) : null;
      await trx('admin_login_state').where({ id: 1 }).update({ failures: count, locked_until: newLock, updated_at: at });
      await recordAudit(trx, {
        at,
        action: 'login-failed',
        session: null,
        target: null,
        changes: [{ field: 'failedAttempts', from: failures, to: count }],
      });
      if (!newLock) return { kind: 'invalid', attemptsRemaining: ADMIN_MAX_FAILED_ATTEMPTS - count };
      await recordAudit(trx, {
        at,
        action: 'login-locked',
        session: null,
        target: null,
        changes: [{ field: 'lockedUntil', from: null, to: newLock.toISOString() }],
      });
      return { kind: 'locked', lockedUntil: newLock };
    });

    if (verdict.kind === 'ok') return verdict;
    adminLoginFailures.inc();
    if (verdict.kind === 'locked') {
      adminLockouts.inc();
      throw lockedError(verdict.lockedUntil, this.now());
    }
    const n = verdict.attemptsRemaining;
    throw new AppError(ErrorCode.adminInvalidPassword, `Invalid password. ${n} ${n === 1 ? 'attempt' : 'attempts'} remaining.`, {
      details: { attemptsRemaining: n },
    });
  }

  /** The live session a cookie token names, or null (none, malformed, expired or ended). */
  async resolve(token: string | undefined): Promise<AdminSessionInfo | null> {
    if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
    const id = hashToken(token);
    const row = await this.db('admin_sessions')
      .where({ id })
      .whereNull('ended_at')
      .where('expires_at', '>', this.now())
      .first('expires_at');
    return row ? { id, label: sessionLabel(id), expiresAt: new Date(row.expires_at) } : null;
  }

  /** What GET /api/admin/session answers for this session (never an error). */
  describe(session: AdminSessionInfo | null): AdminSession {
    return session ? { authenticated: true, expiresAt: session.expiresAt.toISOString() } : NOT_SIGNED_IN;
  }

  /** Ends the session in the database (every instance refuses it from now on) and records it. */
  async logout(session: AdminSessionInfo | null): Promise<AdminSession> {
    if (!session) return NOT_SIGNED_IN;
    await this.db.transaction(async (trx) => {
      const at = this.now();
      const ended = await trx('admin_sessions').where({ id: session.id }).whereNull('ended_at').update({ ended_at: at });
      if (ended) await recordAudit(trx, { at, action: 'logout', session: session.label, target: null, changes: [] });
    });
    return NOT_SIGNED_IN;
  }

  /** Deletes sessions that expired or were ended (the audit trail keeps their labels). Returns how many. */
  async sweep(): Promise<number> {
    return this.db('admin_sessions').where('expires_at', '<=', this.now()).orWhereNotNull('ended_at').delete();
  }
}

function lockedError(lockedUntil: Date, now: Date): AppError {
  const minutes = Math.max(1, Math.ceil((lockedUntil.getTime() - now.getTime()) / 60_000));
  return new AppError(
    ErrorCode.adminLocked,
    `Too many failed attempts. Admin login is locked for ${minutes} more ${minutes === 1 ? 'minute' : 'minutes'}.`,
    { details: { lockedUntil: lockedUntil.toISOString() } },
  );
}

/** Seconds until the lock ends (whole, at least 1), for Retry-After. */
export function retryAfterSeconds(lockedUntil: string, now: Date): number {
  return Math.max(1, Math.ceil((Date.parse(lockedUntil) - now.getTime()) / 1000));
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The first 8 hex characters of a hash of the session's id: stable, short, and useless as a credential. */
export function sessionLabel(id: string): string {
  return createHash('sha256').update(`admin-session:${id}`).digest('hex').slice(0, 8);
}
