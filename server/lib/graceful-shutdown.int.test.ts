// A shutdown on a real HTTP server (Koa, keep-alive sockets): the request in flight is answered,
// idle keep-alive connections are closed, new connections are refused, the jobs drain before the
// closing steps run in their order, and a second signal exits at once. A streamed answer (the
// payments export's form: a Readable of batches) under way goes on to its last byte for a client
// that reads slowly, before anything closes; one still running when the grace ends is cut.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { shutdownOnSignals } from './graceful-shutdown';
import { createLogger } from './logger';

const logger = createLogger({ level: 'silent' });
const servers: http.Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.closeAllConnections();
});

/** A server whose GET /slow answers after `ms`, and GET /fast at once. */
async function start(slowMs: number) {
  const app = new Koa();
  app.use(async (ctx) => {
    if (ctx.path === '/slow') await new Promise((r) => setTimeout(r, slowMs));
    ctx.body = { path: ctx.path };
  });
  const server = http.createServer(app.callback());
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

function get(port: number, path: string, agent: http.Agent): Promise<{ status: number; connection?: string; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }));
      })
      .on('error', reject);
  });
}

describe('shutdownOnSignals', () => {
  it('answers the request in flight, closes idle keep-alive sockets, refuses new ones, then closes in order', async () => {
    const { server, port } = await start(400);
    const steps: string[] = [];
    const exits: number[] = [];
    let drained = false;
    const { shutdown } = shutdownOnSignals({
      server,
      graceMs: 5_000,
      logger,
      signals: false,
      onBegin: () => steps.push('not ready'),
      drain: async () => {
        await new Promise((r) => setTimeout(r, 100));
        drained = true;
        steps.push('jobs stopped');
      },
      close: [
        { name: 'chain', run: () => void steps.push(`chain (jobs stopped: ${drained})`) },
        { name: 'database', run: async () => void steps.push('database') },
      ],
      exit: (code) => exits.push(code),
    });
    // An idle keep-alive connection, and one request in flight.
    const idle = new http.Agent({ keepAlive: true });
    await get(port, '/fast', idle);
    const idleSocket = Object.values(idle.freeSockets).flat()[0]!;
    const idleClosed = new Promise((resolve) => idleSocket.once('close', resolve));
    const inFlight = get(port, '/slow', new http.Agent({ keepAlive: true }));
    await new Promise((r) => setTimeout(r, 50));

    const done = shutdown('SIGTERM');
    await idleClosed;
    const answered = await inFlight;
    expect(answered).toMatchObject({ status: 200, connection: 'close', body: '{"path":"/slow"}' });
    await done;
    expect(steps).toEqual(['not ready', 'jobs stopped', 'chain (jobs stopped: true)', 'database']);
    expect(exits).toEqual([0]);
    // No new connection is taken.
    await expect(get(port, '/fast', new http.Agent())).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(server.listening).toBe(false);
  });

  it('cuts what is still running when the grace is over, and still closes and exits 0', async () => {
    const { server, port } = await start(10_000);
    const exits: number[] = [];
    const closed: string[] = [];
    const plan = shutdownOnSignals({
      server,
      graceMs: 300,
      logger,
      signals: false,
      close: [{ name: 'database', run: () => void closed.push('database') }],
      exit: (code) => exits.push(code),
    });
    const inFlight = get(port, '/slow', new http.Agent()).catch((err: NodeJS.ErrnoException) => err.code);
    await new Promise((r) => setTimeout(r, 50));
    const began = Date.now();
    await plan.shutdown('SIGTERM');
    expect(Date.now() - began).toBeLessThan(10_000);
    expect(await inFlight).toBe('ECONNRESET');
    expect(closed).toEqual(['database']);
    expect(exits).toEqual([0]);
  });

  it('a second signal exits at once', async () => {
    const { server, port } = await start(2_000);
    const exits: number[] = [];
    void get(port, '/slow', new http.Agent()).catch(() => {});
    await new Promise((r) => setTimeout(r, 50));
    const plan = shutdownOnSignals({ server, graceMs: 5_000, logger, signals: false, close: [], exit: (code) => exits.push(code) });
    void plan.shutdown('SIGTERM');
    await new Promise((r) => setTimeout(r, 20));
    expect(exits).toEqual([]);
    void plan.shutdown('SIGINT');
    expect(exits).toEqual([1]);
  });
});

describe('behind a proxy, a shutdown first stays open while unready', () => {
  it('answers new connections during the delay, then refuses them', async () => {
    const { server, port } = await start(10);
    const exits: number[] = [];
    let unready = false;
    const plan = shutdownOnSignals({
      server,
      graceMs: 5_000,
      unreadyDelayMs: 600,
      logger,
      signals: false,
      onBegin: () => (unready = true),
      close: [],
      exit: (code) => exits.push(code),
    });
    const done = plan.shutdown('SIGTERM');
    await new Promise((r) => setTimeout(r, 100));
    expect(unready).toBe(true);
    // A proxy that has not noticed yet still gets an answer.
    expect(await get(port, '/fast', new http.Agent())).toMatchObject({ status: 200 });
    await done;
    await expect(get(port, '/fast', new http.Agent())).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(exits).toEqual([0]);
  });
});

/**
 * A server streaming GET /export as the payments export does (a Readable of batches, one chunk per
 * batch): `batches` chunks of `batchBytes`, each line numbered, `null` for a stream that never
 * ends (a batch every 20 ms). `produced` resolves once its last batch is handed to Koa.
 */
