/**
 * The admin login's password checks are bounded, on each database, at the production rate limits,
 * behind one trusted proxy hop (each test's clients by X-Forwarded-For). Each check is a costly
 * scrypt: at most two run at once in a process, the others wait in their turn, fairly by source,
 * and what cannot wait is answered at once (429 for one source's surplus, 503 when the server is
 * full) with Retry-After. A stranger's flood, from one address or many, does not keep the admin
 * out; a locked-out or rate-limited source is answered without a check.
 *
 * The checks are counted through the service's `verify` dependency wrapped around the real scrypt
 * check; wrong passwords can be held there, so that the gate is seen full, then let go.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../common/errors';
import { verifyPassword } from '../../lib/password-hash';
import { testDatabaseKinds } from '../../test/databases';
import { startHarness, TEST_ADMIN_PASSWORD, type Harness } from '../../test/harness';

const WRONG = 'not the password at all';

/** The real check, counted; wrong passwords wait for `held` (when set) before it. */
const checks = { running: 0, max: 0, total: 0, held: null as Promise<void> | null };
async function countedVerify(password: string, hashLine: string): Promise<boolean> {
  checks.total++;
  checks.running++;
  checks.max = Math.max(checks.max, checks.running);
  try {
    if (password !== TEST_ADMIN_PASSWORD && checks.held) await checks.held;
    return await verifyPassword(password, hashLine);
  } finally {
    checks.running--;
  }
}
/** Holds every wrong password's check until the returned function is called. */
function holdWrongPasswords(): () => void {
  let release!: () => void;
  checks.held = new Promise((resolve) => (release = resolve));
  return () => {
    checks.held = null;
    release();
  };
}

