/**
 * Rate limits on the public write routes and the routes that spend the shop's chain-RPC quota:
 * counted per client IP and per browser session in the app's own database, so every
 * server instance shares them. Each counter is one row, moved by one atomic upsert: a fixed window
 * that starts at a key's first request and ends at `resets_at`. A refused request is answered
 * `429 {code: "rate-limited"}` with `Retry-After`, before the route runs, so it creates no session,
 * no nonce, no checkout and makes no RPC call.
 */
import { rateLimitRefusals } from './metrics';
import { isIPv4, isIPv6 } from 'node:net';
import { Router } from '@koa/router';
import type { Context, Middleware } from 'koa';
import { ErrorCode } from '../../common/errors';
import type { Db } from '../db';
import { AppError } from './errors';
import type { Logger } from './logger';
import type { Outages } from './outages';

/** At most `max` requests in a window of `windowSeconds`, counted from the key's first request. */
export interface Limit {
  max: number;
  windowSeconds: number;
}

export interface RateLimitRule {
  /** `METHOD /path`, written as the routers declare it (`:param` for a path segment). */
  route: string;
  /** Short and stable: the start of the rule's counter keys. */
  name: string;
  /** Per client IP (an IPv6 client's /64). Generous: a carrier or a venue puts many shoppers behind one IP. */
  ip: readonly Limit[];
  /** Per browser session, when the request has a live one: a single shopper's pace. */
  session: readonly Limit[];
}

const perMinute = (max: number): Limit => ({ max, windowSeconds: 60 });
const perHour = (max: number): Limit => ({ max, windowSeconds: 3600 });

/**
 * Every rate limit of the API, in one place (docs/api.md, "Rate limits", lists them too). A request must be
 * within every limit of its route; `RATE_LIMIT_SCALE` multiplies them all (0 turns them off).
 *
 * - cart/add and auth/nonce create a session (and a nonce) for a newcomer: the hourly IP limits
 *   bound the rows one stranger can make.
 * - checkout holds an exact amount (a session keeps at most 5 payable); it reserves no stock.
 * - orders/create costs up to 3 RPC calls; the client asks again every 2 s while it answers 202
 *   (about 30 a minute for up to 2 minutes), so a session gets twice that.
 * - checkout/:id/transaction is one call per payment; checkout/:id/swap-quote costs two RPC calls
 *   (the head and the quoter's eth_call), asked again as a quote expires or the coin changes; auth/verify may call the chain
 *   (contract wallets, EIP-1271).
 * - admin/login costs a scrypt check (CPU and memory); the lockout (5 failures per source, shared by every
 *   instance) is what stops guessing, this only keeps one client from spending the server on it.
 * - notifications/subscription (PUT) resolves the push endpoint's host (DNS) and writes a row.
 * - admin/login/link (the operator's sign-in link) is not limited: refusing a link costs one HMAC,
 *   and a limit would let a stranger behind the admin's address refuse the admin's own link.
 */
export const RATE_LIMITS: readonly RateLimitRule[] = [
  { route: 'POST /api/cart/add', name: 'cart-add', ip: [perMinute(120), perHour(1000)], session: [perMinute(60)] },
  { route: 'POST /api/checkout', name: 'checkout', ip: [perMinute(30), perHour(200)], session: [perMinute(10)] },
  { route: 'POST /api/checkout/:id/transaction', name: 'checkout-tx', ip: [perMinute(60)], session: [perMinute(20)] },
  { route: 'POST /api/checkout/:id/swap-quote', name: 'swap-quote', ip: [perMinute(60)], session: [perMinute(20)] },
  { route: 'POST /api/orders/create', name: 'order-create', ip: [perMinute(120)], session: [perMinute(60)] },
  { route: 'GET /api/auth/nonce', name: 'auth-nonce', ip: [perMinute(30), perHour(200)], session: [perMinute(10)] },
  { route: 'POST /api/auth/verify', name: 'auth-verify', ip: [perMinute(30)], session: [perMinute(10)] },
  { route: 'POST /api/paymaster', name: 'paymaster', ip: [perMinute(60), perHour(600)], session: [] },
  { route: 'PUT /api/notifications/subscription', name: 'push-subscribe', ip: [perMinute(30), perHour(200)], session: [perMinute(10)] },
  { route: 'POST /api/admin/login', name: 'admin-login', ip: [perMinute(10), perHour(60)], session: [perMinute(10)] },
];

