/**
 * Admin login and sessions. The password is checked against its scrypt hash on the server; the
 * session is a random token in an httpOnly cookie naming a database row (only the token's SHA-256
 * is stored), so every server instance honours it and logout ends it everywhere.
 *
 * The lock counts wrong passwords per source (login-lock.ts, admin_login_counters, shared by every
 * instance): the client's IP (an IPv6 client by its /64), the browser's device cookie, and every
 * source together. A browser that logged in before carries a device cookie the server signed; it
 * is locked only by its own failures, so strangers cannot lock the admin out, neither from one
 * place nor from many (the brake). Any other browser is locked by its IP's failures and by the
 * brake. The locks that apply are checked first; then the server waits 1 s plus 1 s per previous
 * failure of the source (at most 5 s) and checks the password; then it records the outcome under
 * the counters' row locks, so concurrent attempts on any instances are counted one at a time, and
 * none gets through a lock another attempt has just set.
 */
import { adminLockouts, adminLoginFailures, adminSignInLinks, rateLimitRefusals } from '../../lib/metrics';
import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
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
import { WorkGate, WorkRefused, type WorkGateLimits } from '../../lib/work-gate';
import { clientIpKey } from '../../lib/rate-limit';
import { ServerSecret } from '../../lib/server-secret';
import { hashToken } from '../../lib/session-token';
import type { Sleep } from '../../lib/sleep';
import { recordAudit, type AuditChange } from './audit';
import {
  afterFailure,
  counterAt,
  deviceCounter,
  deviceLabel,
  GLOBAL_COUNTER,
  ipCounter,
  signDevice,
  verifyDevice,
  type CounterNow,
  type CounterRow,
} from './login-lock';
import { readSignInLink } from './sign-in-link';

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
  /** Checks a password against the hash line (default: scrypt, lib/password-hash.ts; tests count the checks through it). */
  verify?: (password: string, hashLine: string) => Promise<boolean>;
}

/**
 * How many password checks this process runs at once, and how many wait (lib/work-gate.ts): each
 * is a 128 MiB scrypt, so two at once; one running and two waiting per source; 16 waiting in all
 * from browsers not known, as many from the admin's known browsers (served first), none waiting
 * more than 10 s. Beyond that a login is answered at once, with Retry-After.
 */
const LOGIN_HASHES: WorkGateLimits = { running: 2, perSourceWaiting: 2, waiting: 16, maxWaitMs: 10_000 };
/** Retry-After of a login refused because too many are being checked. */
export const LOGIN_BUSY_RETRY_SECONDS = 5;

/** Where a login attempt comes from. */
export interface LoginSource {
  /** The client's address as the app sees it (ctx.ip: the trusted proxy's X-Forwarded-For entry, else the socket's). */
  ip: string;
  /** The device cookie the browser sent, if any. */
  device: string | undefined;
}

/** What a successful login hands the browser: the session's token, the device cookie to keep, and what to answer. */
export interface LoginResult {
  token: string;
  device: string;
  session: AdminSession;
}

type LoginVerdict =
  | ({ kind: 'ok' } & LoginResult)
  | { kind: 'invalid'; attemptsRemaining: number }
  /** `counted`: this attempt was a wrong password, counted (and its failure set the lock). */
  | { kind: 'locked'; lockedUntil: Date; brake: boolean; counted: boolean };

/** What the transaction decided, and the scopes of the locks it set (counted once it committed). */
type Decided = LoginVerdict & { newLocks?: string[] };

/** The counters one attempt reads and moves, and which of them decide for it. */
interface Sources {
  /** Every counter a failure moves, sorted (rows are locked in this order). */
  keys: string[];
  /** The counters whose locks refuse this attempt. */
  blocking: string[];
  /** The counter whose failures set the delay and the attempts remaining. */
  own: string;
  /** The browser's device, when its cookie is one this server signed. */
  deviceId: string | null;
  /** Names the attempt's source in the audit trail. */
  label: string;
}

const NOT_SIGNED_IN: AdminSession = { authenticated: false, expiresAt: null };
const COUNTER_COLUMNS = ['key', 'failures', 'window_started_at', 'locked_until'] as const;

export class AdminService {
  private readonly now: () => Date;
  private readonly secret: ServerSecret;
  private readonly verify: (password: string, hashLine: string) => Promise<boolean>;
  /** The password checks of this process: bounded, fair by source, the admin's known browsers first. */
  private readonly hashes = new WorkGate(LOGIN_HASHES);

