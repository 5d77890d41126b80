import { ADMIN_LOCKOUT_MS, ADMIN_MAX_FAILED_ATTEMPTS, adminLoginDelayMs } from '../../../../common/admin';
import { ErrorCode } from '../../../../common/errors';

/** What the 'Admin Access' form shows about the last login or the lost session. */
export interface LoginNotice {
  kind: 'invalid-password' | 'locking' | 'locked' | 'error' | 'session-expired' | 'browser-recognised';
  title: string;
  description: string;
  /** For the locks: when logging in may be tried again (ms since the epoch); the form waits until then. */
  until?: number;
  /** For a wrong password: how many tries the server still allows. */
  attemptsRemaining?: number;
}

/** What a refused login told us: the error's status and code, and the extra fields of its body. */
export interface LoginRefusal {
  status: number;
  code: string | null;
  attemptsRemaining?: number;
  lockedUntil?: string;
  /** The lock is the pause on every browser that has not logged in before (wrong passwords from many places). */
  newBrowsersPaused?: boolean;
}

export const LOGIN_ERROR_NOTICE: LoginNotice = { kind: 'error', title: 'An error occurred. Please try again.', description: '' };

const LOGIN_BUSY_NOTICE: LoginNotice = {
  kind: 'error',
  title: 'The server is busy checking logins',
  description: 'Please try again in a few seconds.',
};

const LOGIN_RATE_LIMITED_NOTICE: LoginNotice = {
  kind: 'error',
  title: 'Too many logins from this address',
  description: 'Nothing was checked. Please wait a minute, then try again.',
};

/** The operator's sign-in link was accepted: this browser now logs in past the pause on new browsers. */
export const BROWSER_RECOGNISED_NOTICE: LoginNotice = {
  kind: 'browser-recognised',
  title: 'This browser can now log in',
  description: 'Enter the admin password. Logins from this browser are no longer paused when strangers guess from many places.',
};

/** The operator's sign-in link was refused: the server says why (expired, used, not this shop's). */
export function signInLinkRefusedNotice(message: string): LoginNotice {
  return { kind: 'error', title: 'Sign-in link not accepted', description: message };
}

/** What an admin locked out by the pause on new browsers can do besides waiting. */
const PAUSED_HINT =
  "Logins from new browsers are paused after failed attempts from many places; the shop's operator can let this browser in with a sign-in link.";

export const SESSION_EXPIRED_NOTICE: LoginNotice = {
  kind: 'session-expired',
  title: 'Session Expired',
  description: 'Please log in again to continue.',
};

/**
 * A lock the server reports this close to its full length was started by this very attempt
 * (the server answers within its 5 s delay); an older lock reads as 'Account Locked'.
 */
const FRESH_LOCK_SLACK_MS = 10_000;

function lockEnd(lockedUntil: string | undefined, now: number): number {
  const end = lockedUntil ? Date.parse(lockedUntil) : Number.NaN;
  return Number.isFinite(end) ? end : now + ADMIN_LOCKOUT_MS;
}

function lockingNotice(until: number): LoginNotice {
  return {
    kind: 'locking',
    title: 'Account Temporarily Locked',
    description: 'Too many failed attempts. Please wait 15 minutes before trying again.',
    until,
  };
}

/**
 * The notice for a refused login. `previous` is the notice the form showed before this attempt:
 * a lock answered right after the last allowed wrong password is the locking answer ('Account
 * Temporarily Locked'); a lock met otherwise is 'Account Locked', unless it has only just begun.
 */
export function loginNoticeFor(refusal: LoginRefusal, previous: LoginNotice | null, now: number): LoginNotice {
  if (refusal.code === ErrorCode.adminInvalidPassword) {
    const left = refusal.attemptsRemaining;
    if (left === undefined || !Number.isInteger(left) || left < 0) return LOGIN_ERROR_NOTICE;
    // A server that locks on the last wrong password itself (0 left) gives the locking answer.
    if (left === 0) return lockingNotice(lockEnd(refusal.lockedUntil, now));
    return {
      kind: 'invalid-password',
      title: 'Access Denied',
      description: `Invalid password. ${left} attempts remaining.`,
      attemptsRemaining: left,
    };
  }
  if (refusal.code === ErrorCode.adminLocked) {
    const until = lockEnd(refusal.lockedUntil, now);
    const lastTry = previous?.kind === 'invalid-password' && previous.attemptsRemaining === 1;
    const fresh = until - now >= ADMIN_LOCKOUT_MS - FRESH_LOCK_SLACK_MS;
    if (refusal.newBrowsersPaused)
      return { kind: 'locked', title: 'Account Locked', description: `Please wait before trying again. ${PAUSED_HINT}`, until };
    if (lastTry || fresh) return lockingNotice(until);
    return { kind: 'locked', title: 'Account Locked', description: 'Please wait before trying again.', until };
  }
  // Too many logins being checked (this browser's, or the server's): nothing is counted; try again soon.
  if (refusal.code === ErrorCode.adminLoginInProgress || refusal.code === ErrorCode.adminLoginBusy) return LOGIN_BUSY_NOTICE;
  // Over the rate limit of logins from one address (a minute's window): nothing was checked or counted.
  if (refusal.code === ErrorCode.rateLimited) return LOGIN_RATE_LIMITED_NOTICE;
  return LOGIN_ERROR_NOTICE;
}

/** Whether a lock notice still holds at `now` (the form stays disabled until it ends). */
export function isLockActive(notice: LoginNotice | null, now: number): boolean {
  return notice?.until !== undefined && notice.until > now;
}

/**
 * How long the server will take to answer the next login (1 s plus 1 s per previous
 * failure, at most 5 s), for the progress shown meanwhile. The server's own count, read off its
 * last answer, wins over the failures this page has seen (another tab may have failed too).
 */
export function expectedLoginDelayMs(failuresSeen: number, lastNotice: LoginNotice | null): number {
  const known = lastNotice?.attemptsRemaining;
  const previousFailures = known === undefined ? failuresSeen : Math.max(ADMIN_MAX_FAILED_ATTEMPTS - known, failuresSeen);
  return adminLoginDelayMs(previousFailures);
}