/** The rules with every `max` multiplied by `scale` (at least 1); none at all when `scale` is 0. */
export function scaleRules(rules: readonly RateLimitRule[], scale: number): readonly RateLimitRule[] {
  if (scale === 0) return [];
  const scaled = (l: Limit): Limit => ({ ...l, max: Math.max(1, Math.floor(l.max * scale)) });
  return rules.map((r) => ({ ...r, ip: r.ip.map(scaled), session: r.session.map(scaled) }));
}

/**
 * The client part of an IP counter key. IPv4 as is (also when written IPv4-mapped, `::ffff:a.b.c.d`);
 * IPv6 by its /64, since one subscriber is given a whole /64 and could otherwise take a fresh
 * address for every request.
 */
export function clientIpKey(ip: string): string {
  const address = ip.trim().toLowerCase().replace(/%.*$/, ''); // no zone id
  if (isIPv4(address)) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  if (!isIPv6(address)) return address.slice(0, 64) || 'unknown';
  return `${ipv6Groups(address).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address, in hex without leading zeros. */
function ipv6Groups(address: string): string[] {
  let text = address;
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text); // an embedded IPv4 tail is two groups
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const part = (s: string | undefined) => (s ? s.split(':') : []);
  const groups =
    tail === undefined ? part(head) : [...part(head), ...Array<string>(8 - part(head).length - part(tail).length).fill('0'), ...part(tail)];
  return groups.map((g) => parseInt(g, 16).toString(16));
}

/** The 429's message: what to do, in words. */
export function retryAfterMessage(seconds: number): string {
  if (seconds < 120) return `Too many requests. Try again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.`;
  return `Too many requests. Try again in ${Math.ceil(seconds / 60)} minutes.`;
}

/** One counter a request moves: a rule's limit for this IP or this session. */
export interface Counter {
  key: string;
  max: number;
  windowMs: number;
}

/**
 * The counters one request moves, sorted by key: concurrent requests sharing keys then lock their
 * rows in the same order, so their upserts cannot deadlock.
 */
export function countersFor(rule: RateLimitRule, client: { ip: string; sessionId: string | null }): Counter[] {
  const counters = (scope: string, id: string, limits: readonly Limit[]) =>
    limits.map((l) => ({ key: `${rule.name}:${scope}:${l.windowSeconds}:${id}`, max: l.max, windowMs: l.windowSeconds * 1000 }));
  return [
    ...counters('ip', clientIpKey(client.ip), rule.ip),
    ...(client.sessionId ? counters('session', client.sessionId, rule.session) : []),
  ].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

export type RateLimitVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** A counter past its limit, and when its window ends (ms). */
export interface Exceeded {
  key: string;
  resetsAt: number;
}

/** The counters the counted requests put past their limits. */
export function overLimit(counters: readonly Counter[], counted: ReadonlyMap<string, { hits: number; resetsAt: number }>): Exceeded[] {
  return counters.flatMap((c) => {
    const row = counted.get(c.key);
    return row && row.hits > c.max ? [{ key: c.key, resetsAt: row.resetsAt }] : [];
  });
}

/** Allowed when nothing is over its limit; else refused until the last of those windows ends (whole seconds, at least 1). */
export function verdict(over: readonly Exceeded[], now: number): RateLimitVerdict {
  if (!over.length) return { allowed: true };
  const until = Math.max(...over.map((o) => o.resetsAt));
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((until - now) / 1000)) };
}

export interface RateLimiterOptions {
  /** Multiplies every limit; 0 turns rate limiting off. Default 1. */
  scale?: number;
  /** The limits; default {@link RATE_LIMITS}. */
  rules?: readonly RateLimitRule[];
  /** The clock (tests move it instead of waiting). */
  now?: () => Date;
}

/** Keys this instance already knows to be refused are answered from memory, at most this many. */
const MAX_REMEMBERED = 10_000;

/** Counts requests against {@link RateLimitRule}s in the `rate_limits` table and judges them. */
export class RateLimiter {
  /** The limits in force (scaled); empty when rate limiting is off. */
  readonly rules: readonly RateLimitRule[];
  private readonly now: () => Date;
  /** Counters known to be past their limit → when their window ends (ms): a flood is refused without a write. */
  private readonly refused = new Map<string, number>();

  constructor(
    private readonly db: Db,
    opts: RateLimiterOptions = {},
  ) {
    this.rules = scaleRules(opts.rules ?? RATE_LIMITS, opts.scale ?? 1);
    this.now = opts.now ?? (() => new Date());
  }

  /** Counts one request to `rule` from this client and says whether it may go on. */
  async hit(rule: RateLimitRule, client: { ip: string; sessionId: string | null }): Promise<RateLimitVerdict> {
    const counters = countersFor(rule, client);
    const now = this.now().getTime();
    let over = this.stillRefused(counters, now);
    if (!over.length) {
      const at = new Date(now);
      const rows: Array<{ key: string; hits: number; resets_at: Date }> = await this.db('rate_limits')
        .insert(counters.map((c) => ({ key: c.key, hits: 1, resets_at: new Date(now + c.windowMs) })))
        .onConflict('key')
        .merge({
          // A finished window starts again at this request; otherwise the request is counted in it.
          hits: this.db.raw('case when rate_limits.resets_at <= ? then 1 else rate_limits.hits + 1 end', [at]),
          resets_at: this.db.raw('case when rate_limits.resets_at <= ? then excluded.resets_at else rate_limits.resets_at end', [at]),
        })
        .returning(['key', 'hits', 'resets_at']);
      over = overLimit(counters, new Map(rows.map((r) => [r.key, { hits: Number(r.hits), resetsAt: new Date(r.resets_at).getTime() }])));
      this.remember(over, now);
    }
    return verdict(over, now);
  }

  /** Deletes counters whose window has ended. Returns how many. */
  async sweep(): Promise<number> {
    return this.db('rate_limits').where('resets_at', '<=', this.now()).delete();
  }

  /** This request's counters this instance already saw past their limit, in a window not yet over. */
  private stillRefused(counters: readonly Counter[], now: number): Exceeded[] {
    const over: Exceeded[] = [];
    for (const { key } of counters) {
      const resetsAt = this.refused.get(key);
      if (resetsAt === undefined) continue;
      if (resetsAt > now) over.push({ key, resetsAt });
      else this.refused.delete(key);
    }
    return over;
  }

  private remember(over: readonly Exceeded[], now: number): void {
    if (over.length && this.refused.size >= MAX_REMEMBERED) {
      for (const [key, resetsAt] of this.refused) if (resetsAt <= now) this.refused.delete(key);
      if (this.refused.size >= MAX_REMEMBERED) this.refused.clear();
    }
    for (const o of over) this.refused.set(o.key, o.resetsAt);
  }
}

/**
 * The Koa middleware: finds the request's rule with the same matching as the routers (a router
 * holding the rules' routes), counts the request, and answers 429 with `Retry-After` when it is
 * over a limit. Place it after the session middleware and before every router it guards. Should
 * the count itself fail (the database), the request goes on: the limiter must not be what takes
 * the shop down.
 */
export function rateLimitMiddleware(
  limiter: RateLimiter,
  opts: { logger: Logger; sessionId: (ctx: Context) => Promise<string | null>; outages?: Outages },
): Middleware {
  const routes = new Router();
  const byName = new Map<string, RateLimitRule>();
  for (const rule of limiter.rules) {
    const [method, path] = rule.route.split(' ') as [string, string];
    routes.register(path, [method], (_ctx, next) => next(), { name: rule.name });
    byName.set(rule.name, rule);
  }
  return async (ctx, next) => {
    const layer = routes.match(ctx.path, ctx.method).pathAndMethod.find((l) => l.methods.length > 0);
    const rule = layer?.name ? byName.get(layer.name) : undefined;
    if (!rule) return next();
    let verdict: RateLimitVerdict = { allowed: true };
    try {
      // A rule without session limits makes no session (the paymaster's callers have no cookies).
      verdict = await limiter.hit(rule, { ip: ctx.ip, sessionId: rule.session.length ? await opts.sessionId(ctx) : null });
    } catch (err) {
      // A lost database is one outage, said once (lib/outages.ts), not a line per request.
      if (opts.outages?.report(err)) {
        opts.logger.debug({ route: rule.route }, 'rate limit not checked (no database); the request goes on');
      } else opts.logger.error({ err, route: rule.route }, 'rate limit not checked; the request goes on');
    }
    if (!verdict.allowed) {
      rateLimitRefusals.inc({ rule: rule.name });
      ctx.set('Retry-After', String(verdict.retryAfterSeconds));
      throw new AppError(ErrorCode.rateLimited, retryAfterMessage(verdict.retryAfterSeconds));
    }
    await next();
  };
}