  constructor(
    private readonly db: Db,
    private readonly opts: AdminServiceOptions,
  ) {
    this.now = opts.now ?? (() => new Date());
    this.secret = new ServerSecret(db);
    this.verify = opts.verify ?? verifyPassword;
  }

  /**
   * Checks the password and opens a session (its cookie token, the device cookie and what to
   * answer). Throws `admin-locked` (with lockedUntil) or `admin-invalid-password` (with
   * attemptsRemaining).
   */
  async login(password: string, from: LoginSource): Promise<LoginResult> {
    // Read before any transaction: on PGlite the one connection is then the transaction's.
    const deviceKey = await this.deviceKey();
    const sources = this.sources(from, deviceKey);
    const before = await this.counters(sources.keys, this.now());
    const lock = lockOf(before, sources);
    if (lock) throw lockedError(lock, this.now());
    await this.opts.sleep(adminLoginDelayMs(before.get(sources.own)!.failures));
    // Checked and recorded in its turn: the next attempt of this source starts once this one's
    // outcome is written, and is refused unchecked if that outcome locked the source.
    const verdict = await this.inTurn(sources, async () => {
      const correct = await this.verify(password, this.opts.passwordHash);
      return this.db.transaction(async (trx): Promise<Decided> => {
        await trx('admin_login_counters')
          .insert(sources.keys.map((key) => ({ key, failures: 0, updated_at: this.now() })))
          .onConflict('key')
          .ignore();
        const rows: CounterRow[] = await trx('admin_login_counters')
          .whereIn('key', sources.keys)
          .orderBy('key')
          .forUpdate()
          .select(...COUNTER_COLUMNS);
        const at = this.now();
        const counters = countersAt(rows, sources.keys, at);
        // Another attempt (on any instance) locked it while this one waited: refused, right or wrong.
        const lockedMeanwhile = lockOf(counters, sources);
        if (lockedMeanwhile) return { kind: 'locked', ...lockedMeanwhile, counted: false };
        const failures = counters.get(sources.own)!.failures;
        if (correct) return this.open(trx, sources, failures, at, deviceKey);

        const after = new Map<string, CounterNow>();
        for (const row of rows) {
          const next = afterFailure(row, row.key, at);
          after.set(row.key, next);
          await trx('admin_login_counters').where({ key: row.key }).update({
            failures: next.failures,
            window_started_at: next.windowStartedAt,
            locked_until: next.lockedUntil,
            updated_at: at,
          });
        }
        await recordAudit(trx, {
          at,
          action: 'login-failed',
          session: null,
          target: sources.label,
          changes: [{ field: 'failedAttempts', from: failures, to: after.get(sources.own)!.failures }],
        });
        const newLocks: string[] = [];
        for (const key of sources.keys) {
          const lockedUntil = after.get(key)!.lockedUntil;
          // Only a lock this failure set (one already holding is neither counted nor extended).
          if (!lockedUntil || counters.get(key)!.lockedUntil) continue;
          newLocks.push(scopeOf(key));
          await recordAudit(trx, {
            at,
            action: 'login-locked',
            session: null,
            target: lockTarget(key),
            changes: [{ field: 'lockedUntil', from: null, to: lockedUntil.toISOString() }],
          });
        }
        const locked = lockOf(after, sources);
        if (locked) return { kind: 'locked', ...locked, counted: true, newLocks };
        return { kind: 'invalid', attemptsRemaining: ADMIN_MAX_FAILED_ATTEMPTS - after.get(sources.own)!.failures, newLocks };
      });
    });

    for (const scope of verdict.newLocks ?? []) adminLockouts.inc({ scope });
    if (verdict.kind === 'ok') return { token: verdict.token, device: verdict.device, session: verdict.session };
    if (verdict.kind !== 'locked' || verdict.counted) adminLoginFailures.inc();
    if (verdict.kind === 'locked') throw lockedError(verdict, this.now());
    const n = verdict.attemptsRemaining;
    throw new AppError(ErrorCode.adminInvalidPassword, `Invalid password. ${n} ${n === 1 ? 'attempt' : 'attempts'} remaining.`, {
      details: { attemptsRemaining: n },
    });
  }

