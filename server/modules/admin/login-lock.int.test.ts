/**
 * The admin login lock as strangers meet it, on each database, behind one trusted proxy hop
 * (TRUSTED_PROXY_HOPS=1: the last X-Forwarded-For entry is the client, as our proxy wrote it; what
 * a client forged before it is ignored). Wrong passwords are counted per source: the client's IP
 * (an IPv6 client by its /64), the browser's device cookie (it logged in before), and every source
 * together (the brake). Strangers lock only themselves; the admin's known browser is locked only
 * by its own wrong passwords.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_LOCKOUT_MS, adminSessionSchema, auditPageSchema } from '../../../common/admin';
import { ErrorCode } from '../../../common/errors';
import { testDatabaseKinds } from '../../test/databases';
import { startHarness, TEST_ADMIN_PASSWORD, type Harness } from '../../test/harness';
import { adminLockouts, adminLoginFailures } from '../../lib/metrics';
import { ADMIN_BRAKE_FAILURES, ADMIN_DEVICE_TTL_MS } from './login-lock';

const WRONG = 'not the password at all';
/** A forged address the client wrote, then the one our proxy appended. */
const forwardedFor = (clientIp: string) => `${[1, 2, 3, 4].map(() => randomBytes(1)[0]).join('.')}, ${clientIp}`;

