/**
 * The admin's way in while strangers guessing from many places keep every new browser paused (the
 * brake), on each database, behind one trusted proxy hop: the operator runs the real command
 * (server/admin-link.ts, in its own process, from the shop's settings alone), the admin's new
 * browser presents the printed link, and logs in with the password while the pause holds for
 * everyone else. Strangers get nothing: no link, a forged one, someone else's used one, an expired
 * one, one made for another password, or one sent from another site.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_SIGN_IN_FRAGMENT, adminSessionSchema, auditPageSchema } from '../../../common/admin';
import { ErrorCode } from '../../../common/errors';
import { hashPassword } from '../../lib/password-hash';
import { testDatabaseKinds } from '../../test/databases';
import { startHarness, TEST_ADMIN_PASSWORD, type Harness } from '../../test/harness';
import { ADMIN_BRAKE_FAILURES } from './login-lock';
import { makeSignInLink, SIGN_IN_LINK_TTL_MS } from './sign-in-link';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const WRONG = 'not the password at all';
const PUBLIC_URL = 'https://shop.example';

/** Runs `node dist-server/admin-link.js`'s source as the operator would, with the shop's settings: its stdout and stderr. */
async function operatorLink(passwordHash: string): Promise<{ stdout: string; stderr: string }> {
  return promisify(execFile)(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/admin-link.ts')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, NODE_ENV: 'test', ADMIN_PASSWORD_HASH: passwordHash, PUBLIC_URL },
    timeout: 60_000,
  });
}

