import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ADMIN_LOCKOUT_MS,
  ADMIN_SESSION_TTL_MS,
  adminLoginDelayMs,
  adminSessionSchema,
  auditPageSchema,
  inventorySchema,
  inventoryWriteResultSchema,
  type AuditEntry,
  type InventoryItem,
} from '../../../common/admin';
import type { Product } from '../../../common/api';
import { syncStartSchema, syncStatusSchema } from '../../../common/api';
import { ErrorCode } from '../../../common/errors';
import { verifyPassword } from '../../lib/password-hash';
import { startHarness, TEST_ADMIN_PASSWORD, type Harness } from '../../test/harness';
import { testDatabaseKinds } from '../../test/databases';
import { loadLocalAdminPassword } from './local-password';

interface Call {
  method?: string;
  body?: unknown;
  cookie?: string;
  headers?: Record<string, string>;
}

describe.each(testDatabaseKinds)('admin area on %s', (kind) => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness(kind);
    await h.catalogue.sync();
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(async () => {
    await h.database.db('admin_login_counters').delete();
    h.adminDelays.length = 0;
  });

  const call = (p: string, c: Call = {}, api = h.api) =>
    api(p, {
      method: c.method ?? 'GET',
      headers: {
        ...(c.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(c.cookie ? { cookie: c.cookie } : {}),
        ...c.headers,
      },
      body: c.body === undefined ? undefined : JSON.stringify(c.body),
    });
  const login = (password = TEST_ADMIN_PASSWORD, api = h.api, headers: Record<string, string> = {}) =>
    call('/api/admin/login', { method: 'POST', body: { password }, headers }, api);
  const cookieOf = (res: Response) => {
    const header = res.headers.get('set-cookie') ?? '';
    const m = /pogs_admin=([^;]+)/.exec(header);
    expect(m, header).not.toBeNull();
    return `pogs_admin=${m![1]}`;
  };
  const signIn = async () => {
    const res = await login();
    expect(res.status).toBe(200);
    return cookieOf(res);
  };
  const inventory = async (cookie: string): Promise<InventoryItem[]> => {
    const res = await call('/api/inventory', { cookie });
    expect(res.status).toBe(200);
    return inventorySchema.parse(await res.json());
  };
  const audit = async (cookie: string, limit = 200): Promise<AuditEntry[]> => {
    const res = await call(`/api/admin/audit?limit=${limit}`, { cookie });
    expect(res.status).toBe(200);
    return auditPageSchema.parse(await res.json()).entries;
  };
  const listed = async (): Promise<Product[]> => (await (await h.api('/api/products')).json()) as Product[];
  /** Everything an admin route could change. */
  const snapshot = async () => ({
    variants: await h.database
      .db('variants')
      .orderBy('id')
      .select('shopify_id', 'pog_price', 'is_active', 'available_stock', 'is_sold_out'),
    products: await h.database.db('products').orderBy('id').select('shopify_id', 'custom_title'),
    audit: (await h.database.db('admin_audit_log').select('id')).length,
    lastSync: await h.catalogue.lastSync(),
    catalogueVersion: await h.database.db('app_state').where({ key: 'catalogue_version' }).first('value'),
  });
  const firstVariant = async () => {
    const row = await h.database
      .db('variants as v')
      .join('products as p', 'p.id', 'v.product_id')
      .where('p.shopify_status', 'ACTIVE')
      .whereNull('v.removed_at')
      .whereNull('p.removed_at')
      .orderBy('v.id')
      .first('v.shopify_id as id', 'p.shopify_id as productId', 'p.title');
    return row as { id: string; productId: string; title: string };
  };
  const guardedRoutes = async (): Promise<Array<[string, string, unknown?]>> => {
    const v = await firstVariant();
    const t = encodeURIComponent(v.title);
    return [
      ['GET', '/api/inventory'],
      ['POST', '/api/inventory/sync'],
      ['GET', '/api/inventory/sync'],
      ['PATCH', `/api/inventory/${v.id}/update`, { pogPrice: '99', isActive: true }],
      ['PUT', `/api/products/${t}/custom-title`, { customTitle: 'Hijacked' }],
      ['DELETE', `/api/products/${t}/custom-title`],
      ['GET', '/api/admin/audit'],
      ['GET', '/api/admin/paymaster'],
    ];
  };

  it('logs in with the right password: an httpOnly, SameSite=Strict cookie for /api, 4 hours, and the session says so', async () => {
    const res = await login();
    expect(res.status).toBe(200);
    const session = adminSessionSchema.parse(await res.json());
    expect(session).toEqual({ authenticated: true, expiresAt: new Date(h.clock.now + ADMIN_SESSION_TTL_MS).toISOString() });
    const setCookie = res.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/pogs_admin=[A-Za-z0-9_-]{43};/);
    expect(setCookie).toMatch(/; path=\/api(;|$)/);
    expect(setCookie).toMatch(/; samesite=strict/);
    expect(setCookie).toMatch(/; httponly/);
    // Koa writes the cookie's 4 hours as Expires (from the wall clock).
    const expires = Date.parse(/; expires=([^;]+)/.exec(setCookie)![1]!);
    expect(Math.abs(expires - (Date.now() + ADMIN_SESSION_TTL_MS))).toBeLessThan(60_000);
    expect(setCookie).not.toMatch(/; secure/); // not production
    expect(res.headers.get('cache-control')).toBe('no-store');

    const again = await call('/api/admin/session', { cookie: cookieOf(res) });
    expect(await again.json()).toEqual(session);
    const none = await call('/api/admin/session');
    expect(none.status).toBe(200);
    expect(await none.json()).toEqual({ authenticated: false, expiresAt: null });
  });

  it('refuses every admin route without a live admin session, and changes nothing', async () => {
    const routes = await guardedRoutes();
    // A shopper's own session cookie is no admin session, under either name.
    const { token: shopperToken } = await h.sessions.create();

    const expired = await signIn();
    const ended = await signIn();
    expect((await call('/api/admin/logout', { method: 'POST', cookie: ended })).status).toBe(200);
    const before = await snapshot();
    h.clock.now += ADMIN_SESSION_TTL_MS; // `expired` is now exactly 4 hours old
    try {
      const cookies: Array<[string, string | undefined]> = [
        ['none', undefined],
        ['garbage', 'pogs_admin=not-a-token'],
        ['a made-up token', `pogs_admin=${'A'.repeat(43)}`],
        ["a shopper's session", `pogs_session=${shopperToken}; pogs_admin=${shopperToken}`],
        ['expired', expired],
        ['logged out', ended],
      ];
      for (const [what, cookie] of cookies) {
        for (const [method, p, body] of routes) {
          const res = await call(p, { method, body, cookie });
          expect(res.status, `${what}: ${method} ${p}`).toBe(401);
          expect((await res.json()).code).toBe(ErrorCode.adminSessionRequired);
        }
        const session = await call('/api/admin/session', { cookie });
        expect(await session.json(), what).toEqual({ authenticated: false, expiresAt: null });
      }
      expect(await snapshot()).toEqual(before);
    } finally {
      h.clock.now -= ADMIN_SESSION_TTL_MS;
    }
  });

  it('ends the session in the database at logout: the cookie is worth nothing afterwards', async () => {
    const cookie = await signIn();
    expect((await call('/api/inventory', { cookie })).status).toBe(200);
    const out = await call('/api/admin/logout', { method: 'POST', cookie });
    expect(out.status).toBe(200);
    expect(await out.json()).toEqual({ authenticated: false, expiresAt: null });
    expect(out.headers.get('set-cookie')).toMatch(/pogs_admin=;.*expires=Thu, 01 Jan 1970/);
    expect((await call('/api/inventory', { cookie })).status).toBe(401);
    const [entry] = await audit(await signIn(), 2).then((e) => e.filter((x) => x.action === 'logout'));
    expect(entry).toMatchObject({ action: 'logout', session: expect.stringMatching(/^[0-9a-f]{8}$/) });
    // Logging out again (or without a session) is harmless.
    expect((await call('/api/admin/logout', { method: 'POST', cookie })).status).toBe(200);
  });

  it('refuses cross-site requests, even with a live session, and changes nothing', async () => {
    const cookie = await signIn();
    const routes = await guardedRoutes();
    const before = await snapshot();
    h.adminDelays.length = 0;
    const foreign: Array<Record<string, string>> = [
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'null' },
      { origin: h.baseUrl, 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of foreign) {
      for (const [method, p, body] of routes) {
        const res = await call(p, { method, body, cookie, headers });
        expect(res.status, `${JSON.stringify(headers)} ${method} ${p}`).toBe(403);
        expect((await res.json()).code).toBe(ErrorCode.crossSiteRequest);
      }
      // No login attempt is counted, no session made, and a cross-site logout ends nothing.
      const wrong = await login('not the password', h.api, headers);
      expect(wrong.status).toBe(403);
      const right = await login(TEST_ADMIN_PASSWORD, h.api, headers);
      expect(right.status).toBe(403);
      expect(right.headers.get('set-cookie')).toBeNull();
      expect((await call('/api/admin/logout', { method: 'POST', cookie, headers })).status).toBe(403);
    }
    expect(await snapshot()).toEqual(before);
    expect(h.adminDelays).toEqual([]);
    expect((await call('/api/inventory', { cookie })).status).toBe(200);
    // The shop's own pages: same origin, or typed in.
    for (const headers of [{ origin: h.baseUrl, 'sec-fetch-site': 'same-origin' }, { 'sec-fetch-site': 'none' }] as Array<
      Record<string, string>
    >) {
      expect((await call('/api/inventory', { cookie, headers })).status).toBe(200);
    }
  });

  it('waits 1 s more per failure, locks after the 5th for 15 minutes, then counts again; a success resets', async () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(adminLoginDelayMs)).toEqual([1000, 2000, 3000, 4000, 5000, 5000, 5000]);
    for (const remaining of [4, 3, 2, 1]) {
      const res = await login('wrong password');
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: ErrorCode.adminInvalidPassword, attemptsRemaining: remaining });
      expect(res.headers.get('set-cookie')).toBeNull();
    }
    const fifth = await login('wrong password');
    const lockedUntil = new Date(h.clock.now + ADMIN_LOCKOUT_MS).toISOString();
    expect(fifth.status).toBe(429);
    expect(await fifth.json()).toMatchObject({ code: ErrorCode.adminLocked, lockedUntil });
    expect(fifth.headers.get('retry-after')).toBe('900');
    // The server waited before each answer: 1 s plus 1 s per earlier failure.
    expect(h.adminDelays).toEqual([1000, 2000, 3000, 4000, 5000]);

    // Locked: even the right password is refused, at once (no delay, nothing verified).
    h.clock.now += ADMIN_LOCKOUT_MS - 60_000;
    const locked = await login();
    expect(locked.status).toBe(429);
    expect(await locked.json()).toMatchObject({ code: ErrorCode.adminLocked, lockedUntil });
    expect(locked.headers.get('retry-after')).toBe('60');
    expect(h.adminDelays).toHaveLength(5);

    // The lock ends: the count starts again.
    h.clock.now += 60_000;
    const afterLock = await login('wrong password');
    expect(await afterLock.json()).toMatchObject({ attemptsRemaining: 4 });
    expect(h.adminDelays.at(-1)).toBe(1000);
    expect((await login('wrong password')).status).toBe(401);
    expect(h.adminDelays.at(-1)).toBe(2000);
    // A success resets it.
    const cookie = await signIn();
    expect(h.adminDelays.at(-1)).toBe(3000);
    expect(await (await login('wrong password')).json()).toMatchObject({ attemptsRemaining: 4 });

    const entries = await audit(cookie, 12);
    const logins = entries.filter((e) => e.action.startsWith('login-')).slice(0, 10);
    expect(logins.map((e) => e.action)).toEqual([
      'login-failed',
      'login-succeeded',
      'login-failed',
      'login-failed',
      'login-locked',
      'login-failed',
      'login-failed',
      'login-failed',
      'login-failed',
      'login-failed',
    ]);
    expect(logins[0]).toMatchObject({ session: null, changes: [{ field: 'failedAttempts', from: 0, to: 1 }] });
    expect(logins[1]).toMatchObject({
      session: expect.stringMatching(/^[0-9a-f]{8}$/),
      changes: [{ field: 'failedAttempts', from: 2, to: 0 }],
    });
    expect(logins[3]).toMatchObject({ changes: [{ field: 'failedAttempts', from: 0, to: 1 }] });
    expect(logins[4]).toMatchObject({ changes: [{ field: 'lockedUntil', from: null, to: lockedUntil }] });
    expect(logins[5]).toMatchObject({ changes: [{ field: 'failedAttempts', from: 4, to: 5 }] });
  });

  it('answers 400 for a login body that is not a password', async () => {
    for (const body of [{}, { password: '' }, { password: 7 }, { password: 'x', extra: 1 }]) {
      const res = await call('/api/admin/login', { method: 'POST', body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(h.adminDelays).toEqual([]);
  });

  it('lists every variant still in Shopify with its product’s fields', async () => {
    const cookie = await signIn();
    const items = await inventory(cookie);
    const [{ n }] = await h.database
      .db('variants as v')
      .join('products as p', 'p.id', 'v.product_id')
      .whereNull('v.removed_at')
      .whereNull('p.removed_at')
      .count({ n: '*' });
    expect(items).toHaveLength(Number(n));
    expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
    const withImages = items.find((i) => i.shopifyData.images.length > 0);
    expect(withImages, 'the demo catalogue has images').toBeDefined();
    for (const i of items) {
      expect(i.externalId).toBe(`gid://shopify/ProductVariant/${i.id}`);
      expect(i.title).toBe(
        i.variantTitle === 'Default Title' ? (i.customTitle ?? i.originalTitle) : `${i.customTitle ?? i.originalTitle} - ${i.variantTitle}`,
      );
      expect(i.lastSyncedAt).not.toBeNull();
    }
  });

  it('updates a variant’s price, active flag, stock and sold-out flag; the shop’s list shows it at once', async () => {
    const cookie = await signIn();
    const v = await firstVariant();
    const patch = (body: unknown) => call(`/api/inventory/${v.id}/update`, { method: 'PATCH', body, cookie });

    const res = await patch({ pogPrice: '12.5', isActive: true, availableStock: 7 });
    expect(res.status).toBe(200);
    const result = inventoryWriteResultSchema.parse(await res.json());
    expect(result.message).toBe('Product updated successfully');
    expect(result.items).toEqual([
      expect.objectContaining({ id: v.id, pogPrice: '12.50', isActive: true, availableStock: 7, forSale: true }),
    ]);
    const shown = (await listed()).find((p) => p.id === v.productId)?.variants.find((x) => x.id === v.id);
    expect(shown).toMatchObject({ price: '12.50', availableStock: 7, isSoldOut: false });

    expect((await patch({ pogPrice: 30 })).status).toBe(200);
    expect((await listed()).find((p) => p.id === v.productId)?.variants.find((x) => x.id === v.id)?.price).toBe('30.00');
    expect((await patch({ isSoldOut: true })).status).toBe(200);
    expect((await listed()).find((p) => p.id === v.productId)?.variants.find((x) => x.id === v.id)?.isSoldOut).toBe(true);
    expect((await patch({ isActive: false, isSoldOut: false })).status).toBe(200);
    expect((await listed()).flatMap((p) => p.variants).some((x) => x.id === v.id)).toBe(false);
    expect((await patch({ pogPrice: null, availableStock: null })).status).toBe(200);

    const entries = (await audit(cookie, 5)).filter((e) => e.action === 'inventory-updated');
    expect(entries.slice(0, 5).map((e) => e.changes)).toEqual([
      [
        { field: 'pogPrice', from: '30.00', to: null },
        { field: 'availableStock', from: 7, to: null },
      ],
      [
        { field: 'isActive', from: true, to: false },
        { field: 'isSoldOut', from: true, to: false },
      ],
      [{ field: 'isSoldOut', from: false, to: true }],
      [{ field: 'pogPrice', from: '12.50', to: '30.00' }],
      [
        { field: 'pogPrice', from: null, to: '12.50' },
        { field: 'isActive', from: false, to: true },
        { field: 'availableStock', from: null, to: 7 },
      ],
    ]);
    for (const e of entries) expect(e).toMatchObject({ target: v.id, session: expect.stringMatching(/^[0-9a-f]{8}$/) });
  });

  it('refuses bad field values with 400 saying what to send, and changes nothing', async () => {
    const cookie = await signIn();
    const v = await firstVariant();
    const before = await snapshot();
    const bad: Array<[unknown, RegExp]> = [
      [{ pogPrice: -1 }, /pogPrice must be a number of POG, 0 or more/],
      [{ pogPrice: '1.234' }, /at most 2 decimals/],
      [{ pogPrice: 'twelve' }, /pogPrice/],
      [{ pogPrice: '1e3' }, /pogPrice/],
      [{ pogPrice: true }, /pogPrice/],
      [{ isActive: 'yes' }, /isActive must be true or false/],
      [{ availableStock: 1.5 }, /availableStock must be a whole number/],
      [{ availableStock: -1 }, /availableStock must be 0 or more/],
      [{ isSoldOut: 1 }, /isSoldOut must be true or false/],
      [{}, /send at least one of pogPrice, isActive, availableStock, isSoldOut/],
      [{ pogPrice: '1', price: '1' }, /price/],
      [[], /expected object/i],
    ];
    for (const [body, message] of bad) {
      const res = await call(`/api/inventory/${v.id}/update`, { method: 'PATCH', body, cookie });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json()).message).toMatch(message);
    }
    const text = await h.api(`/api/inventory/${v.id}/update`, { method: 'PATCH', body: 'pogPrice=1', headers: { cookie } });
    expect(text.status).toBe(415);
    for (const id of ['999999999999', 'abc', '1%20OR%201=1']) {
      const res = await call(`/api/inventory/${id}/update`, { method: 'PATCH', body: { isActive: true }, cookie });
      expect(res.status, id).toBe(404);
      expect((await res.json()).code).toBe(ErrorCode.inventoryItemNotFound);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('sets and clears a custom title by the Shopify title (URL-encoded); shoppers see it at once', async () => {
    const cookie = await signIn();
    const v = await firstVariant();
    await call(`/api/inventory/${v.id}/update`, { method: 'PATCH', body: { pogPrice: '5', isActive: true }, cookie });
    const path = `/api/products/${encodeURIComponent(v.title)}/custom-title`;

    const set = await call(path, { method: 'PUT', body: { customTitle: '  Slammer / Édition №1  ' }, cookie });
    expect(set.status).toBe(200);
    const result = inventoryWriteResultSchema.parse(await set.json());
    expect(result.items.length).toBeGreaterThan(0);
    for (const i of result.items)
      expect(i).toMatchObject({ productId: v.productId, originalTitle: v.title, customTitle: 'Slammer / Édition №1' });
    expect((await listed()).find((p) => p.id === v.productId)?.title).toBe('Slammer / Édition №1');

    for (const [body, status] of [
      [{ customTitle: '   ' }, 400],
      [{ customTitle: 'x'.repeat(201) }, 400],
      [{ title: 'x' }, 400],
    ] as const) {
      expect((await call(path, { method: 'PUT', body, cookie })).status, JSON.stringify(body)).toBe(status);
    }
    const missing = await call(`/api/products/${encodeURIComponent('No Such Product / at all')}/custom-title`, {
      method: 'PUT',
      body: { customTitle: 'x' },
      cookie,
    });
    expect(missing.status).toBe(404);
    expect((await missing.json()).code).toBe(ErrorCode.productNotFound);

    const cleared = await call(path, { method: 'DELETE', cookie });
    expect(cleared.status).toBe(200);
    expect(inventoryWriteResultSchema.parse(await cleared.json()).items.every((i) => i.customTitle === null)).toBe(true);
    expect((await listed()).find((p) => p.id === v.productId)?.title).toBe(v.title);

    const entries = await audit(cookie, 3);
    expect(entries[0]).toMatchObject({
      action: 'custom-title-cleared',
      target: v.title,
      changes: [{ field: 'customTitle', from: 'Slammer / Édition №1', to: null }],
    });
    expect(entries[1]).toMatchObject({
      action: 'custom-title-set',
      target: v.title,
      changes: [{ field: 'customTitle', from: null, to: 'Slammer / Édition №1' }],
    });
  });

  it('keeps the custom title and every admin field through a re-sync, started by the admin', async () => {
    const cookie = await signIn();
    const v = await firstVariant();
    await call(`/api/inventory/${v.id}/update`, {
      method: 'PATCH',
      body: { pogPrice: '42.42', isActive: true, availableStock: 3, isSoldOut: true },
      cookie,
    });
    await call(`/api/products/${encodeURIComponent(v.title)}/custom-title`, { method: 'PUT', body: { customTitle: 'Kept Title' }, cookie });
    const before = (await inventory(cookie)).find((i) => i.id === v.id)!;

    const res = await call('/api/inventory/sync', { method: 'POST', cookie });
    expect(res.status).toBe(202);
    let { job } = syncStartSchema.parse(await res.json());
    while (job.status === 'running') {
      await new Promise((r) => setTimeout(r, 20));
      job = syncStatusSchema.parse(await (await call('/api/inventory/sync', { cookie })).json()).job!;
    }
    expect(job).toMatchObject({ status: 'succeeded', trigger: 'admin', error: null });
    const result = job.result!;
    const after = (await inventory(cookie)).find((i) => i.id === v.id)!;
    expect(after).toMatchObject({
      pogPrice: '42.42',
      isActive: true,
      availableStock: 3,
      isSoldOut: true,
      customTitle: 'Kept Title',
      title: before.title,
    });
    expect((await listed()).find((p) => p.id === v.productId)?.title).toBe('Kept Title');

    const [entry] = await audit(cookie, 1);
    expect(entry).toMatchObject({
      action: 'inventory-synced',
      target: null,
      changes: [
        { field: 'products', to: result.products },
        { field: 'variants', to: result.variants },
        { field: 'deactivated', to: result.deactivated },
      ],
    });
    await call(`/api/products/${encodeURIComponent(v.title)}/custom-title`, { method: 'DELETE', cookie });
  });

  it('lists the audit trail newest first, 50 by default, at most 200', async () => {
    const cookie = await signIn();
    for (let i = 0; i < 3; i++) await login('wrong password');
    await h.database.db('admin_login_counters').delete();
    const all = await audit(cookie, 200);
    expect(all.length).toBeGreaterThan(3);
    const ids = all.map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const page = await call('/api/admin/audit', { cookie });
    expect(auditPageSchema.parse(await page.json()).entries).toHaveLength(Math.min(50, all.length));
    expect((await audit(cookie, 2)).map((e) => e.id)).toEqual(all.slice(0, 2).map((e) => e.id));
    for (const limit of ['0', '201', 'abc', '-1', '1.5']) {
      expect((await call(`/api/admin/audit?limit=${limit}`, { cookie })).status, limit).toBe(400);
    }
  });

  it('sweeps expired and ended admin sessions', async () => {
    const ended = await signIn();
    await call('/api/admin/logout', { method: 'POST', cookie: ended });
    await signIn();
    h.clock.now += ADMIN_SESSION_TTL_MS;
    try {
      const live = await signIn();
      const swept = await h.services.admin.sweep();
      expect(swept).toBeGreaterThanOrEqual(2);
      const [{ n }] = await h.database.db('admin_sessions').count({ n: '*' });
      expect(Number(n)).toBe(1);
      expect((await call('/api/inventory', { cookie: live })).status).toBe(200);
    } finally {
      h.clock.now -= ADMIN_SESSION_TTL_MS;
    }
  });

  it.runIf(kind === 'postgres')('shares the lock between two server instances, even under concurrent attempts', async () => {
    const other = await h.startAnotherInstance();
    // Alternating instances: one count.
    for (const [i, api] of [h.api, other.api, h.api, other.api].entries()) {
      expect(await (await login('wrong password', api)).json()).toMatchObject({ attemptsRemaining: 4 - i });
    }
    const fifth = await login('wrong password', other.api);
    expect(fifth.status).toBe(429);
    const right = await login(TEST_ADMIN_PASSWORD, h.api);
    expect(right.status).toBe(429);
    expect(right.headers.get('set-cookie')).toBeNull();
    h.clock.now += ADMIN_LOCKOUT_MS;
    expect((await login(TEST_ADMIN_PASSWORD, h.api)).status).toBe(200);

    // Eight wrong attempts at once, on both instances: each is judged under the row lock, so
    // exactly five are counted, the fifth locks, and the rest are refused as locked.
    const auditBefore = Number((await h.database.db('admin_audit_log').max({ id: 'id' }))[0]!.id);
    const attempts = await Promise.all(Array.from({ length: 8 }, (_, i) => login('wrong password', i % 2 ? other.api : h.api)));
    const statuses = attempts.map((r) => r.status).sort();
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429, 429, 429]);
    const remaining = await Promise.all(attempts.filter((r) => r.status === 401).map(async (r) => (await r.json()).attemptsRemaining));
    expect(remaining.sort()).toEqual([1, 2, 3, 4]);
    const state = await h.database.db('admin_login_counters').where({ key: 'ip:127.0.0.1' }).first('failures', 'locked_until');
    expect(state.failures).toBe(5);
    expect(state.locked_until).not.toBeNull();
    const burst = await h.database.db('admin_audit_log').where('id', '>', auditBefore).select('action');
    expect(burst.filter((e) => e.action === 'login-failed')).toHaveLength(5);
    expect(burst.filter((e) => e.action === 'login-locked')).toHaveLength(1);
    // And the right password on either instance is refused until the lock ends.
    for (const api of [h.api, other.api]) expect((await login(TEST_ADMIN_PASSWORD, api)).status).toBe(429);
  });
});

describe('the generated local admin password', () => {
  it('is made once per data folder (file mode 0600), kept, and replaced when the file is not ours', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pogs-admin-'));
    try {
      const file = path.join(dir, 'data', 'admin-password.json');
      const first = await loadLocalAdminPassword(file);
      expect(first.created).toBe(true);
      expect(first.password.length).toBeGreaterThanOrEqual(20);
      expect(await verifyPassword(first.password, first.hash)).toBe(true);
      if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);

      const again = await loadLocalAdminPassword(file);
      expect(again).toEqual({ ...first, created: false });

      fs.writeFileSync(file, JSON.stringify({ password: 'someone-elses-password', hash: first.hash }));
      const replaced = await loadLocalAdminPassword(file);
      expect(replaced.created).toBe(true);
      expect(replaced.password).not.toBe(first.password);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
