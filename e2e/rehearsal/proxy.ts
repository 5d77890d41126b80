/**
 * The deploy topology's TLS proxy (Caddy in docker-compose), played by a small Node HTTP proxy
 * without TLS: round-robin over the app instances, an active health check of each
 * (`GET /api/health/ready`, as Caddy's `health_uri`), and what Caddy does when an upstream fails:
 *
 *  - an instance whose readiness does not answer 200 gets no requests until it does again;
 *  - a request whose connection to an instance could not be made (refused: the process is gone)
 *    goes to the next instance, whatever its method; a request that was sent and got no answer
 *    (the connection reset or closed) is tried again elsewhere only when it is a GET or a HEAD,
 *    else answered 502: the instance may have acted on it;
 *  - either way the instance is counted unhealthy until its next good health check.
 *
 * It appends the client's address to `X-Forwarded-For` (the instances trust one hop), says
 * `X-Forwarded-Proto` and `X-Forwarded-Host`, and gives each request an `X-Request-Id` (as
 * deploy/Caddyfile does).
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Upstream {
  name: string;
  port: number;
  /** What the last health check (or a failed request) found. */
  healthy: boolean;
  /** Requests this instance answered through the proxy. */
  answered: number;
}

/** What happened to a request the proxy could not hand to the first instance it chose. */
export interface ProxyIncident {
  at: number;
  upstream: string;
  method: string;
  path: string;
  error: string;
  /** Sent to another instance, or answered 502 by the proxy. */
  outcome: 'retried' | 'bad gateway';
}

export interface Proxy {
  url: string;
  upstreams: Upstream[];
  incidents: ProxyIncident[];
  /** Resolves once the named instance's health checks say `healthy` (checked every HEALTH_EVERY_MS). */
  waitFor(name: string, healthy: boolean, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

const HEALTH_EVERY_MS = 250;
const HEALTH_TIMEOUT_MS = 1_000;
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer'];

interface UpstreamAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** One request to an instance on a fresh connection; the error says whether the connection was ever made. */
function forward(port: number, method: string, path: string, headers: http.OutgoingHttpHeaders, body: Buffer): Promise<UpstreamAnswer> {
  return new Promise((resolve, reject) => {
    let connected = false;
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', (err) => reject(Object.assign(err, { connected })));
    });
    req.on('socket', (socket) => socket.once('connect', () => (connected = true)));
    req.on('error', (err) => reject(Object.assign(err, { connected })));
    req.end(body);
  });
}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export async function startProxy(opts: { port: number; upstreams: Array<{ name: string; port: number }> }): Promise<Proxy> {
  const upstreams: Upstream[] = opts.upstreams.map((u) => ({ ...u, healthy: false, answered: 0 }));
  const incidents: ProxyIncident[] = [];
  let next = 0;
  const url = `http://localhost:${opts.port}`;

  const check = async (u: Upstream) => {
    u.healthy = await new Promise<boolean>((resolve) => {
      const req = http.get(
        { host: '127.0.0.1', port: u.port, path: '/api/health/ready', agent: false, timeout: HEALTH_TIMEOUT_MS },
        (res) => {
          res.resume();
          resolve(res.statusCode === 200);
        },
      );
      req.on('timeout', () => req.destroy(new Error('health check timed out')));
      req.on('error', () => resolve(false));
    });
  };
  let checking = true;
  const checks = (async () => {
    while (checking) {
      await Promise.all(upstreams.map(check));
      await new Promise((resolve) => setTimeout(resolve, HEALTH_EVERY_MS));
    }
  })();

  const server = http.createServer(async (req, res) => {
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const body = await readBody(req);
    const headers: http.OutgoingHttpHeaders = { ...req.headers };
    for (const name of HOP_BY_HOP) delete headers[name];
    const client = req.socket.remoteAddress ?? '';
    headers['x-forwarded-for'] = req.headers['x-forwarded-for'] ? `${req.headers['x-forwarded-for']}, ${client}` : client;
    headers['x-forwarded-proto'] = 'http';
    headers['x-forwarded-host'] = req.headers.host ?? '';
    headers['x-request-id'] = randomUUID();
    headers['content-length'] = String(body.length);

    const tried = new Set<Upstream>();
    for (;;) {
      const ready = upstreams.filter((u) => u.healthy && !tried.has(u));
      if (!ready.length) {
        res.writeHead(503, { 'content-type': 'application/json' }).end('{"code":"no-upstream","message":"no instance is ready"}');
        return;
      }
      const upstream = ready[next++ % ready.length]!;
      tried.add(upstream);
      try {
        const answer = await forward(upstream.port, method, path, headers, body);
        upstream.answered++;
        const out: http.OutgoingHttpHeaders = { ...answer.headers };
        for (const name of HOP_BY_HOP) delete out[name];
        res.writeHead(answer.status, out).end(answer.body);
        return;
      } catch (err) {
        upstream.healthy = false;
        const { connected, code, message } = err as NodeJS.ErrnoException & { connected: boolean };
        const retry = !connected || method === 'GET' || method === 'HEAD';
        incidents.push({
          at: Date.now(),
          upstream: upstream.name,
          method,
          path,
          error: `${code ?? message}${connected ? '' : ' (connecting)'}`,
          outcome: retry ? 'retried' : 'bad gateway',
        });
        if (!retry) {
          res.writeHead(502, { 'content-type': 'application/json' }).end('{"code":"bad-gateway","message":"the instance did not answer"}');
          return;
        }
      }
    }
  });
  await new Promise<void>((resolve) => server.listen(opts.port, '127.0.0.1', resolve));
  if ((server.address() as AddressInfo).port !== opts.port) throw new Error('the proxy did not bind its port');

  return {
    url,
    upstreams,
    incidents,
    async waitFor(name, healthy, timeoutMs = 60_000) {
      const upstream = upstreams.find((u) => u.name === name)!;
      const deadline = Date.now() + timeoutMs;
      while (upstream.healthy !== healthy) {
        if (Date.now() > deadline) throw new Error(`the proxy never found ${name} ${healthy ? 'ready' : 'unready'} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async stop() {
      checking = false;
      await checks;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
