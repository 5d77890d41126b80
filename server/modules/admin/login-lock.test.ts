import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ADMIN_LOCKOUT_MS } from '../../../common/admin';
import {
  ADMIN_BRAKE_FAILURES,
  ADMIN_DEVICE_TTL_MS,
  afterFailure,
  counterAt,
  GLOBAL_COUNTER,
  ipCounter,
  signDevice,
  verifyDevice,
  type CounterRow,
} from './login-lock';

const t0 = new Date('2026-11-01T00:00:00Z');
const at = (ms: number) => new Date(t0.getTime() + ms);
const MINUTE = 60_000;

/** The row a sequence of failures leaves, as the service stores it. */
function failures(key: string, times: number[]): CounterRow | undefined {
  let row: CounterRow | undefined;
  for (const ms of times) {
    const next = afterFailure(row, key, at(ms));
    row = { key, failures: next.failures, window_started_at: next.windowStartedAt, locked_until: next.lockedUntil };
  }
  return row;
}

describe('the admin login lock, per source', () => {
  const ip = ipCounter('203.0.113.7');

  it('locks a source at its 5th failure within 15 minutes, for 15 minutes, then counts from zero', () => {
    const four = failures(ip, [0, MINUTE, 2 * MINUTE, 3 * MINUTE]);
    expect(counterAt(four, at(4 * MINUTE))).toMatchObject({ failures: 4, lockedUntil: null });
    const five = failures(ip, [0, MINUTE, 2 * MINUTE, 3 * MINUTE, 4 * MINUTE]);
    const lockedUntil = at(4 * MINUTE + ADMIN_LOCKOUT_MS);
    expect(counterAt(five, at(5 * MINUTE))).toEqual({ failures: 5, windowStartedAt: t0, lockedUntil });
    expect(counterAt(five, at(4 * MINUTE + ADMIN_LOCKOUT_MS))).toEqual({ failures: 0, windowStartedAt: null, lockedUntil: null });
  });

  it('forgets failures a window after the first one', () => {
    const row = failures(ip, [0, MINUTE, 2 * MINUTE, 3 * MINUTE]);
    expect(counterAt(row, at(ADMIN_LOCKOUT_MS - 1)).failures).toBe(4);
    expect(counterAt(row, at(ADMIN_LOCKOUT_MS)).failures).toBe(0);
    // The 5th failure, after the window: a new count of one, no lock.
    expect(afterFailure(row, ip, at(ADMIN_LOCKOUT_MS))).toEqual({ failures: 1, windowStartedAt: at(ADMIN_LOCKOUT_MS), lockedUntil: null });
  });

  it('neither counts nor extends a lock that holds (a failure of a source sharing the counter)', () => {
    const locked = failures(ip, [0, 1, 2, 3, 4])!;
    const again = afterFailure(locked, ip, at(10 * MINUTE));
    expect(again).toEqual(counterAt(locked, at(10 * MINUTE)));
    expect(again.lockedUntil).toEqual(at(4 + ADMIN_LOCKOUT_MS));
  });

  it(`brakes every source together only at ${ADMIN_BRAKE_FAILURES} failures`, () => {
    const times = Array.from({ length: ADMIN_BRAKE_FAILURES - 1 }, (_, i) => i * 1000);
    const below = failures(GLOBAL_COUNTER, times);
    expect(counterAt(below, at(MINUTE))).toMatchObject({ failures: ADMIN_BRAKE_FAILURES - 1, lockedUntil: null });
    const braked = afterFailure(below, GLOBAL_COUNTER, at(MINUTE));
    expect(braked).toMatchObject({ failures: ADMIN_BRAKE_FAILURES, lockedUntil: at(MINUTE + ADMIN_LOCKOUT_MS) });
  });
});

describe('the admin device cookie', () => {
  const key = randomBytes(32);
  const id = randomBytes(16).toString('base64url');

  it('names its device while it is fresh, for 180 days', () => {
    const cookie = signDevice(key, id, t0);
    expect(verifyDevice(key, cookie, t0)).toBe(id);
    expect(verifyDevice(key, cookie, at(ADMIN_DEVICE_TTL_MS - 1000))).toBe(id);
    expect(verifyDevice(key, cookie, at(ADMIN_DEVICE_TTL_MS))).toBeNull();
  });

  it('names nothing when it is changed, made with another key (another password), or not one at all', () => {
    const cookie = signDevice(key, id, t0);
    const [device, issued, mac] = cookie.split('.') as [string, string, string];
    const other = randomBytes(16).toString('base64url');
    const flip = (s: string) => (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
    for (const forged of [
      `${other}.${issued}.${mac}`,
      `${device}.${Number(issued) + 86_400}.${mac}`,
      `${device}.${issued}.${flip(mac)}`,
      signDevice(randomBytes(32), id, t0),
      '',
      'x',
      `${device}.${issued}`,
      `${cookie}.extra`,
    ]) {
      expect(verifyDevice(key, forged, t0), forged).toBeNull();
    }
    expect(verifyDevice(key, undefined, t0)).toBeNull();
    // Every other last character of the MAC, the three that decode to the same bytes included.
    for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_') {
      if (c !== mac.at(-1)) expect(verifyDevice(key, `${device}.${issued}.${mac.slice(0, -1)}${c}`, t0), c).toBeNull();
    }
    // One issued far in the future (a forged date) is not believed either.
    expect(verifyDevice(key, signDevice(key, id, at(3_600_000)), t0)).toBeNull();
  });
});
