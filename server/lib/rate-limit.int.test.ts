/**
 * Rate limits as a stranger meets them: the real limits (RATE_LIMIT_SCALE=1), over HTTP, on each
 * database, behind one trusted proxy hop (TRUSTED_PROXY_HOPS=1: the last X-Forwarded-For entry is
 * the client, as our proxy wrote it). Each test speaks from its own client IP; the harness clock
 * stands still unless a test moves it, so no window passes by itself.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEV_ACCOUNTS } from '../chain/local-chain';
import { testDatabaseKinds } from '../test/databases';
import { startHarness, type Harness } from '../test/harness';
import { Shopper } from '../test/shopper';
import { useTestChain } from '../test/use-test-chain';
import { toCount } from '../db';
import { bumpCatalogueVersion } from '../modules/catalogue';

const testChain = useTestChain();
const WALLET = DEV_ACCOUNTS[2]!;
const randomHash = () => `0x${randomBytes(32).toString('hex')}`;
/** A forged address the client wrote, then the one our proxy appended. */
const via = (clientIp: string) => ({ 'x-forwarded-for': `${[1, 2, 3, 4].map(() => randomBytes(1)[0]).join('.')}, ${clientIp}` });

describe.each(testDatabaseKinds)('rate limits on %s', (kind) => {
  let h: Harness;
  let variantId: string;

  beforeAll(async () => {
    h = await startHarness(kind, { chain: testChain.chain, env: { RATE_LIMIT_SCALE: '1', TRUSTED_PROXY_HOPS: '1' } });
    await h.catalogue.sync();
    await h.catalogue.seedDemoPrices();
    variantId = (await h.catalogue.list()).products.flatMap((p) => p.variants).find((v) => !v.isSoldOut)!.id;
    await h.database.db('variants').where({ shopify_id: variantId }).update({ available_stock: null, inventory_quantity: null });
    await bumpCatalogueVersion(h.database.db);
  });
  afterAll(async () => {
    await h?.close();
  });

  const rows = async (table: string) => toCount((await h.database.db(table).count({ n: '*' }))[0]?.n);
  /** `n` requests, `batch` at a time; their statuses. */
  async function burst(n: number, send: () => Promise<Response>, batch = 10): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < n; i += batch) {
      const answers = await Promise.all(Array.from({ length: Math.min(batch, n - i) }, () => send()));
      for (const res of answers) {
        statuses.push(res.status);
        await res.body?.cancel();
      }
    }
    return statuses;
  }
  async function expectRefused(res: Response, retryAfter: number) {
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe(String(retryAfter));
    expect(await res.json()).toEqual({ code: 'rate-limited', message: `Too many requests. Try again in ${retryAfter} seconds.` });
  }

  const json = (body: unknown, from: string) => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', ...via(from) },
    body: JSON.stringify(body),
  });

  it('a burst of order requests from one IP: 120 answered, then 429; other IPs and routes go on', async () => {
    const ip = '203.0.113.10';
    const order = (from = ip) => h.api('/api/orders/create', json({ transactionHash: randomHash(), customerWallet: WALLET }, from));
    const statuses = await burst(120, () => order());
    expect(statuses.filter((s) => s === 429 || s >= 500)).toEqual([]);
    await expectRefused(await order(), 60);
    expect(await burst(20, () => order())).toEqual(Array(20).fill(429));

    expect((await order('203.0.113.11')).status).not.toBe(429);
    expect((await h.api('/api/products', { headers: via(ip) })).status).toBe(200);
    expect((await h.api('/api/cart', { headers: via(ip) })).status).toBe(200);
  });

  it("a stranger's session with a checkout spends the RPC quota on random hashes only up to its limit, whatever its IPs", async () => {
    const s = new Shopper(h);
    let n = 0;
    const from = () => `192.0.2.${(n++ % 250) + 1}`;
    expect((await s.request('/api/cart/add', json({ variantId, quantity: 1 }, from()))).status).toBe(200);
    expect((await s.request('/api/checkout', json({ customerWallet: WALLET }, from()))).status).toBe(201);
    const order = () => s.request('/api/orders/create', json({ transactionHash: randomHash(), customerWallet: WALLET }, from()));

    const rpc = vi.spyOn(h.payments!.chain.provider, 'send');
    try {
      const statuses = await burst(60, order);
      expect(statuses.filter((status) => status === 429 || status >= 500)).toEqual([]);
      const spent = rpc.mock.calls.length;
      expect(spent).toBeGreaterThanOrEqual(2 * 60); // a receipt and more for each answered hash

      await expectRefused(await order(), 60);
      expect(await burst(20, order)).toEqual(Array(20).fill(429));
      expect(rpc.mock.calls.length).toBe(spent);
    } finally {
      rpc.mockRestore();
    }
  });

  it('a refused GET /api/auth/nonce sets no cookie and writes no session or nonce, and a forged X-Forwarded-For does not escape', async () => {
    const ip = '198.51.100.20';
    const nonce = () => h.api(`/api/auth/nonce?address=${WALLET}`, { headers: via(ip) });
    // Each is a newcomer: a new session and a nonce each, all counted against the proxy's entry.
    expect(await burst(30, nonce)).toEqual(Array(30).fill(200));
    const [sessions, nonces] = [await rows('sessions'), await rows('siwe_nonces')];

    const refused = await nonce();
    expect(refused.headers.getSetCookie()).toEqual([]);
    await expectRefused(refused, 60);
    expect([await rows('sessions'), await rows('siwe_nonces')]).toEqual([sessions, nonces]);
  });

  it('a refused POST /api/cart/add sets no cookie and writes no session, however the path is spelled', async () => {
    const ip = '198.51.100.30';
    const add = (path = '/api/cart/add') => h.api(path, json({ variantId, quantity: 1 }, ip));
    expect(await burst(120, () => add())).toEqual(Array(120).fill(200));
    const sessions = await rows('sessions');

    for (const path of ['/api/cart/add', '/api/Cart/ADD', '/api/cart/add/']) {
      const refused = await add(path);
      expect(refused.headers.getSetCookie()).toEqual([]);
      await expectRefused(refused, 60);
    }
    expect(await rows('sessions')).toBe(sessions);
  });

  it('one session opens at most 10 checkouts a minute, whichever IPs it comes from; other shoppers go on', async () => {
    const s = new Shopper(h);
    expect((await s.request('/api/cart/add', json({ variantId, quantity: 1 }, '198.51.100.40'))).status).toBe(200);
    const checkout = (shopper: Shopper, n: number) =>
      shopper.request('/api/checkout', json({ customerWallet: null }, `198.51.100.${40 + n}`));
    for (let n = 1; n <= 10; n++) expect((await checkout(s, n)).status).toBe(201);
    await expectRefused(await checkout(s, 11), 60);

    const other = new Shopper(h);
    expect((await other.request('/api/cart/add', json({ variantId, quantity: 1 }, '198.51.100.51'))).status).toBe(200);
    expect((await checkout(other, 11)).status).toBe(201);
  });

  it('counts concurrent requests exactly', async () => {
    const ip = '203.0.113.40';
    const hint = () => h.api(`/api/checkout/${randomUUID()}/transaction`, json({ transactionHash: randomHash() }, ip));
    const statuses = await burst(80, hint, 80);
    expect(statuses.filter((s) => s !== 429)).toHaveLength(60);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
  });

  it('lets requests through again when the window has passed', async () => {
    const ip = '203.0.113.50';
    const verify = () => h.api('/api/auth/verify', json({}, ip));
    expect(await burst(30, verify)).toEqual(Array(30).fill(400));
    await expectRefused(await verify(), 60);
    h.clock.now += 45_000;
    await expectRefused(await verify(), 15);
    h.clock.now += 15_000;
    expect((await verify()).status).toBe(400);
    // Finished windows are swept; the current one stays.
    h.clock.now += 60_000;
    expect(await h.rateLimiter.sweep()).toBeGreaterThan(0);
    expect(await h.database.db('rate_limits').where('resets_at', '<=', new Date(h.clock.now)).first()).toBeUndefined();
  });

  it('lets requests through when the counters cannot be written: never a 500 of its own', async () => {
    const db = h.database.db;
    await db.raw('alter table rate_limits rename to rate_limits_away');
    try {
      expect((await h.api('/api/auth/verify', json({}, '203.0.113.70'))).status).toBe(400);
    } finally {
      await db.raw('alter table rate_limits_away rename to rate_limits');
    }
  });

  it.runIf(kind === 'postgres')('is shared by two server instances on one database', async () => {
    const other = await h.startAnotherInstance();
    const ip = '203.0.113.60';
    const add = (api: Harness['api']) => api('/api/cart/add', json({}, ip));
    let turn = 0;
    const statuses = await burst(120, () => add(turn++ % 2 ? other.api : h.api));
    expect(statuses).toEqual(Array(120).fill(400));
    await expectRefused(await add(h.api), 60);
    await expectRefused(await add(other.api), 60);
  });
});
