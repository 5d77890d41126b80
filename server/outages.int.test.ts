// A shared service goes away and the shop stays up: with the database cut (a proxy in front of
// Postgres that the test cuts) the catalogue is served from memory, writes say the database is
// down, readiness stays 200 naming the database beside it, and the log says it once when the
// outage begins and once when it ends; with the chain's RPC hung, browsing and carts go on and
// readiness names the chain.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '../common/api';
import { ErrorCode } from '../common/errors';
import { registry } from './lib/metrics';
import { startHarness, type Harness } from './test/harness';
import { makeClientDir } from './test/shop-pages';
import { useTestChain } from './test/use-test-chain';

const POSTGRES = process.env.TEST_DATABASE_URL;

/** A TCP relay to Postgres: `cut()` ends every connection and refuses new ones (accepted, then closed), `restore()` relays again. */
async function startCuttableProxy(target: URL) {
  const sockets = new Set<net.Socket>();
  let cut = false;
  const server = net.createServer((client) => {
    if (cut) return void client.destroy();
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop).pipe(upstream);
    upstream.on('error', drop).on('close', drop).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const via = new URL(target);
  via.hostname = '127.0.0.1';
  via.port = String((server.address() as AddressInfo).port);
  return {
    url: via.toString(),
    cut() {
      cut = true;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      cut = false;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function capturingLogger() {
  const lines: Array<{ level: number; msg: string; dependency?: string }> = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line) as (typeof lines)[number]) });
  // warn is 40, info 30: the lines an operator reads by default.
  const about = (dependency: string, level: number) =>
    lines.filter((l) => l.level === level && l.dependency === dependency).map((l) => l.msg);
  return { logger, lines, about };
}