async function startStreaming(batches: number | null, batchBytes: number) {
  let producedAll!: () => void;
  const produced = new Promise<void>((resolve) => (producedAll = resolve));
  const app = new Koa();
  app.use(async (ctx) => {
    async function* chunks(): AsyncGenerator<string> {
      for (let i = 0; batches === null || i < batches; i++) {
        if (batches === null) await new Promise((r) => setTimeout(r, 20));
        yield `batch ${String(i).padStart(6, '0')} `.padEnd(batchBytes - 2, 'x') + '\r\n';
      }
      producedAll();
    }
    ctx.type = 'text/csv';
    ctx.body = Readable.from(chunks());
  });
  const server = http.createServer(app.callback());
  // A proxy's keep-alive is often longer than Node's 5 s: the shutdown must not wait for it.
  server.keepAliveTimeout = 60_000;
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, produced };
}

/** GET /export read slowly (a pause after every chunk), noting when it ended and when the server closed the connection. */
function slowRead(port: number, agent: http.Agent, events: string[], started: (res: http.IncomingMessage) => void) {
  return new Promise<{ bytes: number; complete: boolean; connection?: string; body: string }>((resolve) => {
    http
      .get({ host: '127.0.0.1', port, path: '/export', agent }, (res) => {
        const parts: Buffer[] = [];
        res.socket.once('end', () => events.push('server closed the connection'));
        res.on('data', (c: Buffer) => {
          parts.push(c);
          res.pause();
          setTimeout(() => res.resume(), 2);
        });
        const done = () => {
          const body = Buffer.concat(parts).toString();
          resolve({ bytes: body.length, complete: res.complete, connection: res.headers.connection, body });
        };
        res.once('end', () => {
          events.push('client read the end');
          done();
        });
        res.once('aborted', done);
        res.once('error', done);
        started(res);
      })
      .on('error', () => resolve({ bytes: 0, complete: false, body: '' }));
  });
}

describe('a streamed answer during a shutdown', () => {
  it('goes on to its last byte for a slow reader, its connection closed then, before anything is closed', async () => {
    // 24 MiB, more than the sockets' buffers hold: the client is still reading when the shutdown begins.
    const batches = 48;
    const batchBytes = 512 * 1024;
    const { server, port, produced } = await startStreaming(batches, batchBytes);
    const events: string[] = [];
    const exits: number[] = [];
    const graceMs = 15_000;
    const plan = shutdownOnSignals({
      server,
      graceMs,
      logger,
      signals: false,
      close: [
        {
          name: 'database',
          run: () => {
            // What the client's HTTP parser had received by then (its reader may still be catching up).
            clientHadAll = client?.complete ?? false;
            events.push('database closed');
          },
        },
      ],
      exit: (code) => exits.push(code),
    });
    let shutdown!: Promise<void>;
    let client: http.IncomingMessage | undefined;
    let clientHadAll = false;
    const began = Date.now();
    const read = slowRead(port, new http.Agent({ keepAlive: true }), events, (res) => {
      client = res;
      // Once the server has ended the answer (its last batch written, the rest waiting in buffers
      // for this slow reader): the moment that used to cut the download short.
      void produced.then(() => {
        events.push('shutdown');
        shutdown = plan.shutdown('SIGTERM');
      });
    });
    const got = await read;
    await shutdown;
    expect(got.complete).toBe(true);
    expect(got.bytes).toBe(batches * batchBytes);
    expect(got.body.endsWith(`batch ${String(batches - 1).padStart(6, '0')} `.padEnd(batchBytes - 2, 'x') + '\r\n')).toBe(true);
    // The client had received all of it before the resources closed, and the server let the
    // connection go as soon as it was written, without waiting for the keep-alive timeout or the grace.
    expect(clientHadAll).toBe(true);
    expect(events[0]).toBe('shutdown');
    expect(events.slice(1).sort()).toEqual(['client read the end', 'database closed', 'server closed the connection']);
    expect(Date.now() - began).toBeLessThan(graceMs / 2);
    expect(exits).toEqual([0]);
  });

  it('started while the shutdown waits unready, is answered with Connection: close and whole', async () => {
    const { server, port } = await startStreaming(8, 256 * 1024);
    const events: string[] = [];
    const plan = shutdownOnSignals({ server, graceMs: 10_000, unreadyDelayMs: 300, logger, signals: false, close: [], exit: () => {} });
    const done = plan.shutdown('SIGTERM');
    const got = await slowRead(port, new http.Agent({ keepAlive: true }), events, () => {});
    expect(got).toMatchObject({ complete: true, bytes: 8 * 256 * 1024, connection: 'close' });
    await done;
    expect(events.sort()).toEqual(['client read the end', 'server closed the connection']);
  });

  it('is cut when the grace ends while it still runs, and the shutdown goes on to close and exit 0', async () => {
    const { server, port } = await startStreaming(null, 16 * 1024);
    const events: string[] = [];
    const exits: number[] = [];
    const plan = shutdownOnSignals({
      server,
      graceMs: 500,
      logger,
      signals: false,
      close: [{ name: 'database', run: () => void events.push('database closed') }],
      exit: (code) => exits.push(code),
    });
    let shutdown!: Promise<void>;
    const read = slowRead(port, new http.Agent({ keepAlive: true }), events, () => (shutdown = plan.shutdown('SIGTERM')));
    const got = await read;
    const began = Date.now();
    await shutdown;
    expect(got.complete).toBe(false);
    expect(got.bytes).toBeGreaterThan(0);
    expect(events).not.toContain('client read the end');
    expect(events).toContain('database closed');
    expect(Date.now() - began).toBeLessThan(5_000);
    expect(exits).toEqual([0]);
  });
});