async function waitFor(what: string, condition: () => boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`still waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.each(testDatabaseKinds)('bounded admin password checks on %s', (kind) => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness(kind, { env: { TRUSTED_PROXY_HOPS: '1', RATE_LIMIT_SCALE: '1' }, verifyAdminPassword: countedVerify });
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(async () => {
    await h.database.db('admin_login_counters').delete();
    h.clock.now += 3_600_000; // a new rate-limit window for everyone
    Object.assign(checks, { running: 0, max: 0, total: 0, held: null });
  });

  const login = (password: string, ip: string, device?: string) =>
    h.api('/api/admin/login', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': ip,
        ...(device ? { cookie: `pogs_admin_device=${device}` } : {}),
      },
      body: JSON.stringify({ password }),
    });
  /** Sends them all at once; `answered` lists each as it is answered (its index, status and body). */
  const flood = (attempts: Array<() => Promise<Response>>) => {
    const answered: Array<{ i: number; status: number; body: { code: string; message: string }; retryAfter: string | null }> = [];
    const all = attempts.map(async (send, i) => {
      const res = await send();
      answered.push({ i, status: res.status, body: await res.json(), retryAfter: res.headers.get('retry-after') });
    });
    return { answered, all: Promise.all(all) };
  };
  const deviceOf = (res: Response) => /pogs_admin_device=([^;]+)/.exec(res.headers.getSetCookie().join('\n'))![1]!;

  it('runs at most two checks at once; the others wait their turn and are answered', async () => {
    const release = holdWrongPasswords();
    const f = flood(Array.from({ length: 8 }, (_, i) => () => login(WRONG, `192.0.2.${10 + i}`)));
    await waitFor('two checks running', () => checks.running === 2);
    await new Promise((r) => setTimeout(r, 300));
    expect(checks.total).toBe(2);
    expect(f.answered).toEqual([]);
    release();
    await f.all;
    expect(f.answered.map((a) => a.body.code)).toEqual(Array(8).fill(ErrorCode.adminInvalidPassword));
    expect(checks).toMatchObject({ total: 8, max: 2 });
  });

  it('one stranger flooding takes one check at a time; the admin at another address gets in meanwhile', async () => {
    const release = holdWrongPasswords();
    const f = flood(Array.from({ length: 12 }, () => () => login(WRONG, '203.0.113.7')));
    // 10 a minute pass the rate limit; of those one is checked and two wait: the rest are answered at once.
    await waitFor('the surplus answered', () => f.answered.length === 9);
    for (const a of f.answered) {
      expect(a.status).toBe(429);
      expect(Number(a.retryAfter)).toBeGreaterThan(0);
    }
    const busy = f.answered.filter((a) => a.body.code === ErrorCode.adminLoginInProgress);
    expect(busy).toHaveLength(7);
    expect(busy[0]!.body.message).toBe('A login from this address is already being checked. Wait for its answer. Try again in 5 seconds.');
    expect(f.answered.filter((a) => a.body.code === ErrorCode.rateLimited)).toHaveLength(2);
    expect(checks.running).toBe(1);

    // The stranger's check is still held: the admin does not wait for it.
    const admin = await Promise.race([
      login(TEST_ADMIN_PASSWORD, '198.51.100.9'),
      new Promise<null>((r) => setTimeout(() => r(null), 5_000)),
    ]);
    expect(admin?.status).toBe(200);
    expect(checks.running).toBe(1);
    release();
    await f.all;
    expect(f.answered.slice(9).map((a) => a.body.code)).toEqual(Array(3).fill(ErrorCode.adminInvalidPassword));
    expect(checks.max).toBe(2);
  });

  it('many strangers fill the waiting room: the rest get 503 at once; the admin’s known browser is checked first', async () => {
    const device = deviceOf(await login(TEST_ADMIN_PASSWORD, '198.51.100.20'));
    const release = holdWrongPasswords();
    const f = flood(Array.from({ length: 24 }, (_, i) => () => login(WRONG, `10.9.${i}.1`)));
    // Two checked, sixteen waiting: six answered at once.
    await waitFor('the surplus answered', () => f.answered.length === 6);
    for (const a of f.answered) {
      expect(a).toMatchObject({ status: 503, retryAfter: '5' });
      expect(a.body).toEqual({
        code: ErrorCode.adminLoginBusy,
        message: 'The server is checking too many logins at once. Try again in 5 seconds.',
      });
    }
    await new Promise((r) => setTimeout(r, 200));
    expect(f.answered).toHaveLength(6);
    // The admin's browser (it logged in before), from yet another address, waits in a lane of its own.
    const order: string[] = [];
    const admin = login(TEST_ADMIN_PASSWORD, '192.0.2.200', device).then((res) => (order.push('admin'), res));
    await new Promise((r) => setTimeout(r, 200));
    void f.all.then(() => order.push('every stranger'));
    const before = f.answered.length;
    release();
    expect((await admin).status).toBe(200);
    // Next after the two checks that were running (and at most one stranger's beside it).
    expect(f.answered.length - before).toBeLessThanOrEqual(3);
    await f.all;
    expect(order).toEqual(['admin', 'every stranger']);
    expect(f.answered.filter((a) => a.status === 401)).toHaveLength(18);
    expect(checks.max).toBe(2);
  });

  it('answers a locked-out source and one over its rate limit without a check', async () => {
    for (let i = 0; i < 4; i++) expect((await login(WRONG, '203.0.113.30')).status).toBe(401);
    // Its fifth wrong password locks it while two more attempts wait behind it: those are refused unchecked.
    const release = holdWrongPasswords();
    const f = flood([
      () => login(WRONG, '203.0.113.30'),
      () => login(WRONG, '203.0.113.30'),
      () => login(TEST_ADMIN_PASSWORD, '203.0.113.30'),
    ]);
    await waitFor('one check running', () => checks.running === 1);
    await new Promise((r) => setTimeout(r, 200));
    release();
    await f.all;
    expect(f.answered.map((a) => a.body.code)).toEqual(Array(3).fill(ErrorCode.adminLocked));
    expect(checks.total).toBe(5);
    // Locked: the right password is answered 429 without a check.
    const locked = await login(TEST_ADMIN_PASSWORD, '203.0.113.30');
    expect(locked.status).toBe(429);
    expect(((await locked.json()) as { code: string }).code).toBe(ErrorCode.adminLocked);
    expect(checks.total).toBe(5);

    // Ten a minute from one address; the eleventh is refused before anything else.
    for (let i = 0; i < 10; i++) expect((await login(TEST_ADMIN_PASSWORD, '203.0.113.31')).status).toBe(200);
    expect(checks.total).toBe(15);
    const limited = await login(TEST_ADMIN_PASSWORD, '203.0.113.31');
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as { code: string }).code).toBe(ErrorCode.rateLimited);
    expect(checks.total).toBe(15);
  });
});