describe.each(testDatabaseKinds)('the operator’s sign-in link on %s', (kind) => {
  let h: Harness;
  let hash: string;

  beforeAll(async () => {
    h = await startHarness(kind, { env: { TRUSTED_PROXY_HOPS: '1' } });
    hash = h.services.config.adminPassword.hash!;
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(async () => {
    await h.database.db('admin_login_counters').delete();
    // The command signs with the real time; the shop's clock follows it.
    h.clock.now = Date.now();
  });

  const post = (route: string, body: unknown, ip: string, device?: string, extra: Record<string, string> = {}) =>
    h.api(route, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': `${[1, 2, 3, 4].map(() => randomBytes(1)[0]).join('.')}, ${ip}`,
        ...(device ? { cookie: `pogs_admin_device=${device}` } : {}),
        ...extra,
      },
      body: JSON.stringify(body),
    });
  const login = (password: string, ip: string, device?: string) => post('/api/admin/login', { password }, ip, device);
  const present = (link: string, ip: string, device?: string, extra?: Record<string, string>) =>
    post('/api/admin/login/link', { link }, ip, device, extra);
  const deviceOf = (res: Response): string | undefined => {
    const set = res.headers.getSetCookie().find((c) => c.startsWith('pogs_admin_device='));
    return set && /^pogs_admin_device=([^;]+)/.exec(set)![1];
  };
  const refusal = async (res: Response) => {
    const body = (await res.json()) as { code: string; message: string; newBrowsersPaused?: boolean };
    return { status: res.status, ...body, cookies: res.headers.getSetCookie() };
  };
  /** Wrong passwords from ten addresses, five each: the brake on new browsers holds. */
  const engageBrake = async () => {
    for (let n = 0; n < ADMIN_BRAKE_FAILURES; n++) {
      const res = await login(WRONG, `203.0.113.${10 + (n % 10)}`);
      expect([401, 429]).toContain(res.status);
      await res.body?.cancel();
    }
    const newBrowser = await refusal(await login(TEST_ADMIN_PASSWORD, '198.51.100.7'));
    expect(newBrowser).toMatchObject({ status: 429, code: ErrorCode.adminLocked, newBrowsersPaused: true });
    expect(newBrowser.message).toContain('sign-in link');
  };

  it('while the brake holds, the admin’s new browser gets in with the link the operator’s command prints; strangers still do not', async () => {
    await engageBrake();
    const { stdout, stderr } = await operatorLink(hash);
    expect(stderr).toContain('usable once');
    const url = stdout.trim();
    expect(url.startsWith(`${PUBLIC_URL}/admin#${ADMIN_SIGN_IN_FRAGMENT}=`), url).toBe(true);
    const link = new URLSearchParams(new URL(url).hash.slice(1)).get(ADMIN_SIGN_IN_FRAGMENT)!;

    // The admin's tablet, behind an address a stranger has locked too.
    const locked = await refusal(await login(WRONG, '203.0.113.10'));
    expect(locked.status).toBe(429);
    const presented = await present(link, '203.0.113.10');
    expect(presented.status, await presented.clone().text()).toBe(200);
    expect(await presented.json()).toEqual({ known: true });
    // No session from the link alone: only the device cookie.
    expect(presented.headers.getSetCookie().some((c) => c.startsWith('pogs_admin='))).toBe(false);
    const device = deviceOf(presented)!;
    expect(device).toBeDefined();
    const res = await login(TEST_ADMIN_PASSWORD, '203.0.113.10', device);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(adminSessionSchema.parse(await res.json()).authenticated).toBe(true);

    // The link works once: the stranger who copies it afterwards is refused, and gets no cookie.
    const again = await refusal(await present(link, '192.0.2.66'));
    expect(again).toMatchObject({ status: 401, code: ErrorCode.adminLinkRefused, cookies: [] });
    expect(again.message).toContain('used already');
    // Strangers, with the right password even, are still paused.
    expect((await refusal(await login(TEST_ADMIN_PASSWORD, '192.0.2.66'))).status).toBe(429);

    // The audit trail names the browser let in, not the link.
    const session = /pogs_admin=([^;]+)/.exec(res.headers.getSetCookie().join('; '))![1]!;
    const audit = auditPageSchema.parse(await (await h.api('/api/admin/audit', { headers: { cookie: `pogs_admin=${session}` } })).json());
    const entry = audit.entries.find((e) => e.action === 'browser-recognised');
    expect(entry?.target).toMatch(/^device [0-9a-f]{8} at 203\.0\.113\.10$/);
    expect(JSON.stringify(audit)).not.toContain(link);
  });

  it('strangers get nothing: a forged, altered, expired or other password’s link, a malformed body, another site', async () => {
    await engageBrake();
    const now = new Date(h.clock.now);
    const good = makeSignInLink(hash, now);
    const [nonce, expires, mac] = good.split('.') as [string, string, string];
    const otherPassword = makeSignInLink(await hashPassword('another admin password', { N: 1024, r: 8, p: 1 }), now);
    const longer = `${nonce}.${Number(expires) + 3600}.${mac}`;
    const flipped = `${nonce}.${expires}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`;
    for (const link of [otherPassword, longer, flipped, `${randomBytes(16).toString('base64url')}.${expires}.${mac}`, 'x'.repeat(80)]) {
      const answer = await refusal(await present(link, '192.0.2.66'));
      expect(answer, link).toMatchObject({ status: 401, code: ErrorCode.adminLinkRefused, cookies: [] });
      expect(answer.message).toContain('not a sign-in link of this shop');
    }
    for (const body of [{}, { link: 5 }, { link: 'x'.repeat(201) }, { link: good, extra: true }]) {
      const res = await post('/api/admin/login/link', body, '192.0.2.66');
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.headers.getSetCookie()).toEqual([]);
    }
    // From another site, even a good link is refused (and stays unused).
    const crossSite = await present(good, '192.0.2.66', undefined, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers.getSetCookie()).toEqual([]);

    // None of it made any browser known: the pause still holds for the address that tried.
    expect((await login(TEST_ADMIN_PASSWORD, '192.0.2.66')).status).toBe(429);

    // A link past its 15 minutes is refused, and says so.
    h.clock.now += SIGN_IN_LINK_TTL_MS + 1000;
    const expired = await refusal(await present(good, '192.0.2.66'));
    expect(expired).toMatchObject({ status: 401, code: ErrorCode.adminLinkRefused, cookies: [] });
    expect(expired.message).toContain('expired');
  });

  it('a browser that logged in before keeps its device when it presents a link; the record of used links is swept once they expire', async () => {
    const first = await login(TEST_ADMIN_PASSWORD, '198.51.100.20');
    expect(first.status).toBe(200);
    const device = deviceOf(first)!;
    const link = makeSignInLink(hash, new Date(h.clock.now));
    const presented = await present(link, '198.51.100.20', device);
    expect(presented.status).toBe(200);
    expect(deviceOf(presented)!.split('.')[0]).toBe(device.split('.')[0]);

    const used = () =>
      h.database
        .db('admin_sign_in_links_used')
        .where({ nonce: link.split('.')[0] })
        .first('nonce');
    expect(await used()).toBeDefined();
    await h.services.admin.sweep();
    expect(await used()).toBeDefined();
    h.clock.now += SIGN_IN_LINK_TTL_MS + 1000;
    await h.services.admin.sweep();
    expect(await used()).toBeUndefined();
  });
});