const metric = async (name: string, dependency: string) => {
  const text = await registry.getSingleMetricAsString(name);
  return Number(new RegExp(`^${name}\\{dependency="${dependency}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? NaN);
};

describe.skipIf(!POSTGRES)('the database cut', () => {
  const client = makeClientDir(
    '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>POGS Shop</title></head><body><div id="root"></div></body></html>',
  );
  let h: Harness;
  let proxy: Awaited<ReturnType<typeof startCuttableProxy>>;
  const log = capturingLogger();
  let product: Product;

  beforeAll(async () => {
    proxy = await startCuttableProxy(new URL(POSTGRES!));
    h = await startHarness('postgres', {
      postgresVia: proxy.url,
      logger: log.logger,
      env: { CATALOGUE_STALENESS_MS: '100' },
      staticDir: client.dir,
    });
    await h.catalogue.sync();
    await h.catalogue.seedDemoPrices();
    [product] = (await (await h.api('/api/products')).json()) as Product[];
  });
  afterAll(async () => {
    proxy?.restore();
    await h?.close();
    await proxy?.close();
    client.remove();
  });

  it('serves the catalogue from memory, says writes cannot be made, stays ready, and logs the outage once each way', async () => {
    // No series until the first outage.
    const outagesBefore = (await metric('pogs_dependency_outages_total', 'database')) || 0;
    proxy.cut();
    // Every kind of asker meets it: shoppers' reads and writes, the health routes, the catalogue's version poll.
    for (let round = 0; round < 10; round++) {
      const list = await h.api('/api/products', { headers: { 'accept-encoding': 'gzip' } });
      expect(list.status).toBe(200);
      expect(((await list.json()) as Product[]).length).toBeGreaterThan(0);
      const one = await h.api(`/api/products/${product.id}`);
      expect(one.status).toBe(200);
      expect(((await one.json()) as Product).id).toBe(product.id);
      // The pages too: the home and the product's page, carrying the product.
      for (const page of ['/', `/product/${product.id}`]) {
        const res = await h.api(page, { headers: { accept: 'text/html' } });
        expect({ page, status: res.status }).toEqual({ page, status: 200 });
        expect(await res.text()).toContain(JSON.stringify(product.title).slice(1, -1));
      }
      const write = await h.api('/api/cart/add', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ variantId: product.variants[0]!.id, quantity: 1 }),
      });
      expect(write.status).toBe(503);
      expect(write.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(((await write.json()) as { code: string }).code).toBe(ErrorCode.serviceUnavailable);
      const health = await h.api('/api/health');
      expect(health.status).toBe(503);
      expect(((await health.json()) as { outages: Array<{ dependency: string }> }).outages).toEqual([
        { dependency: 'database', since: expect.any(String) },
      ]);
      const ready = await h.api('/api/health/ready');
      expect({ status: ready.status, body: await ready.json() }).toEqual({
        status: 200,
        body: { status: 'ready', degraded: ['database'] },
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await metric('pogs_dependency_up', 'database')).toBe(0);
    expect(await metric('pogs_dependency_outages_total', 'database')).toBe(outagesBefore + 1);
    expect(log.about('database', 40)).toEqual([
      expect.stringMatching(/^the database is unreachable \(.+\); logged again when it answers$/),
    ]);
    expect(log.about('database', 30)).toEqual([]);
    // Nothing else warned or failed meanwhile, line by line.
    expect(log.lines.filter((l) => l.level >= 40 && l.dependency !== 'database')).toEqual([]);

    proxy.restore();
    // The next probe (readiness here; the outages' own recheck otherwise) sees it answer.
    const ready = await h.api('/api/health/ready');
    expect({ status: ready.status, body: await ready.json() }).toEqual({ status: 200, body: { status: 'ready' } });
    expect(log.about('database', 30)).toEqual([expect.stringMatching(/^the database answers again \(unreachable for .+\)$/)]);
    expect(await metric('pogs_dependency_up', 'database')).toBe(1);
    const write = await h.api('/api/cart/add', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ variantId: product.variants[0]!.id, quantity: 1 }),
    });
    expect(write.status).toBe(200);
  });

  it('notices the end by itself when nobody asks', async () => {
    proxy.cut();
    expect((await h.api('/api/health')).status).toBe(503);
    const ended = log.about('database', 30).length;
    proxy.restore();
    // The outages' recheck (every 5 s) finds it answering.
    const until = Date.now() + 15_000;
    while (log.about('database', 30).length === ended && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(log.about('database', 30)).toHaveLength(ended + 1);
  });
});

describe('the chain RPC hung', () => {
  const testChain = useTestChain();
  let h: Harness;
  let hung: http.Server;
  const held: http.ServerResponse[] = [];
  const log = capturingLogger();

  beforeAll(async () => {
    // Accepts every call and answers none.
    hung = http.createServer((_req, res) => void held.push(res));
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    h = await startHarness('pglite', {
      chain: testChain.chain,
      chainRpc: { rpcUrl: `http://127.0.0.1:${(hung.address() as AddressInfo).port}`, timeoutMs: 500 },
      env: { READY_CHAIN_PROBE_CACHE_MS: '0' },
      logger: log.logger,
    });
    await h.catalogue.sync();
    await h.catalogue.seedDemoPrices();
  });
  afterAll(async () => {
    for (const res of held) res.destroy();
    hung?.closeAllConnections();
    await new Promise((resolve) => hung?.close(resolve));
    await h?.close();
  });

  it('keeps browsing and carts going, stays ready naming the chain, and logs the outage once', async () => {
    const [product] = (await (await h.api('/api/products')).json()) as Product[];
    const cookie = { cookie: '' };
    for (let round = 0; round < 3; round++) {
      const ready = await h.api('/api/health/ready');
      expect({ status: ready.status, body: await ready.json() }).toEqual({ status: 200, body: { status: 'ready', degraded: ['chain'] } });
      expect((await h.api(`/api/products/${product!.id}`)).status).toBe(200);
      const added = await h.api('/api/cart/add', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(cookie.cookie ? { cookie: cookie.cookie } : {}) },
        body: JSON.stringify({ variantId: product!.variants[0]!.id, quantity: 1 }),
      });
      expect(added.status).toBe(200);
      cookie.cookie ||= added.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
    }
    expect(log.about('chain', 40)).toEqual([
      expect.stringMatching(/^the chain RPC is unreachable \(timeout after 500 ms\); logged again when it answers$/),
    ]);
    expect(await metric('pogs_dependency_up', 'chain')).toBe(0);
    // The cart drawer asks this before a shopper pays.
    expect(await (await h.api('/api/payments/status')).json()).toEqual({ paused: true });
  });
});
