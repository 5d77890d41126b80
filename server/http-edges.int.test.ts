/**
 * Never a 500 for what a client sends: odd Accept-Encoding values, methods nobody implements, and
 * paths nobody answers, as a stranger's scanner sends them. API paths answer JSON `{code, message}`;
 * only shop pages fall back to the client's index.html.
 */
import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClientDir } from './test/shop-pages';
import { startHarness, type Harness } from './test/harness';

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A request exactly as given (fetch would add its own Accept-Encoding and refuse some methods). */
function raw(h: Harness, method: string, urlPath: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const url = new URL(h.baseUrl + urlPath);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: urlPath, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function decoded(res: RawResponse): string {
  const coding = res.headers['content-encoding'];
  if (coding === 'br') return zlib.brotliDecompressSync(res.body).toString('utf8');
  if (coding === 'gzip') return zlib.gunzipSync(res.body).toString('utf8');
  if (coding === 'deflate') return zlib.inflateSync(res.body).toString('utf8');
  if (coding === 'zstd')
    return (zlib as unknown as { zstdDecompressSync(b: Buffer): Buffer }).zstdDecompressSync(res.body).toString('utf8');
  expect(coding).toBeUndefined();
  return res.body.toString('utf8');
}

const INDEX_HTML = `<!doctype html><html><head><title>POGS Shop</title></head><body><div id="root"></div>${'<!-- padding past the compression threshold -->'.repeat(40)}</body></html>`;

let h: Harness;
const client = makeClientDir(INDEX_HTML);

beforeAll(async () => {
  h = await startHarness('pglite', { staticDir: client.dir });
  await h.catalogue.sync();
  await h.catalogue.seedDemoPrices();
});
afterAll(async () => {
  await h?.close();
  client.remove();
});

describe('Accept-Encoding', () => {
  // Codings the client will not take get plain bytes: RFC 9110 lets a server ignore the field
  // rather than answer 406, and every client can read identity.
  it.each([
    ['identity;q=0', undefined],
    ['*;q=0', undefined],
    ['identity;q=0, compress', undefined],
    ['identity;q=0, *;q=0', undefined],
    ['x-unknown;q=1, identity;q=0', undefined],
    ['', undefined],
    ['identity', undefined],
    ['%%%;;q=abc', undefined],
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['identity;q=0, gzip', 'gzip'],
    ['*', 'br'],
  ])('%j on GET /api/products: 200, coding %s', async (acceptEncoding, coding) => {
    // The stored br form is made in the background after a change: ask until it is served.
    if (coding === 'br') {
      await expect
        .poll(async () => (await raw(h, 'GET', '/api/products', { 'accept-encoding': acceptEncoding })).headers['content-encoding'])
        .toBe('br');
    }
    const res = await raw(h, 'GET', '/api/products', { 'accept-encoding': acceptEncoding });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe(coding);
    expect(JSON.parse(decoded(res)).length).toBeGreaterThan(0);
  });

  it.each(['identity;q=0', '*;q=0'])('%j on a shop page and on the config: 200, plain', async (acceptEncoding) => {
    const page = await raw(h, 'GET', '/products/some-hoodie', { 'accept-encoding': acceptEncoding, accept: 'text/html' });
    expect(page.status).toBe(200);
    expect(decoded(page)).toBe(INDEX_HTML);
    const config = await raw(h, 'GET', '/api/config', { 'accept-encoding': acceptEncoding });
    expect(config.status).toBe(200);
    expect(JSON.parse(decoded(config))).toMatchObject({ shopName: 'POGS Shop' });
  });
});

describe('request methods nobody implements', () => {
  it.each([
    ['PROPFIND', '/'],
    ['PROPFIND', '/api/products'],
    ['MKCOL', '/api/cart'],
    ['TRACE', '/'],
    ['PURGE', '/api/nothing'],
    ['SEARCH', '/orders/abc/shipping'],
    ['LOCK', '/shopify-emulator/admin/api/2026-07/graphql.json'],
  ])('%s %s: 501 JSON', async (method, urlPath) => {
    const res = await raw(h, method, urlPath);
    expect(res.status).toBe(501);
    expect(JSON.parse(res.body.toString())).toEqual({ code: 'not-implemented', message: expect.any(String) });
  });

  it('a known method on a path that does not take it: 405 JSON', async () => {
    const res = await raw(h, 'PUT', '/api/products');
    expect(res.status).toBe(405);
    expect(JSON.parse(res.body.toString())).toEqual({ code: 'method-not-allowed', message: expect.any(String) });
  });
});

describe('the catalogue reads, answered ahead of sessions, bodies and rate limits', () => {
  it('a GET makes no session; a write is 405 (a broken body 400), with no session either; another site is refused first', async () => {
    const read = await fetch(`${h.baseUrl}/api/products`);
    expect(read.status).toBe(200);
    expect(read.headers.get('set-cookie')).toBeNull();
    expect(read.headers.get('x-request-id')).toMatch(/^[\w-]+$/);
    expect(read.headers.get('content-security-policy')).toContain("script-src 'self'");

    const post = (body: string) =>
      fetch(`${h.baseUrl}/api/products`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: h.baseUrl }, body });
    const write = await post('{"title":"mine"}');
    expect(write.status).toBe(405);
    expect(await write.json()).toEqual({ code: 'method-not-allowed', message: expect.any(String) });
    expect(write.headers.get('set-cookie')).toBeNull();
    const broken = await post('{"broken');
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    expect(broken.headers.get('set-cookie')).toBeNull();

    const crossSite = await fetch(`${h.baseUrl}/api/products`, { method: 'POST', headers: { Origin: 'https://evil.example' } });
    expect(crossSite.status).toBe(403);
  });
});

describe('paths nobody answers', () => {
  const browser = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

  it.each(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])('%s on unknown /api paths: JSON 404, never the index page', async (method) => {
    for (const urlPath of ['/api', '/api/', '/api/nothing', '/api/products/x/y/z', '/API/nothing', '/api/orders/x/y']) {
      const res = await raw(h, method, urlPath, browser);
      expect(res.status, `${method} ${urlPath}`).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(res.body.toString()), `${method} ${urlPath}`).toEqual({
        code: 'not-found',
        message: expect.stringMatching(/no API endpoint/),
      });
    }
  });

  it('HEAD on an unknown /api path: 404', async () => {
    expect((await raw(h, 'HEAD', '/api/nothing', browser)).status).toBe(404);
  });

  it('the shop emulator path is never the index page (here no emulator is mounted)', async () => {
    const res = await raw(h, 'GET', '/shopify-emulator/__emulator/draft-orders', browser);
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body.toString())).toMatchObject({ code: 'not-found' });
  });

  it('shop pages still get the index page, the shipping link included', async () => {
    for (const urlPath of ['/', '/products/some-hoodie', '/orders', '/orders/00000000-0000-4000-8000-000000000000/shipping']) {
      const res = await raw(h, 'GET', urlPath, browser);
      expect(res.status, urlPath).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
    }
  });

  it('anything else nobody answers is a JSON 404 too', async () => {
    for (const [method, urlPath] of [
      ['POST', '/'],
      ['DELETE', '/products/x'],
      ['GET', '/assets/missing.js'],
    ] as const) {
      const res = await raw(h, method, urlPath, browser);
      expect(res.status, `${method} ${urlPath}`).toBe(404);
      expect(JSON.parse(res.body.toString())).toMatchObject({ code: 'not-found' });
    }
  });
});