  /**
   * Runs `judge` (the password's check and its outcome) in its turn: at most LOGIN_HASHES.running
   * at once in this process, one at a time per source, the admin's known browsers first. An
   * attempt whose source was locked while it waited is refused without the check. Too much under
   * way: `admin-login-in-progress` (this source) or `admin-login-busy` (the server), answered at once.
   */
  private async inTurn(sources: Sources, judge: () => Promise<Decided>): Promise<Decided> {
    try {
      return await this.hashes.run(sources.own, sources.deviceId ? 'trusted' : 'other', async () => {
        const lock = lockOf(await this.counters(sources.keys, this.now()), sources);
        if (lock) throw lockedError(lock, this.now());
        return judge();
      });
    } catch (err) {
      if (!(err instanceof WorkRefused)) throw err;
      const wait = `Try again in ${LOGIN_BUSY_RETRY_SECONDS} seconds.`;
      if (err.reason === 'source') {
        rateLimitRefusals.inc({ rule: 'admin-login-in-progress' });
        throw new AppError(
          ErrorCode.adminLoginInProgress,
          `A login from this address is already being checked. Wait for its answer. ${wait}`,
        );
      }
      rateLimitRefusals.inc({ rule: 'admin-login-busy' });
      throw new AppError(ErrorCode.adminLoginBusy, `The server is checking too many logins at once. ${wait}`, { expose: true });
    }
  }

  /**
   * The right password: the attempt's own counter starts again (its device's, else its IP's; never
   * the brake's, nor an IP's that others share with a known device), and a session and the device
   * cookie are made.
   */
  private async open(trx: Knex.Transaction, sources: Sources, failures: number, at: Date, deviceKey: Buffer): Promise<LoginVerdict> {
    await trx('admin_login_counters')
      .where({ key: sources.own })
      .update({ failures: 0, window_started_at: null, locked_until: null, updated_at: at });
    const token = randomBytes(32).toString('base64url');
    const id = hashToken(token);
    const expiresAt = new Date(at.getTime() + ADMIN_SESSION_TTL_MS);
    await trx('admin_sessions').insert({ id, created_at: at, expires_at: expiresAt });
    const changes: AuditChange[] = failures ? [{ field: 'failedAttempts', from: failures, to: 0 }] : [];
    await recordAudit(trx, { at, action: 'login-succeeded', session: sessionLabel(id), target: sources.label, changes });
    // The browser is known from now on: its device (the one it had, else a new one) is signed again for the full time.
    const device = signDevice(deviceKey, sources.deviceId ?? randomBytes(16).toString('base64url'), at);
    return { kind: 'ok', token, device, session: { authenticated: true, expiresAt: expiresAt.toISOString() } };
  }

  /** The counters of an attempt: its IP's, its device's (a cookie this server signed), and every source's. */
  private sources(from: LoginSource, deviceKey: Buffer): Sources {
    const client = clientIpKey(from.ip);
    const deviceId = verifyDevice(deviceKey, from.device, this.now());
    const ip = ipCounter(client);
    if (!deviceId) return { keys: [GLOBAL_COUNTER, ip].sort(), blocking: [ip, GLOBAL_COUNTER], own: ip, deviceId, label: `from ${client}` };
    const device = deviceCounter(deviceId);
    return {
      keys: [GLOBAL_COUNTER, ip, device].sort(),
      blocking: [device],
      own: device,
      deviceId,
      label: `from device ${deviceLabel(deviceId)} (logged in before) at ${client}`,
    };
  }

  /**
   * The operator's sign-in link (sign-in-link.ts), presented once: the browser becomes one that
   * logged in before (its device cookie, the one it had or a new one, signed again for the full
   * time), so its logins are counted on their own, past the brake and any lock of its address. It
   * opens no session: the password is still needed. Throws `admin-link-refused`.
   */
  async recogniseBrowser(link: string, from: LoginSource): Promise<string> {
    const at = this.now();
    const reading = readSignInLink(this.opts.passwordHash, link, at);
    if (!reading.ok) {
      adminSignInLinks.inc({ outcome: reading.why });
      throw linkRefused(
        reading.why === 'expired'
          ? "This sign-in link has expired (links last 15 minutes). Ask the shop's operator for a new one."
          : "This is not a sign-in link of this shop, or it was made before the admin password changed. Ask the shop's operator for a new one.",
      );
    }
    const deviceKey = await this.deviceKey();
    const deviceId = verifyDevice(deviceKey, from.device, at) ?? randomBytes(16).toString('base64url');
    const used = await this.db.transaction(async (trx) => {
      const inserted = await trx('admin_sign_in_links_used')
        .insert({ nonce: reading.nonce, used_at: at, expires_at: reading.expiresAt })
        .onConflict('nonce')
        .ignore()
        .returning('nonce');
      if (inserted.length === 0) return false;
      const target = `device ${deviceLabel(deviceId)} at ${clientIpKey(from.ip)}`;
      await recordAudit(trx, { at, action: 'browser-recognised', session: null, target, changes: [] });
      return true;
    });
    adminSignInLinks.inc({ outcome: used ? 'recognised' : 'used-before' });
    if (!used) throw linkRefused("This sign-in link was used already: each works once. Ask the shop's operator for a new one.");
    return signDevice(deviceKey, deviceId, at);
  }