describe.each(testDatabaseKinds)('the admin login lock against strangers on %s', (kind) => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness(kind, { env: { TRUSTED_PROXY_HOPS: '1' } });
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(async () => {
    await h.database.db('admin_login_counters').delete();
    h.adminDelays.length = 0;
  });

  /** One login attempt from `ip`, with the device cookie `device` when given. */
  const login = (password: string, ip: string, device?: string, api = h.api) =>
    api('/api/admin/login', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': forwardedFor(ip),
        ...(device ? { cookie: `pogs_admin_device=${device}` } : {}),
      },
      body: JSON.stringify({ password }),
    });
  const deviceOf = (res: Response): string => {
    const set = res.headers.getSetCookie().find((c) => c.startsWith('pogs_admin_device='));
    expect(set, res.headers.getSetCookie().join('\n')).toBeDefined();
    return /^pogs_admin_device=([^;]+)/.exec(set!)![1]!;
  };
  /** The admin logs in from `ip` and keeps the browser's device cookie. */
  const knownDevice = async (ip: string): Promise<string> => {
    const res = await login(TEST_ADMIN_PASSWORD, ip);
    expect(res.status, await res.clone().text()).toBe(200);
    return deviceOf(res);
  };
  const expectLocked = async (res: Response) => {
    expect(res.status).toBe(429);
    const body = (await res.json()) as { code: string; message: string; lockedUntil: string };
    expect(body.code).toBe(ErrorCode.adminLocked);
    expect(res.headers.get('retry-after')).toBe(String(Math.ceil((Date.parse(body.lockedUntil) - h.clock.now) / 1000)));
    expect(res.headers.getSetCookie()).toEqual([]);
    return body;
  };
  const expectLoggedIn = async (res: Response) => {
    expect(res.status, await res.clone().text()).toBe(200);
    expect(adminSessionSchema.parse(await res.json()).authenticated).toBe(true);
    return deviceOf(res);
  };
  /** `n` wrong passwords from `ip`: the first n-1 refused as invalid, the last answered as it is. */
  const fail = async (n: number, ip: string, device?: string, api = h.api) => {
    for (let i = 1; i < n; i++) {
      const res = await login(WRONG, ip, device, api);
      expect(res.status, `failure ${i} from ${ip}`).toBe(401);
      await res.body?.cancel();
    }
    return login(WRONG, ip, device, api);
  };

  it('gives a browser that logged in a signed, httpOnly device cookie for the login only, kept 180 days and at logout', async () => {
    const res = await login(TEST_ADMIN_PASSWORD, '198.51.100.1');
    expect(res.status).toBe(200);
    const set = res.headers.getSetCookie().find((c) => c.startsWith('pogs_admin_device='))!;
    expect(set).toMatch(/^pogs_admin_device=[A-Za-z0-9_-]{22}\.\d+\.[A-Za-z0-9_-]{43}; /);
    expect(set).toMatch(/; path=\/api\/admin\/login(;|$)/);
    expect(set).toMatch(/; samesite=strict/);
    expect(set).toMatch(/; httponly/);
    const expires = Date.parse(/; expires=([^;]+)/.exec(set)![1]!);
    expect(Math.abs(expires - (Date.now() + ADMIN_DEVICE_TTL_MS))).toBeLessThan(60_000);
    // Logging in again with it renews the same device; logging out leaves it alone.
    const device = deviceOf(res);
    const again = await login(TEST_ADMIN_PASSWORD, '198.51.100.1', device);
    expect(deviceOf(again).split('.')[0]).toBe(device.split('.')[0]);
    const session = /pogs_admin=[^;]+/.exec(again.headers.getSetCookie().join('\n'))![0];
    const logout = await h.api('/api/admin/logout', { method: 'POST', headers: { cookie: `${session}; pogs_admin_device=${device}` } });
    expect(logout.status).toBe(200);
    expect(logout.headers.getSetCookie().some((c) => c.startsWith('pogs_admin_device='))).toBe(false);
  });

  it("another source's 5 failures lock that source only: the admin's device still logs in, from anywhere", async () => {
    const adminIp = '198.51.100.10';
    const device = await knownDevice(adminIp);
    h.adminDelays.length = 0;

    // A stranger elsewhere: the login lock, at its 5th wrong password, whatever it forges in front.
    const stranger = '203.0.113.5';
    await expectLocked(await fail(5, stranger));
    expect(h.adminDelays).toEqual([1000, 2000, 3000, 4000, 5000]);
    await expectLocked(await login(TEST_ADMIN_PASSWORD, stranger));
    // A stranger behind the admin's own address (the same café, the same office): that address locks.
    await expectLocked(await fail(5, adminIp));
    await expectLocked(await login(TEST_ADMIN_PASSWORD, adminIp));

    // The admin's browser is not locked by either, with its own count and delay.
    h.adminDelays.length = 0;
    await expectLoggedIn(await login(TEST_ADMIN_PASSWORD, adminIp, device));
    await expectLoggedIn(await login(TEST_ADMIN_PASSWORD, stranger, device));
    expect(h.adminDelays).toEqual([1000, 1000]);

    // A device cookie that is not one the server signed is no device: that browser is locked.
    const [id, issued, mac] = device.split('.') as [string, string, string];
    const forged = [
      `${randomBytes(16).toString('base64url')}.${issued}.${mac}`,
      `${id}.${issued}.${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}`,
      'anything',
    ];
    for (const cookie of forged) await expectLocked(await login(TEST_ADMIN_PASSWORD, adminIp, cookie));
    expect(h.adminDelays).toHaveLength(2);

    // The audit trail names each lock's source, and the device that logged in (never its cookie).
    const cookie = /pogs_admin=[^;]+/.exec((await login(TEST_ADMIN_PASSWORD, adminIp, device)).headers.getSetCookie().join('\n'))![0];
    const audit = auditPageSchema.parse(await (await h.api('/api/admin/audit?limit=40', { headers: { cookie } })).json()).entries;
    const locks = audit.filter((e) => e.action === 'login-locked').map((e) => e.target);
    expect(locks.slice(0, 2)).toEqual([adminIp, stranger]);
    const success = audit.find((e) => e.action === 'login-succeeded')!;
    expect(success.target).toMatch(/^from device [0-9a-f]{8} \(logged in before\) at 198\.51\.100\.10$/);
    expect(JSON.stringify(audit)).not.toContain(id);
  });

  it("the admin's own 5 wrong passwords lock their device, wherever it goes, for 15 minutes", async () => {
    const device = await knownDevice('198.51.100.20');
    h.adminDelays.length = 0;
    for (const remaining of [4, 3, 2, 1]) {
      const res = await login(WRONG, '198.51.100.20', device);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: ErrorCode.adminInvalidPassword, attemptsRemaining: remaining });
    }
    const fifth = await expectLocked(await login(WRONG, '198.51.100.20', device));
    expect(fifth.lockedUntil).toBe(new Date(h.clock.now + ADMIN_LOCKOUT_MS).toISOString());
    expect(h.adminDelays).toEqual([1000, 2000, 3000, 4000, 5000]);
    // Refused at once, right password included, and from another address too.
    await expectLocked(await login(TEST_ADMIN_PASSWORD, '198.51.100.20', device));
    await expectLocked(await login(TEST_ADMIN_PASSWORD, '192.0.2.99', device));
    expect(h.adminDelays).toHaveLength(5);
    // The lock ends: the device logs in, and its count starts again.
    h.clock.now += ADMIN_LOCKOUT_MS;
    await expectLoggedIn(await login(TEST_ADMIN_PASSWORD, '192.0.2.99', device));
    expect(await (await login(WRONG, '192.0.2.99', device)).json()).toMatchObject({ attemptsRemaining: 4 });
  });

  it('counts an IPv6 client by its /64: a stranger cannot take a fresh address for every guess', async () => {
    // One after the other: at once, one /64's attempts would wait their turn, one at a time (login-bounds.int.test.ts).
    for (const i of [1, 2, 3, 4]) expect((await login(WRONG, `2001:db8:7:1::${i}`)).status).toBe(401);
    await expectLocked(await login(WRONG, '2001:db8:7:1:ffff:ffff:ffff:5'));
    await expectLocked(await login(TEST_ADMIN_PASSWORD, '2001:0db8:0007:0001:abcd::1'));
    // The next /64 is someone else.
    await expectLoggedIn(await login(TEST_ADMIN_PASSWORD, '2001:db8:7:2::1'));
  });

  it(`${ADMIN_BRAKE_FAILURES} failures from many sources engage the brake for new browsers; the admin's known device still logs in`, async () => {
    const device = await knownDevice('198.51.100.30');
    const metrics = async () => ({
      failures: (await adminLoginFailures.get()).values[0]?.value ?? 0,
      brakes: (await adminLockouts.get()).values.find((v) => v.labels.scope === 'global')?.value ?? 0,
    });
    const before = await metrics();
    // One wrong password from each of many addresses: no address reaches its own 5.
    const ip = (i: number) => `10.${Math.floor(i / 250)}.${i % 250}.7`;
    for (let i = 0; i < ADMIN_BRAKE_FAILURES - 1; i++) {
      const res = await login(WRONG, ip(i));
      expect(res.status, `guess ${i}`).toBe(401);
      expect(await res.json()).toMatchObject({ attemptsRemaining: 4 });
    }
    // Below the brake a new browser still logs in (and its success does not reset the brake's count).
    await expectLoggedIn(await login(TEST_ADMIN_PASSWORD, '192.0.2.1'));
    const braking = await expectLocked(await login(WRONG, ip(ADMIN_BRAKE_FAILURES)));
    expect(braking.message).toMatch(/a browser that logged in before can still log in/);
    // Every browser without a device cookie is paused, at any address, right password or not.
    for (const somewhere of ['192.0.2.2', '2001:db8:99::1', ip(0)]) {
      const res = await expectLocked(await login(TEST_ADMIN_PASSWORD, somewhere));
      expect(res.lockedUntil).toBe(braking.lockedUntil);
    }
    // The admin's known browser is not: a busy store's admin keeps working while strangers guess.
    await expectLoggedIn(await login(TEST_ADMIN_PASSWORD, '198.51.100.30', device));
    await expectLoggedIn(await login(TEST_ADMIN_PASSWORD, '192.0.2.3', device));
    // Its own wrong passwords still count for it (and do not extend the brake).
    expect(await (await login(WRONG, '198.51.100.30', device)).json()).toMatchObject({ attemptsRemaining: 4 });
    const brake = await h.database.db('admin_login_counters').where({ key: 'global' }).first('locked_until');
    expect(new Date(brake.locked_until).toISOString()).toBe(braking.lockedUntil);
    // Counted: every wrong password (not the refusals), and the brake once.
    expect(await metrics()).toEqual({ failures: before.failures + ADMIN_BRAKE_FAILURES + 1, brakes: before.brakes + 1 });
    // The brake ends after 15 minutes.
    h.clock.now = Date.parse(braking.lockedUntil);
    await expectLoggedIn(await login(TEST_ADMIN_PASSWORD, '192.0.2.2'));
  });

  it('forgets a device after 180 days without a login', async () => {
    const device = await knownDevice('198.51.100.40');
    h.clock.now += ADMIN_DEVICE_TTL_MS;
    await expectLocked(await fail(5, '198.51.100.40'));
    await expectLocked(await login(TEST_ADMIN_PASSWORD, '198.51.100.40', device));
    // From elsewhere it logs in as a new browser, and is known again from then on.
    const renewed = await expectLoggedIn(await login(TEST_ADMIN_PASSWORD, '198.51.100.41', device));
    await expectLoggedIn(await login(TEST_ADMIN_PASSWORD, '198.51.100.40', renewed));
  });

  it.runIf(kind === 'postgres')('shares every count between server instances', async () => {
    const other = await h.startAnotherInstance();
    const device = await knownDevice('198.51.100.50');
    // A stranger alternating instances: one count, locked on both.
    for (const [i, api] of [h.api, other.api, h.api, other.api].entries()) {
      expect(await (await login(WRONG, '203.0.113.50', undefined, api)).json()).toMatchObject({ attemptsRemaining: 4 - i });
    }
    await expectLocked(await login(WRONG, '203.0.113.50', undefined, other.api));
    await expectLocked(await login(TEST_ADMIN_PASSWORD, '203.0.113.50', undefined, h.api));
    // The admin's device, on either instance, from the stranger's address even.
    await expectLoggedIn(await login(TEST_ADMIN_PASSWORD, '203.0.113.50', device, other.api));
    // Concurrent guesses from many addresses on both instances: each counted once toward the brake.
    // In two waves of 30, 15 an instance: what one instance checks or lets wait at once (the
    // bound on concurrent password checks, login-bounds.int.test.ts) answers the rest 503.
    const burst: Response[] = [];
    for (const wave of [0, 1]) {
      const guesses = Array.from({ length: (ADMIN_BRAKE_FAILURES + 10) / 2 }, (_, j) => wave * 30 + j);
      burst.push(...(await Promise.all(guesses.map((i) => login(WRONG, `10.50.${i}.1`, undefined, i % 2 ? other.api : h.api)))));
    }
    const statuses = burst.map((r) => r.status);
    // The stranger's 5 failures above count too: 45 more reach the brake, the rest are refused as braked.
    expect(statuses.filter((s) => s === 401)).toHaveLength(ADMIN_BRAKE_FAILURES - 5 - 1);
    expect(statuses.filter((s) => s === 429)).toHaveLength(16);
    const global = await h.database.db('admin_login_counters').where({ key: 'global' }).first('failures', 'locked_until');
    expect(global.failures).toBe(ADMIN_BRAKE_FAILURES);
    expect(global.locked_until).not.toBeNull();
    for (const api of [h.api, other.api]) await expectLocked(await login(TEST_ADMIN_PASSWORD, '192.0.2.60', undefined, api));
    await expectLoggedIn(await login(TEST_ADMIN_PASSWORD, '192.0.2.60', device, h.api));
  });
});
