// A shutdown on a real HTTP server (Koa, keep-alive sockets): the request in flight is answered,
// idle keep-alive connections are closed, new connections are refused, the jobs drain before the
// closing steps run in their order, and a second signal exits at once.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
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
