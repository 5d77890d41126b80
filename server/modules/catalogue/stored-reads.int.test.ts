// The catalogue's reads answered ahead of Koa (lib/fast-lane.ts): every answer the lane gives is
// the one the app's own routes give, it answers only what it can answer at once, and it never
// answers an old catalogue version.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '../../../common/api';
import { createApp } from '../../app';
import { storedReadLane, type Lane } from '../../lib/fast-lane';
import { registry } from '../../lib/metrics';
import { securityHeaderSet } from '../../lib/security-headers';
import { startHarness, type Harness } from '../../test/harness';
import { fetchRaw as raw } from '../../test/raw-http';
import { etagOf } from '../../lib/precompressed';
import { PageAnswers } from './page-answers';
import { catalogueStoredReads } from './stored-reads';
import { bumpCatalogueVersion } from './sync';

/** What the lane sends when it leaves a request to the app: nothing an app answers with. */
const LEFT = 599;

/** Headers that differ between any two answers (the request id is a new one each time). */
const PER_ANSWER = new Set(['date', 'connection', 'keep-alive', 'x-request-id']);
const same = (headers: IncomingHttpHeaders) => Object.fromEntries(Object.entries(headers).filter(([name]) => !PER_ANSWER.has(name)));

async function serve(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('the catalogue lane ahead of the app', () => {
  let h: Harness;
  let product: Product;
  const lines: Array<Record<string, unknown>> = [];
  const servers: Server[] = [];
  /** The lane alone: what it does not answer comes back as LEFT. */
  let laneOnly: string;
  /** The app's middleware and routes without any lane, as before the lane existed. */
  let appOnly: string;
  let trustingLane: Lane;

  const laneFor = (trustProxyId: boolean) =>
    storedReadLane({
      find: catalogueStoredReads(h.catalogue),
      security: securityHeaderSet(h.config),
      logger: pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) }),
      trustProxyId,
    });
  const leaveTo = (lane: Lane) => (req: Parameters<Lane>[0], res: Parameters<Lane>[1]) => {
    if (!lane(req, res)) res.writeHead(LEFT).end();
  };

  beforeAll(async () => {
    h = await startHarness('pglite');
    await h.catalogue.sync();
    await h.catalogue.seedDemoPrices();
    [product] = (await (await h.api('/api/products')).json()) as Product[];
    const lane = await serve(leaveTo(laneFor(false)));
    const app = createApp(h.services.app);
    const chain = await serve(Koa.prototype.callback.call(app));
    servers.push(lane.server, chain.server);
    laneOnly = lane.url;
    appOnly = chain.url;
    trustingLane = laneFor(true);
    // The list's stored forms are made on the first ask, off the event loop: wait for both.
    for (const coding of ['br', 'gzip']) {
      const until = Date.now() + 30_000;
      while ((await raw(`${laneOnly}/api/products`, { 'accept-encoding': coding })).status !== 200) {
        if (Date.now() > until) throw new Error(`the list's ${coding} form was not made within 30 s`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  });
  afterAll(async () => {
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
    await h?.close();
  });

  // 3,600 requests, one after another: more than the layer's 60 s default on a busy two-core machine.
  it('answers exactly as the app does, byte for byte, and leaves to it what needs more than a stored answer', async () => {
    const listEtag = (await raw(`${appOnly}/api/products`)).headers.etag as string;
    const productEtag = (await raw(`${appOnly}/api/products/${product.id}`)).headers.etag as string;
    const paths = [
      '/api/products',
      `/api/products/${product.id}`,
      // The same id, one digit percent-encoded: the router decodes it.
      `/api/products/%${product.id.charCodeAt(0).toString(16)}${product.id.slice(1)}`,
      '/api/products/99999999999',
      '/api/products/not-a-number',
      '/api/products?limit=1',
      '/api/products?q=%00',
      '/API/PRODUCTS',
      '/api/products/',
      `/api/products/${product.id}/custom-title`,
    ];
    const codings = ['gzip', 'br', 'gzip;q=1, br;q=0.5', 'br;q=0, gzip;q=0', 'identity', 'deflate', '*', ''];
    const validators = [undefined, listEtag, productEtag, `W/${productEtag}`, '"someone-else"'];
    // What the lane takes: GET and HEAD of the list and of a listed product, in a stored coding the
    // client takes (br or gzip), or a 304 to the ETag it has.
    const listed = new Map([
      ['/api/products', listEtag],
      [paths[1], productEtag],
      [paths[2], productEtag],
    ]);
    const storedCoding = new Set(['gzip', 'br', 'gzip;q=1, br;q=0.5', '*']);
    const expected: string[] = [];
    const answeredByLane: string[] = [];
    for (const method of ['GET', 'HEAD', 'POST'])
      for (const path of paths)
        for (const coding of codings)
          for (const etag of validators) {
            const headers: Record<string, string> = { 'accept-encoding': coding, 'sec-fetch-site': 'cross-site' };
            if (etag) headers['if-none-match'] = etag;
            const byLane = await raw(laneOnly + path, headers, method);
            const byApp = await raw(appOnly + path, headers, method);
            const byShop = await raw(h.baseUrl + path, headers, method);
            const what = `${method} ${path} [${coding}] ${etag ?? ''}`;
            const current = listed.get(path);
            if (method !== 'POST' && current && (storedCoding.has(coding) || etag === current || etag === `W/${current}`))
              expected.push(what);
            // The shop as it runs (its lane, then its app) answers as the app alone does.
            expect({ what, status: byShop.status, headers: same(byShop.headers), body: byShop.body }).toEqual({
              what,
              status: byApp.status,
              headers: same(byApp.headers),
              body: byApp.body,
            });
            if (byLane.status === LEFT) continue;
            answeredByLane.push(what);
            expect({ what, status: byLane.status, headers: same(byLane.headers), body: byLane.body }).toEqual({
              what,
              status: byApp.status,
              headers: same(byApp.headers),
              body: byApp.body,
            });
          }
    expect(answeredByLane).toEqual(expected);
    expect(expected.length).toBeGreaterThan(50);
  }, 180_000);

  it('gives each answer a request id of its own (a client’s only behind a trusted proxy), one log line and one latency count', async () => {
    const path = `/api/products/${product.id}`;
    const count = async () => {
      const text = await registry.getSingleMetricAsString('pogs_http_request_duration_seconds');
      const match = new RegExp(`_count\\{method="GET",route="/api/products/:id",status="200"\\} (\\d+)`).exec(text);
      return Number(match?.[1] ?? 0);
    };
    const before = await count();
    lines.length = 0;
    const stranger = await raw(laneOnly + path, { 'accept-encoding': 'gzip', 'x-request-id': 'stranger-chosen-id' });
    expect(stranger.status).toBe(200);
    const id = stranger.headers['x-request-id'] as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines).toEqual([expect.objectContaining({ msg: 'request', reqId: id, method: 'GET', route: '/api/products/:id', status: 200 })]);
    // The line names the route template, never the address asked.
    expect(JSON.stringify(lines)).not.toContain(product.id);
    expect(await count()).toBe(before + 1);

    const trusting = await serve(leaveTo(trustingLane));
    servers.push(trusting.server);
    const proxied = await raw(trusting.url + path, { 'accept-encoding': 'gzip', 'x-request-id': 'edge-7f3a.1' });
    expect(proxied.headers['x-request-id']).toBe('edge-7f3a.1');
    const forged = await raw(trusting.url + path, { 'accept-encoding': 'gzip', 'x-request-id': 'a b<script>' });
    expect(forged.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('never answers an older catalogue: after a change it leaves the list and its products to the app until they are rebuilt', async () => {
    const list = `/api/products`;
    const one = `/api/products/${product.id}`;
    const oldList = (await raw(laneOnly + list, { 'accept-encoding': 'gzip' })).headers.etag;
    const oldOne = (await raw(laneOnly + one, { 'accept-encoding': 'gzip' })).headers.etag;
    await h.database.db('variants').where({ shopify_id: product.variants[0].id }).update({ pog_price: '31.5' });
    await bumpCatalogueVersion(h.database.db);
    expect((await raw(laneOnly + list, { 'accept-encoding': 'gzip', 'if-none-match': oldList as string })).status).toBe(LEFT);
    expect((await raw(laneOnly + one, { 'accept-encoding': 'gzip', 'if-none-match': oldOne as string })).status).toBe(LEFT);
    // The app rebuilds on its next read; then the lane answers the new version.
    const rebuilt = await raw(h.baseUrl + one, { 'accept-encoding': 'gzip', 'if-none-match': oldOne as string });
    expect(rebuilt.status).toBe(200);
    const fromLane = await raw(laneOnly + one, { 'accept-encoding': 'gzip' });
    expect(fromLane.status).toBe(200);
    expect(fromLane.headers.etag).toBe(rebuilt.headers.etag);
    expect(fromLane.headers.etag).not.toBe(oldOne);
  });
});

describe('pages of a view and the facets ahead of the app', () => {
  let h: Harness;
  let laneOnly: string;
  let appOnly: string;
  const servers: Server[] = [];
  const coded = { 'accept-encoding': 'gzip' };

  beforeAll(async () => {
    h = await startHarness('pglite');
    await h.catalogue.sync();
    await h.catalogue.seedDemoPrices();
    const lane = storedReadLane({
      find: catalogueStoredReads(h.catalogue),
      security: securityHeaderSet(h.config),
      logger: pino({ level: 'silent' }),
      trustProxyId: false,
    });
    const laneServer = await serve((req, res) => {
      if (!lane(req, res)) res.writeHead(LEFT).end();
    });
    const app = await serve(Koa.prototype.callback.call(createApp(h.services.app)));
    servers.push(laneServer.server, app.server);
    laneOnly = laneServer.url;
    appOnly = app.url;
  });
  afterAll(async () => {
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
    await h?.close();
  });

  /** Asks the app, then waits until the lane has the stored forms (br and gzip) of what it answered. */
  const answeredByApp = async (path: string) => {
    const byApp = await raw(appOnly + path, coded);
    for (const coding of ['gzip', 'br'])
      for (const until = Date.now() + 30_000; (await raw(laneOnly + path, { 'accept-encoding': coding })).status === LEFT;) {
        if (Date.now() > until) throw new Error(`the lane never answered ${path} in ${coding}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    return byApp;
  };

  it('answers only an address the app has answered, byte for byte as the app does, and never one it refused', async () => {
    const first = (await (await h.api('/api/catalogue/products?q=tee&limit=2')).json()) as { nextCursor: string };
    const good = [
      '/api/catalogue/products?q=hoodie',
      '/api/catalogue/products?type=Hats&sort=price-asc&limit=2',
      `/api/catalogue/products?q=tee&limit=2&cursor=${first.nextCursor}`,
      '/api/catalogue/products',
      '/api/catalogue/facets',
    ];
    const refused = [
      '/api/catalogue/products?q=%00',
      '/api/catalogue/products?limit=0',
      '/api/catalogue/products?cursor=not-one',
      '/api/catalogue/products?q=a&q=b',
      `/api/catalogue/products?q=hats&limit=2&cursor=${first.nextCursor}`,
    ];
    // Not one of them has been asked of the app yet: the lane leaves every one to it.
    for (const path of [...good, ...refused])
      expect({ path, status: (await raw(laneOnly + path, coded)).status }).toEqual({ path, status: LEFT });
    for (const path of refused) {
      expect((await raw(appOnly + path, coded)).status).toBe(400);
      expect({ path, status: (await raw(laneOnly + path, coded)).status }).toEqual({ path, status: LEFT });
    }
    for (const path of good) {
      const byApp = await answeredByApp(path);
      expect(byApp.status).toBe(200);
      // The same view at another address (another case, spacing, order) is the app's to read first.
      if (path.includes('q=hoodie')) expect((await raw(laneOnly + path.replace('hoodie', 'HOODIE%20'), coded)).status).toBe(LEFT);
      const storedCoding = new Set(['gzip', 'br', 'gzip;q=1, br;q=0.5']);
      for (const coding of [...storedCoding, 'identity', ''])
        for (const method of ['GET', 'HEAD'])
          for (const etag of [undefined, byApp.headers.etag as string, '"someone-else"']) {
            const headers: Record<string, string> = { 'accept-encoding': coding };
            if (etag) headers['if-none-match'] = etag;
            const what = `${method} ${path} [${coding}] ${etag ?? ''}`;
            const fromApp = await raw(appOnly + path, headers, method);
            const fromLane = await raw(laneOnly + path, headers, method);
            const fromShop = await raw(h.baseUrl + path, headers, method);
            // The body as its hash: a difference reads as one line.
            const shape = (r: typeof fromApp) => ({ what, status: r.status, headers: same(r.headers), body: etagOf(r.body) });
            expect(shape(fromShop)).toEqual(shape(fromApp));
            // A stored coding the client takes, or a 304: the lane's. Identity is the app's (compressed on the fly, or plain).
            if (storedCoding.has(coding) || etag === byApp.headers.etag) expect(shape(fromLane)).toEqual(shape(fromApp));
            else expect({ what, status: fromLane.status }).toEqual({ what, status: LEFT });
          }
    }
  });

  it('never answers a page of an older catalogue, and keeps what it stores within its budget whatever a stranger asks', async () => {
    const path = '/api/catalogue/products?q=cap';
    const before = await answeredByApp(path);
    await h.database.db('variants').update({ pog_price: h.database.db.raw('pog_price + 1') });
    await bumpCatalogueVersion(h.database.db);
    expect((await raw(laneOnly + path, coded)).status).toBe(LEFT);
    const after = await answeredByApp(path);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect((await raw(laneOnly + path, coded)).headers.etag).toBe(after.headers.etag);

    // A flood of distinct searches: the stored pages and addresses stay within their bounds.
    const pages = new PageAnswers(undefined, { maxBytes: 64 * 1024, maxAddresses: 50 });
    const snap = await h.catalogue.list();
    const busy = { q: 'cap', type: '', vendor: '', tag: '', sort: 'featured' as const, limit: 24 };
    await pages.page(snap, busy);
    pages.remember(snap, path, busy);
    for (let i = 0; i < 500; i++) {
      const query = { ...busy, q: `stranger ${i}` };
      await pages.page(snap, query);
      pages.remember(snap, `/api/catalogue/products?q=stranger+${i}`, query);
      // The busy address is asked between the stranger's.
      if (i % 10 === 0) expect(pages.find(snap, path)).toBeDefined();
    }
    const stored = pages.stored(snap);
    expect(stored.bytes).toBeLessThanOrEqual(64 * 1024);
    expect(stored.addresses).toBeLessThanOrEqual(50);
    expect(pages.find(snap, path)?.body.toString()).toBe((await h.catalogue.page(busy)).body.toString());
  });
});
