import { describe, expect, it } from 'vitest';
import { ADMIN_LOCKOUT_MS } from '../../../../common/admin';
import { ErrorCode } from '../../../../common/errors';
import { expectedLoginDelayMs, isLockActive, LOGIN_ERROR_NOTICE, loginNoticeFor, type LoginNotice } from './login-notice';

const now = Date.parse('2025-01-01T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const text = (n: LoginNotice) => (n.description ? `${n.title} — ${n.description}` : n.title);

describe('loginNoticeFor', () => {
  it('says how many attempts remain after a wrong password', () => {
    const notice = loginNoticeFor({ status: 401, code: ErrorCode.adminInvalidPassword, attemptsRemaining: 4 }, null, now);
    expect(text(notice)).toBe('Access Denied — Invalid password. 4 attempts remaining.');
    expect(notice.attemptsRemaining).toBe(4);
    expect(notice.until).toBeUndefined();
  });

  it('gives the locking answer when the lock follows the last allowed wrong password', () => {
    const previous = loginNoticeFor({ status: 401, code: ErrorCode.adminInvalidPassword, attemptsRemaining: 1 }, null, now);
    // A lock whose end is not a full lockout away (the answer took a while) still reads as the locking one.
    const lockedUntil = iso(now + ADMIN_LOCKOUT_MS - 60_000);
    const notice = loginNoticeFor({ status: 429, code: ErrorCode.adminLocked, lockedUntil }, previous, now);
    expect(text(notice)).toBe('Account Temporarily Locked — Too many failed attempts. Please wait 15 minutes before trying again.');
    expect(notice.until).toBe(Date.parse(lockedUntil));
  });

  it('tells a browser paused with every new browser that the operator can let it in', () => {
    const lockedUntil = iso(now + ADMIN_LOCKOUT_MS - 3000);
    const notice = loginNoticeFor({ status: 429, code: ErrorCode.adminLocked, lockedUntil, newBrowsersPaused: true }, null, now);
    expect(text(notice)).toBe(
      "Account Locked — Please wait before trying again. Logins from new browsers are paused after failed attempts from many places; the shop's operator can let this browser in with a sign-in link.",
    );
    expect(notice.until).toBe(Date.parse(lockedUntil));
  });

  it('gives the locking answer for a lock that has only just begun, even on a fresh page', () => {
    const notice = loginNoticeFor({ status: 429, code: ErrorCode.adminLocked, lockedUntil: iso(now + ADMIN_LOCKOUT_MS - 3000) }, null, now);
    expect(notice.kind).toBe('locking');
  });

  it('gives the locking answer for a wrong password that leaves none', () => {
    const notice = loginNoticeFor({ status: 401, code: ErrorCode.adminInvalidPassword, attemptsRemaining: 0 }, null, now);
    expect(notice.kind).toBe('locking');
    expect(notice.until).toBe(now + ADMIN_LOCKOUT_MS);
  });

  it("says 'Account Locked' until the lock's end for a lock met later", () => {
    const lockedUntil = iso(now + 5 * 60_000);
    const notice = loginNoticeFor({ status: 429, code: ErrorCode.adminLocked, lockedUntil }, null, now);
    expect(text(notice)).toBe('Account Locked — Please wait before trying again.');
    expect(notice.until).toBe(Date.parse(lockedUntil));
    expect(isLockActive(notice, now)).toBe(true);
    expect(isLockActive(notice, Date.parse(lockedUntil))).toBe(false);
  });

  it('reads an unreadable lock end as a full lockout from now', () => {
    const previous = loginNoticeFor({ status: 429, code: ErrorCode.adminLocked, lockedUntil: iso(now + 60_000) }, null, now);
    const notice = loginNoticeFor({ status: 429, code: ErrorCode.adminLocked, lockedUntil: 'soon' }, previous, now);
    expect(notice.until).toBe(now + ADMIN_LOCKOUT_MS);
  });

  it('asks to try again soon when too many logins are being checked', () => {
    for (const refusal of [
      { status: 429, code: ErrorCode.adminLoginInProgress },
      { status: 503, code: ErrorCode.adminLoginBusy },
    ]) {
      const notice = loginNoticeFor(refusal, null, now);
      expect(text(notice)).toBe('The server is busy checking logins — Please try again in a few seconds.');
      expect(isLockActive(notice, now)).toBe(false);
    }
  });

  it('says plainly when the logins from this address are over the rate limit', () => {
    const notice = loginNoticeFor({ status: 429, code: ErrorCode.rateLimited }, null, now);
    expect(text(notice)).toBe('Too many logins from this address — Nothing was checked. Please wait a minute, then try again.');
    expect(isLockActive(notice, now)).toBe(false);
  });

  it('answers anything else with the generic error', () => {
    for (const refusal of [
      { status: 0, code: null },
      { status: 500, code: ErrorCode.internal },
      { status: 400, code: ErrorCode.badRequest },
      { status: 401, code: ErrorCode.adminInvalidPassword }, // no count: cannot say how many remain
      { status: 401, code: ErrorCode.adminInvalidPassword, attemptsRemaining: -1 },
    ]) {
      expect(loginNoticeFor(refusal, null, now)).toBe(LOGIN_ERROR_NOTICE);
    }
    expect(text(LOGIN_ERROR_NOTICE)).toBe('An error occurred. Please try again.');
  });

  it('does not count a notice without a lock as active', () => {
    expect(isLockActive(null, now)).toBe(false);
    expect(isLockActive(LOGIN_ERROR_NOTICE, now)).toBe(false);
  });
});

describe('expectedLoginDelayMs', () => {
  it('grows by a second per failure this page has seen, capped at 5 s', () => {
    expect([0, 1, 2, 3, 4, 5, 9].map((n) => expectedLoginDelayMs(n, null))).toEqual([1000, 2000, 3000, 4000, 5000, 5000, 5000]);
  });

  it("prefers the server's count when it says more failures happened", () => {
    const notice = loginNoticeFor({ status: 401, code: ErrorCode.adminInvalidPassword, attemptsRemaining: 2 }, null, now);
    expect(expectedLoginDelayMs(1, notice)).toBe(4000);
    expect(expectedLoginDelayMs(4, notice)).toBe(5000);
  });
});