  /** Signs device cookies. A new admin password forgets every device. */
  private deviceKey(): Promise<Buffer> {
    return this.secret.key(`admin-device:${this.opts.passwordHash}`);
  }

  private async counters(keys: string[], at: Date): Promise<Map<string, CounterNow>> {
    const rows: CounterRow[] = await this.db('admin_login_counters')
      .whereIn('key', keys)
      .select(...COUNTER_COLUMNS);
    return countersAt(rows, keys, at);
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

  /**
   * Deletes sessions that expired or were ended (the audit trail keeps their labels), login
   * counters with nothing left to count (no lock holding, the window over), and the record of used
   * sign-in links past their end. Returns how many sessions.
   */
  async sweep(): Promise<number> {
    const now = this.now();
    await this.db('admin_login_counters')
      .where('updated_at', '<=', new Date(now.getTime() - ADMIN_LOCKOUT_MS))
      .where((w) => w.whereNull('locked_until').orWhere('locked_until', '<=', now))
      .delete();
    // A used link past its end could not be used again anyway.
    await this.db('admin_sign_in_links_used').where('expires_at', '<=', now).delete();
    return this.db('admin_sessions').where('expires_at', '<=', now).orWhereNotNull('ended_at').delete();
  }
}

/** Every counter of `keys` at `at` (one never counted has nothing). */
function countersAt(rows: CounterRow[], keys: string[], at: Date): Map<string, CounterNow> {
  return new Map(
    keys.map((key) => [
      key,
      counterAt(
        rows.find((r) => r.key === key),
        at,
      ),
    ]),
  );
}

/** The lock that refuses this attempt (the latest of those holding), or null. */
function lockOf(counters: Map<string, CounterNow>, sources: Sources): { lockedUntil: Date; brake: boolean } | null {
  let found: { lockedUntil: Date; brake: boolean } | null = null;
  for (const key of sources.blocking) {
    const until = counters.get(key)?.lockedUntil;
    if (until && (!found || until > found.lockedUntil)) found = { lockedUntil: until, brake: key === GLOBAL_COUNTER };
  }
  return found;
}

/** What a counter counts, for the lockouts metric: `ip`, `device` or `global`. */
function scopeOf(key: string): string {
  return key === GLOBAL_COUNTER ? 'global' : key.slice(0, key.indexOf(':'));
}

/** What a new lock's audit entry names as locked. */
function lockTarget(key: string): string {
  if (key === GLOBAL_COUNTER) return 'every browser that has not logged in before (too many wrong passwords from all sources together)';
  if (key.startsWith('device:')) return `device ${deviceLabel(key.slice('device:'.length))}`;
  return key.slice('ip:'.length);
}

function lockedError(lock: { lockedUntil: Date; brake: boolean }, now: Date): AppError {
  const minutes = Math.max(1, Math.ceil((lock.lockedUntil.getTime() - now.getTime()) / 60_000));
  const wait = `${minutes} more ${minutes === 1 ? 'minute' : 'minutes'}`;
  const lockedUntil = lock.lockedUntil.toISOString();
  if (!lock.brake)
    return new AppError(ErrorCode.adminLocked, `Too many failed attempts. Admin login is locked for ${wait}.`, {
      details: { lockedUntil },
    });
  return new AppError(
    ErrorCode.adminLocked,
    `Too many failed attempts from many places. Admin login from a browser that has not logged in before is paused for ${wait}; a browser that logged in before can still log in, and the shop's operator can make this one such a browser with a sign-in link.`,
    { details: { lockedUntil, newBrowsersPaused: true } },
  );
}

function linkRefused(message: string): AppError {
  return new AppError(ErrorCode.adminLinkRefused, message);
}

/** Seconds until the lock ends (whole, at least 1), for Retry-After. */
export function retryAfterSeconds(lockedUntil: string, now: Date): number {
  return Math.max(1, Math.ceil((Date.parse(lockedUntil) - now.getTime()) / 1000));
}

/** The first 8 hex characters of a hash of the session's id: stable, short, and useless as a credential. */
export function sessionLabel(id: string): string {
  return createHash('sha256').update(`admin-session:${id}`).digest('hex').slice(0, 8);
}
