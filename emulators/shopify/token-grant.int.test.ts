/**
 * The client-credentials grant (POST /admin/oauth/access_token) of an app made in Shopify's Dev
 * Dashboard, over HTTP: both body kinds, every refusal in Shopify's OAuth error shape, granted
 * tokens on the Admin API through the real @shopify/admin-api-client until their time is up on the
 * emulator's clock, the static token beside them, and the loopback-only controls.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdminApiClient } from '@shopify/admin-api-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createShopifyEmulator, type ShopifyEmulator, type ShopifyEmulatorOptions } from './index';

const CLIENT_ID = '0123456789abcdef0123456789abcdef';
const CLIENT_SECRET = 'f'.repeat(64);
const STATIC_TOKEN = 'shpat_legacy_custom_app_token';
const TTL_SECONDS = 30;
const INVALID_TOKEN = { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' };
const DEFAULT_SCOPE = 'read_products,read_inventory,write_draft_orders,read_orders';

interface Running {
  origin: string;
  emulator: ShopifyEmulator;
  close: () => Promise<void>;
}

async function start(opts: Partial<ShopifyEmulatorOptions>): Promise<Running> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const emulator = createShopifyEmulator({ publicOrigin: origin, clientSecret: CLIENT_SECRET, ...opts });
  server.on('request', emulator.app.callback());
  return { origin, emulator, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('the client-credentials grant', () => {
  let run: Running;
  const clock = { now: Date.parse('2026-11-01T00:00:00Z') };

  const post = (body: string, contentType: string) =>
    fetch(`${run.origin}/admin/oauth/access_token`, { method: 'POST', headers: { 'content-type': contentType }, body });
  const postJson = (params: unknown) => post(JSON.stringify(params), 'application/json');
  const postForm = (params: Record<string, string>) => post(new URLSearchParams(params).toString(), 'application/x-www-form-urlencoded');
  const good = { grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: CLIENT_SECRET };

  const grant = async (kind: 'json' | 'form' = 'json'): Promise<string> => {
    const res = kind === 'json' ? await postJson(good) : await postForm(good);
    expect(res.status).toBe(200);
    return ((await res.json()) as { access_token: string }).access_token;
  };
  const client = (token: string) =>
    createAdminApiClient({
      storeDomain: 'demo-shop.myshopify.com',
      apiVersion: '2026-07',
      accessToken: token,
      retries: 0,
      customFetchApi: (url, init) => {
        const u = new URL(url);
        return fetch(run.origin + u.pathname + u.search, init);
      },
    });
  const shopName = async (token: string) => {
    const { data, errors } = await client(token).request<{ shop: { name: string } }>('{ shop { name } }');
    return errors ? errors.networkStatusCode : data!.shop.name;
  };
  const rawAdminCall = (token: string) =>
    fetch(`${run.origin}/admin/api/2026-07/graphql.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-shopify-access-token': token },
      body: JSON.stringify({ query: '{ shop { name } }' }),
    });

  beforeAll(async () => {
    run = await start({ clientId: CLIENT_ID, accessToken: STATIC_TOKEN, tokenTtlSeconds: TTL_SECONDS, now: () => clock.now });
  });
  afterAll(() => run.close());
  beforeEach(() => {
    run.emulator.reset();
  });

  it('grants a token for a JSON body, which then works on the Admin API', async () => {
    const res = await postJson(good);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as { access_token: string };
    expect(body).toEqual({ access_token: expect.stringMatching(/^shpat_[0-9a-f]{32}$/), scope: DEFAULT_SCOPE, expires_in: TTL_SECONDS });
    expect(await shopName(body.access_token)).toBe('POGS Demo Shop');
    expect(run.emulator.accessTokenGrants).toEqual([{ grantedAt: clock.now, expiresAt: clock.now + TTL_SECONDS * 1000, body: 'json' }]);
  });

  it('grants a token for a form-encoded body, a different one each time', async () => {
    const first = await grant('form');
    const second = await grant('form');
    expect(second).not.toBe(first);
    expect(await shopName(first)).toBe('POGS Demo Shop');
    expect(await shopName(second)).toBe('POGS Demo Shop');
    expect(run.emulator.accessTokenGrants.map((g) => g.body)).toEqual(['form', 'form']);
  });

  const invalidClient = {
    error: 'invalid_client',
    error_description: 'Client authentication failed: the client id is unknown or the client secret is wrong.',
  };
  const unreadable = {
    error: 'invalid_request',
    error_description: 'The request body could not be read: send the parameters as application/x-www-form-urlencoded or as a JSON object.',
  };
  const missing = (name: string) => ({
    error: 'invalid_request',
    error_description: `The request is missing the required parameter ${name} (a string).`,
  });
  it.each([
    ['a wrong client id (JSON)', () => postJson({ ...good, client_id: 'f'.repeat(32) }), invalidClient],
    ['a wrong client secret (JSON)', () => postJson({ ...good, client_secret: 'e'.repeat(64) }), invalidClient],
    ['a wrong client secret (form)', () => postForm({ ...good, client_secret: CLIENT_SECRET.slice(1) }), invalidClient],
    [
      'another grant type',
      () => postForm({ ...good, grant_type: 'authorization_code' }),
      {
        error: 'unsupported_grant_type',
        error_description: "The grant type 'authorization_code' is not supported: use client_credentials.",
      },
    ],
    ['no grant type', () => postJson({ client_id: CLIENT_ID, client_secret: CLIENT_SECRET }), missing('grant_type')],
    ['no client id', () => postForm({ grant_type: 'client_credentials', client_secret: CLIENT_SECRET }), missing('client_id')],
    ['no client secret', () => postJson({ grant_type: 'client_credentials', client_id: CLIENT_ID }), missing('client_secret')],
    ['an empty client secret', () => postForm({ ...good, client_secret: '' }), missing('client_secret')],
    ['a client id that is not a string', () => postJson({ ...good, client_id: 123 }), missing('client_id')],
    ['a body that is not JSON', () => post('{"grant_type": "client_credentials",', 'application/json'), unreadable],
    ['a JSON array', () => post(JSON.stringify([good]), 'application/json'), unreadable],
    ['a plain-text body', () => post(new URLSearchParams(good).toString(), 'text/plain'), unreadable],
  ])('refuses %s with HTTP 400 and an OAuth error, minting nothing', async (_name, send, expected) => {
    const res = await send();
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual(expected);
    expect(run.emulator.accessTokenGrants).toEqual([]);
    const summary = (await (await fetch(`${run.origin}/__emulator/access-tokens`)).json()) as { count: number; active: number };
    expect(summary).toMatchObject({ count: 0, active: 0 });
  });

  it('answers a granted token with 401 and Shopify’s body once its time is up on the emulator’s clock', async () => {
    const token = await grant();
    clock.now += TTL_SECONDS * 1000 - 1;
    expect(await shopName(token)).toBe('POGS Demo Shop');
    clock.now += 1;
    expect(await shopName(token)).toBe(401);
    const raw = await rawAdminCall(token);
    expect(raw.status).toBe(401);
    expect(await raw.json()).toEqual(INVALID_TOKEN);
    // The expired token is gone from memory; a new grant works.
    expect(((await (await fetch(`${run.origin}/__emulator/access-tokens`)).json()) as { active: number }).active).toBe(0);
    expect(await shopName(await grant())).toBe('POGS Demo Shop');
  });

  it('keeps accepting the static token beside granted ones, also after they expire', async () => {
    const token = await grant();
    expect(await shopName(STATIC_TOKEN)).toBe('POGS Demo Shop');
    clock.now += 2 * TTL_SECONDS * 1000;
    run.emulator.expireAccessTokens();
    expect(await shopName(token)).toBe(401);
    expect(await shopName(STATIC_TOKEN)).toBe('POGS Demo Shop');
    expect(await shopName('shpat_00000000000000000000000000000000')).toBe(401);
  });

  it('expireAccessTokens() ends every granted token now', async () => {
    const tokens = [await grant('json'), await grant('form')];
    clock.now += 1000;
    expect(run.emulator.expireAccessTokens()).toBe(2);
    for (const token of tokens) expect(await shopName(token)).toBe(401);
    expect(run.emulator.accessTokenGrants.map((g) => g.expiresAt)).toEqual([clock.now, clock.now]);
    expect(await shopName(await grant())).toBe('POGS Demo Shop');
  });

  it('lists grants (never tokens) and expires them through the loopback controls', async () => {
    const token = await grant('form');
    const listed = await fetch(`${run.origin}/__emulator/access-tokens`);
    const text = await listed.text();
    expect(text).not.toContain(token);
    expect(text).not.toContain(token.slice(6));
    expect(JSON.parse(text)).toEqual({
      count: 1,
      active: 1,
      grants: [{ grantedAt: clock.now, expiresAt: clock.now + TTL_SECONDS * 1000, body: 'form' }],
    });
    const expired = await fetch(`${run.origin}/__emulator/access-tokens/expire`, { method: 'POST' });
    expect(await expired.json()).toEqual({ expired: 1 });
    expect(await shopName(token)).toBe(401);
    expect(await (await fetch(`${run.origin}/__emulator/access-tokens`)).json()).toMatchObject({ count: 1, active: 0 });
  });

  it('forgets granted tokens on reset', async () => {
    const token = await grant();
    run.emulator.reset();
    expect(await shopName(token)).toBe(401);
    expect(run.emulator.accessTokenGrants).toEqual([]);
  });

  it('answers only POST on the token route', async () => {
    expect((await fetch(`${run.origin}/admin/oauth/access_token`)).status).toBe(405);
  });
});

describe('which tokens an emulator accepts', () => {
  it('without a clientId: the static token only, and no token route', async () => {
    const run = await start({ accessToken: STATIC_TOKEN });
    try {
      const res = await fetch(`${run.origin}/admin/oauth/access_token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: CLIENT_SECRET }),
      });
      expect(res.status).toBe(404);
    } finally {
      await run.close();
    }
  });

  it('without an accessToken: granted tokens only, with the scopes it was given', async () => {
    const run = await start({ clientId: CLIENT_ID, grantedScopes: ['read_products', 'read_orders'] });
    try {
      const res = await fetch(`${run.origin}/admin/oauth/access_token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: CLIENT_SECRET }).toString(),
      });
      const body = (await res.json()) as { access_token: string; scope: string; expires_in: number };
      expect(body.scope).toBe('read_products,read_orders');
      expect(body.expires_in).toBe(86399);
      const call = (token: string) =>
        fetch(`${run.origin}/admin/api/2026-07/graphql.json`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-shopify-access-token': token },
          body: JSON.stringify({ query: '{ shop { name } }' }),
        });
      expect((await call(body.access_token)).status).toBe(200);
      const refused = await call(STATIC_TOKEN);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toEqual(INVALID_TOKEN);
    } finally {
      await run.close();
    }
  });

  it('is refused without any way to authenticate, or with a token life that is not whole seconds', () => {
    const base = { publicOrigin: 'http://127.0.0.1:1', clientSecret: CLIENT_SECRET };
    expect(() => createShopifyEmulator(base)).toThrow(/needs an accessToken, a clientId/);
    expect(() => createShopifyEmulator({ ...base, clientId: '' })).toThrow(/clientId must not be empty/);
    expect(() => createShopifyEmulator({ ...base, clientId: CLIENT_ID, tokenTtlSeconds: 0 })).toThrow(/tokenTtlSeconds/);
    expect(() => createShopifyEmulator({ ...base, clientId: CLIENT_ID, tokenTtlSeconds: 1.5 })).toThrow(/tokenTtlSeconds/);
  });
});
