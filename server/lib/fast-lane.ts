/**
 * The busiest reads answered ahead of Koa's middleware: stored answers (lib/precompressed.ts) that
 * are in memory, ready in a coding the client takes, or a 304; a shopper's kept cart likewise
 * (modules/cart/lane.ts). Such a request needs nothing the
 * middleware does but its request id, its log line and histogram, and the security headers, and
 * those are the same functions here (request-log.ts, security-headers.ts), so the answer is the one
 * the app's own route gives, byte for byte but the request id (a test holds them equal). Anything
 * else (a rebuild to wait for, a coding to compress on the fly, an unknown id, other methods) goes
 * through the app as usual.
 *
 * Why: on a busy route Koa's context, its chain of middleware and the router cost the server about
 * twice what the answer itself does (bench/README.md, "products-http.ts").
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import Koa from 'koa';
import type { Logger } from './logger';
import { storedAnswerHeaders, storedReply, type Precompressed } from './precompressed';
import { recordRequest, requestIdOf } from './request-log';
import type { SecurityHeaderSet } from './security-headers';

/**
 * The stored answer a request's path (with its query, as sent) names, and the route template it is
 * logged under, when it can be given at once. A finder answers only addresses it knows the app
 * answers the same way: a query the app has not read and checked itself is left to it.
 */
export type StoredRead = (path: string) => { route: string; answer: Precompressed } | undefined;

/**
 * Answers the request and says true, or leaves it untouched and says false; or says so later (a
 * promise), for an answer that needs one small read first. A lane that says later reads nothing of
 * the request, so the app can still take it.
 */
export type Lane = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;

/** A Koa app whose lanes see each request first; what none of them answers goes through the app. */
export class FastLaneApp extends Koa {
  private readonly lanes: Lane[] = [];

  addLane(lane: Lane): void {
    this.lanes.push(lane);
  }

  override callback(): ReturnType<Koa['callback']> {
    const app = super.callback();
    const lanes = this.lanes;
    // Reported as the app reports its errors; the app answers unless the lane had begun to.
    const failed = (err: unknown, req: IncomingMessage, res: ServerResponse): Promise<void> => {
      this.emit('error', err);
      if (!res.headersSent) return app(req, res);
      res.destroy();
      return Promise.resolve();
    };
    const from = (first: number, req: IncomingMessage, res: ServerResponse): Promise<void> => {
      try {
        for (let i = first; i < lanes.length; i++) {
          const taken = lanes[i]!(req, res);
          if (taken === true) return Promise.resolve();
          if (taken !== false)
            return taken.then(
              (done) => (done ? undefined : from(i + 1, req, res)),
              (err: unknown) => failed(err, req, res),
            );
        }
      } catch (err) {
        return failed(err, req, res);
      }
      return app(req, res);
    };
    return (req, res) => {
      // The app's own server is node:http (main.ts); an HTTP/2 request goes through the app.
      if ('stream' in req) return app(req, res);
      return from(0, req, res as ServerResponse);
    };
  }
}

const one = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value.join(', ') : value);

/** What every lane needs to answer as the app's middleware would. */
export interface LaneOptions {
  security: SecurityHeaderSet;
  logger: Logger;
  trustProxyId: boolean;
}

/**
 * Answers ahead of the app as its middleware would: the request id, the security headers around the
 * route's own `headers` (name, value, name, value…), no body to a HEAD, the log line and the
 * latency histogram (`started`: when the lane took the request).
 */
export function answerAhead(
  opts: LaneOptions,
  req: IncomingMessage,
  res: ServerResponse,
  answer: { started: bigint; route: string; status: number; headers: string[]; body?: Buffer },
): void {
  const method = req.method ?? 'GET';
  const reqId = requestIdOf(one(req.headers['x-request-id']), opts.trustProxyId);
  const headers: string[] = ['X-Request-Id', reqId];
  const url = req.url ?? '';
  const query = url.indexOf('?');
  for (const [name, value] of opts.security.before(query < 0 ? url : url.slice(0, query))) headers.push(name, value);
  for (const item of answer.headers) headers.push(item);
  for (const [name, value] of opts.security.policy(undefined)) headers.push(name, value);
  res.writeHead(answer.status, headers);
  res.end(method === 'GET' ? answer.body : undefined);
  const seconds = Number(process.hrtime.bigint() - answer.started) / 1e9;
  recordRequest(opts.logger, { reqId, method, route: answer.route, status: answer.status, seconds });
}

export function storedReadLane(opts: LaneOptions & { find: StoredRead }): Lane {
  const { find } = opts;
  return (req, res) => {
    const { method } = req;
    if (method !== 'GET' && method !== 'HEAD') return false;
    const url = req.url ?? '';
    const started = process.hrtime.bigint();
    const found = find(url);
    if (!found) return false;
    const reply = storedReply(found.answer, req.headers['accept-encoding'] ?? '', one(req.headers['if-none-match']));
    // No stored form the client takes is ready: the app compresses this one on the fly, or sends it plain.
    if (reply.status === 200 && !reply.coding) return false;
    const headers: string[] = [];
    for (const [name, value] of storedAnswerHeaders(found.answer)) headers.push(name, value);
    headers.push('Vary', 'Accept-Encoding');
    if (reply.status === 200) {
      headers.push('Content-Type', 'application/json; charset=utf-8');
      headers.push('Content-Encoding', reply.coding, 'Content-Length', String(reply.body.length));
    }
    answerAhead(opts, req, res, {
      started,
      route: found.route,
      status: reply.status,
      headers,
      body: reply.status === 200 ? reply.body : undefined,
    });
    return true;
  };
}
