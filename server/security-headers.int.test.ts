/**
 * The security headers on what the server answers: the shop's pages (their own inline loader
 * allowed by its hash, nothing else inline), the API's JSON and its errors, the built files, and
 * the Shopify emulator's pages in local mode; HSTS only in production over https.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '../common/api';
import { loadConfig } from './config';
import { securityHeaderSet, securityHeaders } from './lib/security-headers';
import { startHarness, type Harness } from './test/harness';
import { makeClientDir } from './test/shop-pages';

const INDEX_HTML =
  '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>POGS Shop</title>' +
  '<script type="module" crossorigin src="/assets/index-abc.js"></script>' +
  '<link rel="modulepreload" crossorigin href="/assets/react-r.js"></head>' +
  '<body><div id="root"></div></body></html>';
const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

let h: Harness;
let product: Product;
const client = makeClientDir(INDEX_HTML);

beforeAll(async () => {
  // A server-rendering entry of our own: any markup makes the page load its scripts after paint.
  fs.mkdirSync(`${client.dir}-ssr`);
  fs.writeFileSync(
    path.join(`${client.dir}-ssr`, 'entry-server.js'),
    'export const renderShopPage = async () => "<main>rendered</main>";\n',
  );
  fs.mkdirSync(path.join(client.dir, 'icons'));
  fs.writeFileSync(path.join(client.dir, 'icons', 'icon-192.png'), 'not really a png');
  fs.mkdirSync(path.join(client.dir, 'assets'));
  fs.writeFileSync(path.join(client.dir, 'assets', 'index-abc.js'), 'console.log("shop");\n');
  h = await startHarness('pglite', { staticDir: client.dir, mountEmulator: true });
  await h.catalogue.sync();
  await h.catalogue.seedDemoPrices();
  product = (await h.catalogue.list()).products[0]!;
});
afterAll(async () => {
  await h?.close();
  client.remove();
});

/** The policy's directives by name. */
function directives(res: Response): Map<string, string[]> {
  const header = res.headers.get('content-security-policy');
  expect(header).toBeTruthy();
  return new Map(
    header!.split(';').map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name!, values];
    }),
  );
}

/** The text of each inline script a browser would run (not the data blocks: JSON, and the JSON-LD of server/pages/seo/). */
function inlineScripts(body: string): string[] {
  return [...body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)]
    .filter(([, attributes]) => !/\bsrc=/.test(attributes!) && !/type="application\/(ld\+)?json"/.test(attributes!))
    .map(([, , text]) => text!);
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

function expectCommonHeaders(res: Response) {
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
  expect(res.headers.get('permissions-policy')).toMatch(/camera=\(\).*clipboard-write=\(self\)/);
  // Not production: no HSTS (a local http shop must stay reachable over http).
  expect(res.headers.get('strict-transport-security')).toBeNull();
  const csp = directives(res);
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  expect(csp.get('script-src')).not.toContain("'unsafe-inline'");
  expect(csp.has('upgrade-insecure-requests')).toBe(false);
}

describe("the shop's pages", () => {
  it.each(['/', '/product/{id}', '/products/{id}'])('%s runs its own inline loader, by its hash, and nothing else inline', async (p) => {
    const res = await h.api(p.replace('{id}', product.id), { headers: html });
    const body = await res.text();
    expect(res.status).toBe(200);
    expect(body).toContain('<main>rendered</main>');
    expectCommonHeaders(res);
    const scripts = inlineScripts(body);
    expect(scripts).toHaveLength(1);
    expect(directives(res).get('script-src')).toEqual(["'self'", sha256(scripts[0]!)]);
    // The data the page carries is JSON, and its JSON-LD, which no policy needs to allow.
    expect(body).toMatch(/<script type="application\/json" id="[^"]+">/);
    expect(body).toContain('<script type="application/ld+json">');
  });

  it('answers a plain page (the SPA fallback) with the policy, allowing no inline script', async () => {
    const spa = await h.api('/orders', { headers: html });
    expect(spa.status).toBe(200);
    expect(await spa.text()).toBe(INDEX_HTML);
    expectCommonHeaders(spa);
    expect(directives(spa).get('script-src')).toEqual(["'self'"]);
  });
});

describe('everything else the server answers', () => {
  it.each([
    ['the API', '/api/products', 200],
    ['an API error', '/api/nothing-here', 404],
    ['a built file', '/assets/index-abc.js', 200],
    ["the emulator's other pages (local mode)", '/shopify-emulator/admin/api/2025-10/graphql.json', null],
  ] as const)('%s carries the same headers', async (_what, p, status) => {
    const res = await h.api(p);
    if (status) expect(res.status).toBe(status);
    await res.arrayBuffer();
    expectCommonHeaders(res);
    expect(directives(res).get('script-src')).toEqual(["'self'"]);
    expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');
  });

  it("lets the local demo's photos show on a page opened at another address of the shop (127.0.0.1 for localhost)", async () => {
    const res = await h.api('/shopify-emulator/cdn/images/anything-1.svg');
    await res.arrayBuffer();
    expectCommonHeaders(res);
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
  });

  it('lets other sites show the icons (the wallets show the shop’s icon beside its name)', async () => {
    const res = await h.api('/icons/icon-192.png');
    expect(res.status).toBe(200);
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
  });
});

describe('in production', () => {
  /** A bare app with only the headers, as production configures them. */
  async function headersOf(env: Record<string, string>): Promise<Headers> {
    const config = loadConfig({
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://shop@db.internal:5432/shop',
      SHOPIFY_STORE_DOMAIN: 'pogs-store.myshopify.com',
      SHOPIFY_CLIENT_ID: '0123456789abcdef0123456789abcdef',
      SHOPIFY_CLIENT_SECRET: 'a-client-secret',
      BASE_RPC_URL: 'https://mainnet.base.org',
      POG_TOKEN_ADDRESS: '0x1111111111111111111111111111111111111111',
      STORE_WALLET_ADDRESS: '0x2222222222222222222222222222222222222222',
      ADMIN_PASSWORD_HASH: 'scrypt$1024$8$1$475XHI1GYAbhmSdP3z6HeA==$g/ItdRHw4pbGv+PZUIfKl0x0OOHa2TPG2vYv0Xx9Q3c=',
      ...env,
    });
    const app = new Koa();
    app.use(securityHeaders(securityHeaderSet(config)));
    app.use((ctx) => {
      ctx.body = { ok: true };
    });
    const server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/config`);
      await res.arrayBuffer();
      return res.headers;
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }

  it('asks browsers to use https only (HSTS, a year) and upgrades stray http requests, when the shop is https', async () => {
    const headers = await headersOf({ PUBLIC_URL: 'https://shop.pogs.example' });
    expect(headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect(headers.get('content-security-policy')).toMatch(/(^|;)upgrade-insecure-requests(;|$)/);
  });

  it('does neither for a shop on plain http (a loopback rehearsal)', async () => {
    const headers = await headersOf({ PUBLIC_URL: 'http://localhost:4100' });
    expect(headers.get('strict-transport-security')).toBeNull();
    expect(headers.get('content-security-policy')).not.toMatch(/upgrade-insecure-requests/);
  });
});
