// GET /api/cart answered ahead of Koa (lane.ts) from the answers kept in memory (answers.ts): every
// answer the lane gives is the one the app's own route gives, it answers only what it can answer
// at once, a kept cart is forgotten at any writer's change, and no cookie but the session's own
// gets anything of a cart.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartSchema, type Cart } from '../../../common/api';
import type { CataloguePage } from '../../../common/catalogue-view';
import { createApp } from '../../app';
import { registry } from '../../lib/metrics';
import { securityHeaderSet } from '../../lib/security-headers';
import type { Lane } from '../../lib/fast-lane';
import { testDatabaseKinds } from '../../test/databases';
import { startHarness, type Harness } from '../../test/harness';
import { fetchRaw as raw } from '../../test/raw-http';
import { Shopper } from '../../test/shopper';
import { SESSION_COOKIE } from '../session';
import { NO_SESSION_ANSWER } from './answers';
import { cartReadLane } from './lane';
import { removeBoughtLines } from './service';

/** What the lane sends when it leaves a request to the app: nothing an app answers with. */
const LEFT = 599;

/** Headers that differ between any two answers (the request id is a new one each time). */
const PER_ANSWER = new Set(['date', 'connection', 'keep-alive', 'x-request-id']);
const same = (headers: IncomingHttpHeaders) => Object.fromEntries(Object.entries(headers).filter(([name]) => !PER_ANSWER.has(name)));

type Line = Record<string, unknown>;
const capturing = (lines: Line[]) => pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Line) });

