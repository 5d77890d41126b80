// What an operator relies on, on the real server: the request id and the one log line per request,
// liveness and readiness (a hung chain RPC, a lagging watcher, a dead database, a shutdown), the
// Prometheus metrics after a real payment, and faults answered clearly: an oversized body closes
// the connection after its 413, and a lost database connection is a 503 with Retry-After (a read
// retried once on a fresh connection), never a 500.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../common/errors';
import type { Variant } from '../../common/api';
import { DEV_ACCOUNTS } from '../chain/local-chain';
import { loadConfig } from '../config';
import { startMetricsServer, observeGauges } from '../lib/metrics';
import { gaugeSources } from './observability';
import { startHarness, type Harness } from '../test/harness';
import { payingKit } from '../test/paying';
import { Shopper } from '../test/shopper';
import { useTestChain } from '../test/use-test-chain';
import { bumpCatalogueVersion } from '../modules/catalogue';

const testChain = useTestChain();
const BUYER = DEV_ACCOUNTS[2]!;

/** A logger whose JSON lines the test reads. */
function recordingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

async function listen(server: http.Server | net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return (server.address() as AddressInfo).port;
}

async function someVariant(h: Harness): Promise<Variant> {
  await h.catalogue.sync();
  await h.catalogue.seedDemoPrices();
  const variant = (await h.catalogue.list()).products.flatMap((p) => p.variants).find((v) => !v.isSoldOut)!;
  // No stock limit: every test may buy it.
  await h.database.db('variants').where({ shopify_id: variant.id }).update({ available_stock: null, inventory_quantity: null });
  await bumpCatalogueVersion(h.database.db);
  return variant;
}

describe('the request id and the request log', () => {
  let h: Harness;
  const log = recordingLogger();
  beforeAll(async () => {
    h = await startHarness('pglite', { logger: log.logger, env: { TRUSTED_PROXY_HOPS: '1' } });
    await someVariant(h);
  });
  afterAll(() => h?.close());

  it('makes an id, echoes it, and logs one line with the route template, never the path', async () => {
    const products = (await (await h.api('/api/products')).json()) as Array<{ id: string }>;
    const res = await h.api(`/api/products/${products[0]!.id}`);
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const line = log.lines.find((l) => l.reqId === id)!;
    expect(line).toMatchObject({ msg: 'request', method: 'GET', route: '/api/products/:id', status: 200 });
    expect(typeof line.ms).toBe('number');
    expect(JSON.stringify(line)).not.toContain(products[0]!.id);
  });

  it("takes a trusted proxy's X-Request-Id when it is a plain token, and makes one otherwise", async () => {
    const given = await h.api('/api/health/live', { headers: { 'X-Request-Id': 'edge-7f3a.42' } });
    expect(given.headers.get('x-request-id')).toBe('edge-7f3a.42');
    const odd = await h.api('/api/health/live', { headers: { 'X-Request-Id': 'two words' } });
    expect(odd.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a 404 is logged as such, with no route to name', async () => {
    const res = await h.api('/api/no-such-thing/0x1234567890abcdef');
    const line = log.lines.find((l) => l.reqId === res.headers.get('x-request-id'))!;
    expect(line).toMatchObject({ route: '(no route)', status: 404 });
    expect(JSON.stringify(line)).not.toContain('0x1234567890abcdef');
  });
});

describe('a server reached without a proxy of its own', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness('pglite');
  });
  afterAll(() => h?.close());

  it("ignores a client's X-Request-Id (anyone could write one into another's log)", async () => {
    const res = await h.api('/api/health/live', { headers: { 'X-Request-Id': 'forged-by-a-stranger' } });
    expect(res.headers.get('x-request-id')).not.toBe('forged-by-a-stranger');
  });
});

/** Past the chain probe's remembered answer (READY_CHAIN_PROBE_CACHE_MS below). */
const PAST_CACHE_MS = 400;

