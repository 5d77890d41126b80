/**
 * The arithmetic of the admin login lock and the admin's device cookie, pure (no I/O), for the
 * service (service.ts) and its unit tests.
 *
 * Wrong passwords are counted per source: the client's IP (an IPv6 client by its /64), the browser
 * when it carries a device cookie (it logged in before), and every source together. A source's
 * count lapses a window after its first failure; its 5th failure within it locks it for 15
 * minutes, and then the count starts again. Every source together has a brake well above that: 50
 * failures within the window stop every browser that has not logged in before for 15 minutes.
 */
import { createHash, createHmac } from 'node:crypto';
import { ADMIN_LOCKOUT_MS, ADMIN_MAX_FAILED_ATTEMPTS } from '../../../common/admin';
import { macMatches } from '../../lib/mac-match';

/** Wrong passwords from every source together, within a window, that engage the brake. */
export const ADMIN_BRAKE_FAILURES = 50;
/** How long a count lasts from its first failure, and how long a lock or the brake lasts. */
const WINDOW_MS = ADMIN_LOCKOUT_MS;
/** How long a device cookie proves that its browser logged in before (renewed at every login). */
export const ADMIN_DEVICE_TTL_MS = 180 * 86_400_000;

/** The counter every source shares. */
export const GLOBAL_COUNTER = 'global';

/** A row of admin_login_counters as stored. */
export interface CounterRow {
  key: string;
  failures: number;
  window_started_at: Date | string | null;
  locked_until: Date | string | null;
}

/** What a counter says at a moment: its failures in the current window, and the end of its lock while it holds. */
export interface CounterNow {
  failures: number;
  windowStartedAt: Date | null;
  lockedUntil: Date | null;
}

const date = (v: Date | string | null) => (v === null ? null : new Date(v));

/** The failures that still count at `now`, and the lock while it holds (after a lock the count starts again). */
export function counterAt(row: CounterRow | undefined, now: Date): CounterNow {
  const none: CounterNow = { failures: 0, windowStartedAt: null, lockedUntil: null };
  if (!row) return none;
  const lockedUntil = date(row.locked_until);
  if (lockedUntil) return lockedUntil > now ? { failures: row.failures, windowStartedAt: date(row.window_started_at), lockedUntil } : none;
  const start = date(row.window_started_at);
  if (!start || start.getTime() + WINDOW_MS <= now.getTime()) return none;
  return { failures: row.failures, windowStartedAt: start, lockedUntil: null };
}

/** How many failures within the window lock this counter. */
export function failureLimit(key: string): number {
  return key === GLOBAL_COUNTER ? ADMIN_BRAKE_FAILURES : ADMIN_MAX_FAILED_ATTEMPTS;
}

/**
 * The counter after one more failure at `now`: locked when it reaches its limit. A counter already
 * locked stays as it is (a failure of another source that shares it neither counts nor extends its lock).
 */
export function afterFailure(row: CounterRow | undefined, key: string, now: Date): CounterNow {
  const before = counterAt(row, now);
  if (before.lockedUntil) return before;
  const failures = before.failures + 1;
  return {
    failures,
    windowStartedAt: before.windowStartedAt ?? now,
    lockedUntil: failures >= failureLimit(key) ? new Date(now.getTime() + WINDOW_MS) : null,
  };
}

/** The counter key of a client address (already reduced to its IPv4 address or IPv6 /64). */
export const ipCounter = (clientKey: string) => `ip:${clientKey}`;
export const deviceCounter = (deviceId: string) => `device:${deviceId}`;

// ---------------------------------------------------------------------------------------------
// The device cookie: `<device id>.<issued, seconds>.<HMAC-SHA256 of both>`, signed with a key
// derived from the server's secret (and the admin password's hash, so a new password forgets
// every device). Anything else, a changed character or an expired one, names no device.

const DEVICE_COOKIE = /^([A-Za-z0-9_-]{22})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;
/** A cookie issued this far in the future (clocks of two instances) is still believed. */
const CLOCK_SKEW_MS = 5 * 60_000;

function mac(key: Buffer, deviceId: string, issuedSeconds: number): Buffer {
  return createHmac('sha256', key).update(`admin-device:${deviceId}.${issuedSeconds}`).digest();
}

/** The cookie's value for a device, issued at `at`. */
export function signDevice(key: Buffer, deviceId: string, at: Date): string {
  const issued = Math.floor(at.getTime() / 1000);
  return `${deviceId}.${issued}.${mac(key, deviceId, issued).toString('base64url')}`;
}

/** The device a cookie names, or null when it is not one this server signed, or expired. */
export function verifyDevice(key: Buffer, value: string | undefined, now: Date): string | null {
  const m = value ? DEVICE_COOKIE.exec(value) : null;
  if (!m) return null;
  const [, deviceId, issuedText, given] = m as unknown as [string, string, string, string];
  const issued = Number(issuedText);
  if (!macMatches(given, mac(key, deviceId, issued).toString('base64url'))) return null;
  const age = now.getTime() - issued * 1000;
  return age < ADMIN_DEVICE_TTL_MS && age > -CLOCK_SKEW_MS ? deviceId : null;
}

/** A short name of a device for the audit trail: a hash of its id, never the id. */
export function deviceLabel(deviceId: string): string {
  return createHash('sha256').update(`admin-device-label:${deviceId}`).digest('hex').slice(0, 8);
}