async function serve(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe.each(testDatabaseKinds)('the cart lane ahead of the app on %s', (kind) => {
  let h: Harness;
  const servers: Server[] = [];
  const laneLines: Line[] = [];
  const appLines: Line[] = [];
  /** The lane alone: what it does not answer comes back as LEFT. */
  let laneOnly: string;
  /** The app's middleware and routes without any lane. */
  let appOnly: string;
  let variants: string[];

  const cartOf = (body: Buffer): Cart => cartSchema.parse(JSON.parse(body.toString()));
  const shopperWith = async (count: number, from = 0) => {
    const s = new Shopper(h);
    for (const variantId of variants.slice(from, from + count)) expect((await s.add({ variantId, quantity: 1 })).status).toBe(200);
    return s;
  };

  beforeAll(async () => {
    h = await startHarness(kind);
    await h.catalogue.sync();
    await h.catalogue.seedDemoPrices();
    const page = (await (await h.api('/api/catalogue/products?limit=24')).json()) as CataloguePage;
    variants = page.products.flatMap((p) => p.variants.filter((v) => !v.isSoldOut).slice(0, 1)).map((v) => v.id);
    const lane = cartReadLane({
      carts: h.carts,
      sessions: h.sessions,
      security: securityHeaderSet(h.config),
      logger: capturing(laneLines),
      trustProxyId: false,
    });
    const leaveTo = (l: Lane) => async (req: Parameters<Lane>[0], res: Parameters<Lane>[1]) => {
      if (!(await l(req, res))) res.writeHead(LEFT).end();
    };
    const laneServer = await serve(leaveTo(lane));
    const app = createApp({ ...h.services.app, logger: capturing(appLines) });
    const chain = await serve(Koa.prototype.callback.call(app));
    servers.push(laneServer.server, chain.server);
    laneOnly = laneServer.url;
    appOnly = chain.url;
  });
  afterAll(async () => {
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
    await h?.close();
  });

  it('answers exactly as the app does, byte for byte, and leaves to it what needs more than a kept answer', async () => {
    const [a, b, big] = [await shopperWith(2), await shopperWith(1, 2), await shopperWith(6, 3)];
    // Each cart read through the app: its answer is kept from then on (on PGlite the first read of a
    // process starts hearing changes, and is not kept).
    const read = async (s: Shopper) => raw(`${appOnly}/api/cart`, { cookie: s.cookie!, 'accept-encoding': 'gzip' });
    await read(a);
    const [aRead, bRead, bigRead] = [await read(a), await read(b), await read(big)];
    expect(aRead.body.length).toBeLessThan(1024);
    // Over the compression threshold: compressed on the fly until its stored forms are made (on
    // their first ask, off the event loop).
    expect(bigRead.headers['content-encoding']).toBe('gzip');
    for (const coding of ['gzip', 'br']) {
      const until = Date.now() + 30_000;
      while (!(await raw(`${appOnly}/api/cart`, { cookie: big.cookie!, 'accept-encoding': coding })).headers['content-length']) {
        if (Date.now() > until) throw new Error(`the cart's ${coding} form was not made within 30 s`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    const token = (s: Shopper) => s.cookie!.slice(SESSION_COOKIE.length + 1);
    const forged = `${SESSION_COOKIE}=${randomBytes(32).toString('base64url')}`;
    const cookies: Record<string, string | undefined> = {
      none: undefined,
      empty: `${SESSION_COOKIE}=`,
      a: a.cookie!,
      b: b.cookie!,
      big: big.cookie!,
      quoted: `${SESSION_COOKIE}="${token(a)}"`,
      'after another': `theme=dark; ${a.cookie!}`,
      forged,
      'forged first': `${forged}; ${a.cookie!}`,
      malformed: `${SESSION_COOKIE}=abc`,
    };
    const laneable = new Set(['none', 'empty', 'a', 'b', 'quoted', 'after another', 'big']);
    const etags: Record<string, string> = {
      none: NO_SESSION_ANSWER.etag,
      empty: NO_SESSION_ANSWER.etag,
      a: aRead.headers.etag as string,
      quoted: aRead.headers.etag as string,
      'after another': aRead.headers.etag as string,
      b: bRead.headers.etag as string,
      big: bigRead.headers.etag as string,
    };
    const validators = [undefined, etags.a, `W/${etags.a}`, etags.b, etags.big, NO_SESSION_ANSWER.etag, '*'];
    const paths = ['/api/cart', '/api/cart?x=1', '/api/cart/', '/API/CART'];
    const expected: string[] = [];
    const answeredByLane: string[] = [];
    for (const method of ['GET', 'HEAD', 'POST'])
      for (const path of paths)
        for (const [who, cookie] of Object.entries(cookies))
          for (const etag of validators)
            for (const coding of ['gzip', 'br', '']) {
              // A read another site's page made: the app answers it as any other (the browser keeps it from that page).
              const headers: Record<string, string> = { 'accept-encoding': coding, ...(coding ? {} : { 'sec-fetch-site': 'cross-site' }) };
              if (cookie) headers.cookie = cookie;
              if (etag) headers['if-none-match'] = etag;
              const what = `${method} ${path} [${who}] ${etag ?? ''} [${coding}]`;
              const byLane = await raw(laneOnly + path, headers, method);
              const byApp = await raw(appOnly + path, headers, method);
              const byShop = await raw(h.baseUrl + path, headers, method);
              const matches = etag === '*' || etag?.replace(/^W\//, '') === etags[who];
              if (method !== 'POST' && path === '/api/cart' && laneable.has(who) && (matches || coding || who !== 'big'))
                expected.push(what);
              const answer = (r: typeof byApp) => ({ what, status: r.status, headers: same(r.headers), body: r.body });
              // The shop as it runs (its lanes, then its app) answers as the app alone does.
              expect(answer(byShop)).toEqual(answer(byApp));
              if (byLane.status === LEFT) continue;
              answeredByLane.push(what);
              expect(answer(byLane)).toEqual(answer(byApp));
            }
    expect(answeredByLane).toEqual(expected);
    expect(expected.length).toBeGreaterThan(150);
  });

  it('gives each answer one log line as the app logs it, and one latency count', async () => {
    const s = await shopperWith(1);
    await raw(`${appOnly}/api/cart`, { cookie: s.cookie! });
    const count = async () => {
      const text = await registry.getSingleMetricAsString('pogs_http_request_duration_seconds');
      const match = /_count\{method="GET",route="\/api\/cart",status="200"\} (\d+)/.exec(text);
      return Number(match?.[1] ?? 0);
    };
    laneLines.length = 0;
    appLines.length = 0;
    const headers: Record<string, string> = { cookie: s.cookie! };
    const byApp = await raw(`${appOnly}/api/cart`, headers);
    const before = await count();
    const byLane = await raw(`${laneOnly}/api/cart`, headers);
    expect(byLane.status).toBe(200);
    expect(await count()).toBe(before + 1);
    const fields = ({ msg, method, route, status }: Line) => ({ msg, method, route, status });
    expect(laneLines.map(fields)).toEqual(appLines.map(fields));
    expect(laneLines).toEqual([expect.objectContaining({ reqId: byLane.headers['x-request-id'] })]);
    expect(appLines).toEqual([expect.objectContaining({ reqId: byApp.headers['x-request-id'] })]);
  });

  it('forgets a kept cart at once when any writer changes its lines: a paid checkout, a direct update, a swept session', async () => {
    const s = await shopperWith(2, 6);
    const headers = () => ({ cookie: s.cookie! });
    const kept = async () => (await raw(`${laneOnly}/api/cart`, headers())).status !== LEFT;
    const items = async () => (await s.cart()).items.map((i) => [i.variantId, i.quantity]);
    // The first read of a process starts hearing changes, and is not kept.
    await s.cart();
    expect(await items()).toEqual([
      [variants[6], 1],
      [variants[7], 1],
    ]);
    expect(await kept()).toBe(true);
    // Settlement removes a paid checkout's lines in its own transaction, not through the cart service.
    await h.database.db.transaction((trx) => removeBoughtLines(trx, s.sessionId!, [variants[6]!]));
    expect(await kept()).toBe(false);
    expect(await items()).toEqual([[variants[7], 1]]);
    expect(await kept()).toBe(true);
    await h.database.db('cart_items').where({ session_id: s.sessionId! }).update({ quantity: 3 });
    expect(await kept()).toBe(false);
    expect(await items()).toEqual([[variants[7], 3]]);
    // The sweep deletes an expired session with its lines.
    await h.database
      .db('sessions')
      .where({ id: s.sessionId! })
      .update({ expires_at: new Date(h.clock.now - 1000) });
    expect(await h.sessions.sweep()).toBeGreaterThan(0);
    expect(await kept()).toBe(false);
  });

  it('moves a cart’s version once per writing statement, by any writer, and leaves none for a deleted session', async () => {
    const s = await shopperWith(2, 10);
    const id = s.sessionId!;
    const version = async () => String((await h.database.db('cart_versions').where({ session_id: id }).first('version'))?.version);
    expect(await version()).toBe('2');
    // One statement over both lines: one step.
    await h.database.db('cart_items').where({ session_id: id }).update({ quantity: 2 });
    expect(await version()).toBe('3');
    // A statement that changes nothing moves nothing; a rolled-back change neither.
    await h.database.db('cart_items').where({ session_id: id, variant_id: 'none' }).delete();
    await h.database.db
      .transaction(async (trx) => {
        await trx('cart_items').where({ session_id: id }).delete();
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect(await version()).toBe('3');
    await h.database.db.transaction((trx) => removeBoughtLines(trx, id, [variants[10]!, variants[11]!]));
    expect(await version()).toBe('4');
    expect((await s.add({ variantId: variants[10]!, quantity: 1 })).status).toBe(200);
    expect(await version()).toBe('5');
    await h.database.db('sessions').where({ id }).delete();
    expect(await h.database.db('cart_versions').where({ session_id: id }).first()).toBeUndefined();
  });

  it('answers a cart as its lines are after adds, an update and a paid checkout’s removal ran at once, none failing', async () => {
    const s = await shopperWith(3, 12);
    const id = s.sessionId!;
    const lines = variants.slice(12, 15);
    for (let round = 0; round < 10; round++) {
      const results = await Promise.allSettled([
        ...lines.map((variantId) => s.add({ variantId, quantity: 1 })),
        h.database.db.transaction((trx) => removeBoughtLines(trx, id, lines)),
        h.database.db('cart_items').where({ session_id: id }).update({ quantity: 1 }),
      ]);
      for (const r of results) {
        if (r.status === 'rejected') throw r.reason;
        // An add may find a line at its limit or gone: a 4xx, never a deadlock's 500.
        if (r.value instanceof Response) expect(r.value.status).toBeLessThan(500);
      }
    }
    // The kept answer is the lines as they are.
    const rows = await h.database
      .db('cart_items')
      .where({ session_id: id })
      .orderBy('created_at')
      .orderBy('id')
      .select('variant_id', 'quantity');
    expect((await s.cart()).items.map((i) => ({ variant_id: i.variantId, quantity: i.quantity }))).toEqual(rows);
  });

  it("gives a stranger's cookie nothing of another cart: forged, tampered, expired, or another session's with this one's ETag", async () => {
    const [a, b] = [await shopperWith(1, 8), await shopperWith(1, 9)];
    await a.cart();
    const aRes = await raw(`${h.baseUrl}/api/cart`, { cookie: a.cookie! });
    const aEtag = aRes.headers.etag as string;
    const aLine = cartOf(aRes.body).items[0]!.id;
    // Kept, and given by the lane from now on.
    expect((await raw(`${laneOnly}/api/cart`, { cookie: a.cookie! })).status).toBe(200);
    const token = a.cookie!.slice(SESSION_COOKIE.length + 1);
    const tampered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    const askAs = async (cookie: string) => {
      const res = await raw(`${h.baseUrl}/api/cart`, { cookie, 'if-none-match': aEtag, 'accept-encoding': 'gzip' });
      expect(res.status, cookie).toBe(200);
      expect(res.headers.etag).not.toBe(aEtag);
      expect(res.body.toString()).not.toContain(aLine);
      return res;
    };
    for (const stranger of [randomBytes(32).toString('base64url'), tampered, token.toLowerCase(), `${token}x`]) {
      const res = await askAs(`${SESSION_COOKIE}=${stranger}`);
      expect(cartOf(res.body)).toEqual({ items: [], total: '0.00' });
      // The stale cookie is dropped.
      expect(String(res.headers['set-cookie'])).toMatch(new RegExp(`^${SESSION_COOKIE}=;`));
    }
    const asB = await askAs(b.cookie!);
    expect(cartOf(asB.body).items.map((i) => i.variantId)).toEqual([variants[9]]);
    // A's own cookie once the session has expired: an empty cart, never A's 304.
    h.clock.now += h.config.sessionTtlMs + 1000;
    try {
      expect(cartOf((await askAs(a.cookie!)).body)).toEqual({ items: [], total: '0.00' });
      expect((await raw(`${laneOnly}/api/cart`, { cookie: a.cookie!, 'if-none-match': aEtag })).status).toBe(LEFT);
    } finally {
      h.clock.now -= h.config.sessionTtlMs + 1000;
    }
  });
});
