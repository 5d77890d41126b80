/**
 * A NUL character (`%00` in a path or query, `\u0000` in a JSON string) is a client's mistake, never
 * a 500: no name, id or text the shop keeps can hold one (Postgres text cannot, and a query with one
 * fails). Every API route, read from the app's own routers, answers `400 bad-request` with a message
 * to each place a client can put one, for the admin and for a stranger, and nothing changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../common/errors';
import { createApp } from './app';
import { testDatabaseKinds } from './test/databases';
import { adminSession, startHarness, type Harness } from './test/harness';
import { useTestChain } from './test/use-test-chain';

const testChain = useTestChain();

/** Every API route of the app's routers, as [method, path] (a GET route's automatic HEAD left out). */
function apiRoutes(h: Harness): Array<[string, string]> {
  const app = createApp(h.services.app);
  const routes = new Map<string, [string, string]>();
  for (const middleware of app.middleware) {
    const { router } = middleware as { router?: { stack: Array<{ methods: string[]; path: string | RegExp }> } };
    for (const layer of router?.stack ?? []) {
      if (typeof layer.path !== 'string' || !layer.path.startsWith('/api/')) continue;
      for (const method of layer.methods) if (method !== 'HEAD') routes.set(`${method} ${layer.path}`, [method, layer.path]);
    }
  }
  return [...routes.values()];
}

/** The methods whose JSON body is read (a DELETE's body is not: no route reads one). */
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

describe.each(testDatabaseKinds)('NUL characters on %s', (kind) => {
  let h: Harness;
  let adminCookie: string;
  let sameSite: Record<string, string>;
  let title: string;

  beforeAll(async () => {
    h = await startHarness(kind, { chain: testChain.chain });
    await h.catalogue.sync();
    sameSite = { origin: h.baseUrl, 'sec-fetch-site': 'same-origin' };
    adminCookie = await adminSession(h, sameSite);
    const product = await h.database.db('products').whereNull('removed_at').orderBy('id').first('title');
    title = (product as { title: string }).title;
  });
  afterAll(async () => {
    await h?.close();
  });

  const titles = async () => h.database.db('products').orderBy('id').select('shopify_id', 'custom_title');
  const send = (method: string, path: string, opts: { admin: boolean; body?: unknown }) =>
    h.api(path, {
      method,
      headers: {
        ...sameSite,
        ...(opts.admin ? { cookie: adminCookie } : {}),
        ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
  const expectRefused = async (res: Response, what: string) => {
    const text = await res.text();
    expect(res.status, `${what}: ${text}`).toBe(400);
    const body = JSON.parse(text) as { code: string; message: string };
    expect(body.code, what).toBe(ErrorCode.badRequest);
    expect(body.message, what).toMatch(/NUL/);
  };

  it('answers 400 to a title path, query or body holding one, for the admin and a stranger, and no title changes', async () => {
    const before = await titles();
    const path = (t: string) => `/api/products/${t}/custom-title`;
    for (const admin of [true, false]) {
      const who = admin ? 'admin' : 'stranger';
      await expectRefused(await send('DELETE', path('%00'), { admin }), `${who} DELETE %00`);
      await expectRefused(await send('DELETE', path(`${encodeURIComponent(title)}%00`), { admin }), `${who} DELETE title%00`);
      await expectRefused(await send('PUT', path('%00'), { admin, body: { customTitle: 'Nul Title' } }), `${who} PUT %00`);
      await expectRefused(
        await send('PUT', path(encodeURIComponent(title)), { admin, body: { customTitle: 'Nul\u0000Title' } }),
        `${who} PUT a title with \\u0000`,
      );
      await expectRefused(await send('DELETE', `${path(encodeURIComponent(title))}?productId=%00`, { admin }), `${who} ?productId=%00`);
    }
    expect(await titles()).toEqual(before);

    // The same title without the NUL is the admin's to set and clear.
    const set = await send('PUT', path(encodeURIComponent(title)), { admin: true, body: { customTitle: 'Nul-free Title' } });
    expect(set.status, await set.clone().text()).toBe(200);
    const cleared = await send('DELETE', path(encodeURIComponent(title)), { admin: true });
    expect(cleared.status, await cleared.clone().text()).toBe(200);
    expect(await titles()).toEqual(before);
  });

  it('answers 400 on every API route to a NUL in each path parameter, in the query and in a JSON body', async () => {
    const routes = apiRoutes(h);
    expect(routes.length).toBeGreaterThan(30);
    const before = await titles();
    for (const [method, route] of routes) {
      for (const admin of [true, false]) {
        const who = `${admin ? 'admin' : 'stranger'} ${method} ${route}`;
        const params = route.match(/:\w+/g) ?? [];
        for (const param of params) {
          // This parameter holds the NUL; the others a plain value.
          const path = route.replace(/:\w+/g, (p) => (p === param ? 'a%00b' : '1'));
          await expectRefused(await send(method, path, { admin, body: WITH_BODY.has(method) ? {} : undefined }), `${who} ${param}`);
        }
        const plain = route.replace(/:\w+/g, '1');
        for (const query of ['?q=%00', '?status=paid&before=%00', '?%00=1']) {
          await expectRefused(
            await send(method, plain + query, { admin, body: WITH_BODY.has(method) ? {} : undefined }),
            `${who} ${query}`,
          );
        }
        if (WITH_BODY.has(method)) {
          for (const body of [{ note: 'a\u0000b' }, { nested: [{ deeper: '\u0000' }] }, { ['key\u0000']: 1 }]) {
            const res = await send(method, plain, { admin, body });
            // Shopify's webhooks are read before the body parser (their signature covers the raw
            // bytes): an unsigned one is refused whatever it holds.
            if (route === '/api/webhooks/shopify') expect(res.status, who).toBe(401);
            else await expectRefused(res, `${who} ${JSON.stringify(body)}`);
          }
        }
      }
    }
    expect(await titles()).toEqual(before);
  });
});