describe('liveness and readiness', () => {
  let h: Harness;
  let hung: http.Server;
  const pendingRequests: http.ServerResponse[] = [];
  beforeAll(async () => {
    // Accepts connections and answers nothing, until told to relay.
    let relayTo: string | null = null;
    hung = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        if (!relayTo) {
          pendingRequests.push(res);
          return;
        }
        const answer = await fetch(relayTo, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: Buffer.concat(chunks),
        });
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
      });
    });
    const port = await listen(hung);
    relayTo = testChain.chain.rpcUrl;
    h = await startHarness('pglite', {
      chain: testChain.chain,
      chainRpc: { rpcUrl: `http://127.0.0.1:${port}`, timeoutMs: 1_000 },
      env: { READY_MAX_WATCHER_LAG_BLOCKS: '3', READY_CHAIN_PROBE_CACHE_MS: '300' },
    });
    (hung as http.Server & { relay?: (to: string | null) => void }).relay = (to) => (relayTo = to);
  });
  afterAll(async () => {
    for (const res of pendingRequests) res.destroy();
    hung?.closeAllConnections();
    await new Promise((r) => hung?.close(r));
    await h?.close();
  });
  const relay = (to: string | null) => (hung as http.Server & { relay: (to: string | null) => void }).relay(to);
  const ready = async () => {
    const res = await h.api('/api/health/ready');
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('is live and ready when the database, the chain, the watcher and Shopify answer', async () => {
    expect(await (await h.api('/api/health/live')).json()).toEqual({ status: 'ok' });
    await h.payments!.watcher.tick();
    expect(await ready()).toEqual({ status: 200, body: { status: 'ready' } });
    expect(await (await h.api('/api/payments/status')).json()).toEqual({ paused: false });
  });

  it('stays ready while the RPC hangs, naming the chain beside it; live all along', async () => {
    relay(null);
    await new Promise((r) => setTimeout(r, PAST_CACHE_MS)); // past the remembered answer
    const began = Date.now();
    const answer = await ready();
    expect(answer).toEqual({ status: 200, body: { status: 'ready', degraded: ['chain'] } });
    // Paying is paused meanwhile (the cart drawer says so), and only paying.
    expect(await (await h.api('/api/payments/status')).json()).toEqual({ paused: true });
    expect(Date.now() - began).toBeLessThan(2 * 3_000);
    expect((await h.api('/api/health/live')).status).toBe(200);
    relay(testChain.chain.rpcUrl);
    await new Promise((r) => setTimeout(r, PAST_CACHE_MS));
    expect(await ready()).toEqual({ status: 200, body: { status: 'ready' } });
    expect(await (await h.api('/api/payments/status')).json()).toEqual({ paused: false });
  });

  it('names the watcher while it is further behind the head than allowed, and nothing once it caught up', async () => {
    await h.payments!.watcher.tick();
    await testChain.provider.send('anvil_mine', ['0x5']);
    await new Promise((r) => setTimeout(r, PAST_CACHE_MS));
    expect(await ready()).toEqual({ status: 200, body: { status: 'ready', degraded: ['watcher'] } });
    await h.payments!.watcher.tick();
    await new Promise((r) => setTimeout(r, PAST_CACHE_MS));
    expect(await ready()).toEqual({ status: 200, body: { status: 'ready' } });
  });

  it('is not ready once a shutdown began', async () => {
    h.services.readiness.markShuttingDown();
    expect(await ready()).toEqual({ status: 503, body: { status: 'unready', failing: ['shutting down'] } });
  });
});

describe('readiness without a database', () => {
  it('is not ready before its catalogue could be read (nothing to serve), naming the database beside it; live all along', async () => {
    const h = await startHarness('pglite');
    await h.database.db.destroy();
    const res = await h.api('/api/health/ready');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'unready', failing: ['catalogue'], degraded: ['database'] });
    expect((await h.api('/api/health/live')).status).toBe(200);
    await h.close().catch(() => {});
  });
});

