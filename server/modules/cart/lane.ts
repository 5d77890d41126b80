/**
 * GET /api/cart answered ahead of Koa's middleware (lib/fast-lane.ts) when the answer is in memory:
 * no session cookie (the empty cart), or the cookie of a session this process knows to be live
 * without the database whose cart answer is kept and current (answers.ts: at once on PGlite, after
 * reading the cart's version on Postgres). Its headers, body,
 * request id, log line and histogram are the app's route's (a test holds them equal). Anything
 * else goes through the app: a cookie it does not know (forged, expired, another instance's, its
 * expiry due a refresh: the app reads the database and drops a stale cookie), a cart not kept, a
 * catalogue rebuild to wait for, an answer the app would compress on the fly (its client takes
 * neither stored coding), another method or address.
 */
import { COMPRESSION_THRESHOLD } from '../../lib/compression';
import { answerAhead, type Lane, type LaneOptions } from '../../lib/fast-lane';
import { sessionToken, type SessionService } from '../session';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { cartAnswerHeaders, cartReply, NO_SESSION_ANSWER, type CartAnswer } from './answers';
import type { CartService } from './service';

/** The cart's address, also the route template its log line names (the router's). */
const PATH = '/api/cart';

export function cartReadLane(opts: LaneOptions & { carts: Pick<CartService, 'answers'>; sessions: SessionService }): Lane {
  const { carts, sessions } = opts;
  return (req, res) => {
    const { method } = req;
    if ((method !== 'GET' && method !== 'HEAD') || req.url !== PATH) return false;
    const started = process.hrtime.bigint();
    const token = sessionToken(req.headers.cookie);
    if (!token) return give(NO_SESSION_ANSWER, req, res, started);
    const sessionId = sessions.knownId(token);
    const kept = sessionId ? carts.answers.ready(sessionId) : undefined;
    if (kept instanceof Promise) return kept.then((answer) => give(answer, req, res, started));
    return give(kept, req, res, started);
  };

  /** Gives `answer` as the app's route would, and says true; or says false (the app answers). */
  function give(answer: CartAnswer | undefined, req: IncomingMessage, res: ServerResponse, started: bigint): boolean {
    if (!answer) return false;
    const headers: string[] = [];
    for (const [name, value] of cartAnswerHeaders(answer)) headers.push(name, value);
    headers.push('Vary', 'Accept-Encoding, Cookie');
    const reply = cartReply(answer, req.headers['accept-encoding'] ?? '', req.headers['if-none-match']);
    // The app compresses this one on the fly (a coding not stored), or sends it plain.
    if (reply.status === 200 && !reply.coding && answer.body.length >= COMPRESSION_THRESHOLD) return false;
    if (reply.status === 200) {
      headers.push('Content-Type', 'application/json; charset=utf-8');
      if (reply.coding) headers.push('Content-Encoding', reply.coding);
      headers.push('Content-Length', String(reply.body.length));
    }
    answerAhead(opts, req, res, {
      started,
      route: PATH,
      status: reply.status,
      headers,
      body: reply.status === 200 ? reply.body : undefined,
    });
    return true;
  }
}