describe('metrics', () => {
  let h: Harness;
  let metricsPort: number;
  let metricsServer: http.Server;
  beforeAll(async () => {
    h = await startHarness('pglite', { chain: testChain.chain });
    observeGauges(gaugeSources(h.services));
    metricsServer = await startMetricsServer({ port: 0, host: '127.0.0.1', logger: h.services.logger });
    metricsPort = (metricsServer.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((r) => metricsServer?.close(r));
    await h?.close();
  });
  const scrape = async () => (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();

  it('counts a payment by outcome, the request that made it, the outbox and the watcher lag, in Prometheus text', async () => {
    const variant = await someVariant(h);
    const pay = payingKit(h, testChain);
    const s = new Shopper(h);
    const checkout = await pay.checkout(s, variant.id, BUYER);
    const txHash = await pay.send(BUYER, { value: BigInt(checkout.amountWei) });
    const order = await pay.createOrder(s, { checkoutId: checkout.id, transactionHash: txHash });
    expect(order.status).toBe(201);
    await h.payments!.watcher.tick();

    const text = await scrape();
    expect(text).toMatch(/^pogs_payments_total\{outcome="paid"\} 1$/m);
    expect(text).toMatch(/^pogs_http_request_duration_seconds_count\{method="POST",route="\/api\/orders\/create",status="201"\} 1$/m);
    expect(text).toMatch(/^pogs_outbox_jobs\{job="[a-z-]+",state="pending"\} 1$/m);
    expect(text).toMatch(/^pogs_watcher_lag_blocks 0$/m);
    expect(text).toMatch(/^pogs_process_cpu_user_seconds_total /m);
    // Low cardinality: no address, hash or id in any label.
    expect(text).not.toContain(txHash.slice(2, 12));
    expect(text).not.toContain(checkout.id);
  });

  it('binds loopback unless METRICS_HOST says otherwise, and then binds that address', async () => {
    // The default, as main.ts passes it: this machine only (the listener has no authentication).
    const byDefault = await startMetricsServer({ port: 0, host: loadConfig({}).metricsHost, logger: h.services.logger });
    const configured = await startMetricsServer({
      port: 0,
      host: loadConfig({ METRICS_HOST: '0.0.0.0' }).metricsHost,
      logger: h.services.logger,
    });
    try {
      expect((byDefault.address() as AddressInfo).address).toBe('127.0.0.1');
      expect((configured.address() as AddressInfo).address).toBe('0.0.0.0');
      // Reached on loopback either way.
      for (const s of [byDefault, configured]) {
        expect((await fetch(`http://127.0.0.1:${(s.address() as AddressInfo).port}/metrics`)).status).toBe(200);
      }
    } finally {
      for (const s of [byDefault, configured]) await new Promise((r) => s.close(r));
    }
  });

  it('answers only GET /metrics, and is not on the shop’s port', async () => {
    expect((await fetch(`http://127.0.0.1:${metricsPort}/`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { method: 'POST' })).status).toBe(404);
    expect((await h.api('/metrics')).headers.get('content-type')).not.toMatch(/text\/plain; version=0\.0\.4/);
  });
});

/** Sends a request with a body of `size` bytes on `socket` and reads the answer's status line and headers. */
function rawPost(socket: net.Socket, path: string, size: number, contentType = 'application/json'): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = '';
    const onData = (c: Buffer) => {
      answer += c.toString();
      const end = answer.indexOf('\r\n\r\n');
      if (end >= 0) {
        const length = Number(/content-length: (\d+)/i.exec(answer)?.[1] ?? 0);
        if (answer.length >= end + 4 + length) {
          socket.off('data', onData);
          resolve(answer);
        }
      }
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${contentType}\r\nContent-Length: ${size}\r\nConnection: keep-alive\r\n\r\n`,
    );
    const chunk = Buffer.alloc(64 * 1024, 'a');
    for (let sent = 0; sent < size; sent += chunk.length) socket.write(chunk.subarray(0, Math.min(chunk.length, size - sent)));
  });
}

describe('an oversized body', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness('pglite', { chain: testChain.chain });
  });
  afterAll(() => h?.close());

  it.each([
    ['a 2 MB webhook', '/api/webhooks/shopify', 2 * 1024 * 1024],
    ['a 100 KB cart request', '/api/cart/add', 100 * 1024],
  ])('%s: 413 with Connection: close, read whole, and the socket closed cleanly after it', async (_what, path, size) => {
    const port = Number(new URL(h.baseUrl).port);
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    let reset = false;
    socket.on('error', () => (reset = true));
    const closed = new Promise((r) => socket.once('close', r));
    const answer = await rawPost(socket, path, size);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
    expect(answer).toContain(ErrorCode.payloadTooLarge);
    await closed;
    expect(reset).toBe(false);
    // The next request, on a new connection, is answered as usual.
    expect((await h.api('/api/health/live')).status).toBe(200);
  });
});

/** A TCP relay to Postgres that can drop every connection and refuse the next ones. */
async function postgresRelay(target: URL) {
  const sockets = new Set<net.Socket>();
  let refuse = 0;
  const server = net.createServer((client) => {
    if (refuse > 0) {
      refuse--;
      client.destroy();
      return;
    }
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {});
    }
    client.pipe(upstream).pipe(client);
  });
  const port = await listen(server);
  const url = new URL(target);
  url.port = String(port);
  return {
    url: url.toString(),
    dropAll: () => {
      for (const s of sockets) s.destroy();
    },
    refuseNext: (n: number) => void (refuse = n),
    // A socket a client still holds would keep server.close waiting for ever: the relay cuts them.
    close: () =>
      new Promise((r) => {
        server.close(r);
        for (const s of sockets) s.destroy();
      }),
  };
}

/** The test's own read, once the pool has let go of the connections the relay dropped. */
async function settled<T>(read: () => Promise<T>): Promise<T> {
  await new Promise((r) => setTimeout(r, 200));
  return read().catch(read);
}

describe.runIf(process.env.TEST_DATABASE_URL)('a lost database connection (Postgres)', () => {
  let h: Harness;
  let relay: Awaited<ReturnType<typeof postgresRelay>>;
  const realUrl = process.env.TEST_DATABASE_URL!;
  beforeAll(async () => {
    relay = await postgresRelay(new URL(realUrl));
    process.env.TEST_DATABASE_URL = relay.url;
    try {
      h = await startHarness('postgres');
    } finally {
      process.env.TEST_DATABASE_URL = realUrl;
    }
    await someVariant(h);
  });
  afterAll(async () => {
    await h?.close();
    await relay?.close();
  });

  it('a read is tried once more on a fresh connection and answered', async () => {
    const s = new Shopper(h);
    const variant = (await h.catalogue.list()).products.flatMap((p) => p.variants).find((v) => !v.isSoldOut)!;
    expect((await s.add({ variantId: variant.id, quantity: 1 })).status).toBe(200);
    relay.dropAll();
    relay.refuseNext(1);
    const cart = await s.request('/api/cart');
    expect(cart.status).toBe(200);
    expect(((await cart.json()) as { items: unknown[] }).items).toHaveLength(1);
  });

  it('a write is answered 503 service-unavailable with Retry-After, never 500, and changes nothing', async () => {
    const s = new Shopper(h);
    const variant = (await h.catalogue.list()).products.flatMap((p) => p.variants).find((v) => !v.isSoldOut)!;
    expect((await s.add({ variantId: variant.id, quantity: 1 })).status).toBe(200);
    const before = await h.database.db('cart_items').count({ n: '*' }).first();
    relay.dropAll();
    relay.refuseNext(1);
    const res = await s.add({ variantId: variant.id, quantity: 1 });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(((await res.json()) as { code: string }).code).toBe(ErrorCode.serviceUnavailable);
    expect(await settled(() => h.database.db('cart_items').count({ n: '*' }).first())).toEqual(before);
  });

  it('while Postgres refuses every connection, reads and writes are 503 too', async () => {
    relay.dropAll();
    relay.refuseNext(1_000);
    try {
      const read = await h.api('/api/health');
      expect(read.status).toBe(503);
      const s = new Shopper(h);
      const variant = (await h.catalogue.list()).products.flatMap((p) => p.variants).find((v) => !v.isSoldOut)!;
      const write = await s.add({ variantId: variant.id, quantity: 1 });
      expect(write.status).toBe(503);
      expect(((await write.json()) as { code: string }).code).toBe(ErrorCode.serviceUnavailable);
    } finally {
      relay.refuseNext(0);
    }
  });
});
