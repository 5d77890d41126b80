import { describe, expect, it } from 'vitest';
import { clientIpKey, countersFor, overLimit, RATE_LIMITS, retryAfterMessage, scaleRules, verdict, type RateLimitRule } from './rate-limit';

const rule: RateLimitRule = {
  route: 'POST /api/example',
  name: 'example',
  ip: [
    { max: 3, windowSeconds: 60 },
    { max: 10, windowSeconds: 3600 },
  ],
  session: [{ max: 2, windowSeconds: 60 }],
};

describe('the limits table', () => {
  it('limits exactly the public write routes, the RPC-costly ones and the admin login, each per IP and per session (the cookieless paymaster per IP)', () => {
    expect(RATE_LIMITS.map((r) => r.route).sort()).toEqual(
      [
        'GET /api/auth/nonce',
        'POST /api/admin/login',
        'POST /api/auth/verify',
        'POST /api/cart/add',
        'POST /api/checkout',
        'POST /api/checkout/:id/transaction',
        'POST /api/checkout/:id/swap-quote',
        'POST /api/orders/create',
        'POST /api/paymaster',
        'PUT /api/notifications/subscription',
      ].sort(),
    );
    expect(new Set(RATE_LIMITS.map((r) => r.name)).size).toBe(RATE_LIMITS.length);
    for (const r of RATE_LIMITS) {
      expect(r.route).toMatch(/^(GET|POST|PUT) \/api\/\S+$/);
      expect(r.ip.length).toBeGreaterThan(0);
      // Wallets call the paymaster without the shop's cookies: counted per IP only, and no session is made for them.
      if (r.route === 'POST /api/paymaster') expect(r.session).toEqual([]);
      else expect(r.session.length).toBeGreaterThan(0);
    }
  });

  it("lets a paying shopper's order polling through: a 202 is asked again every 2 s for 2 minutes", () => {
    const orders = RATE_LIMITS.find((r) => r.route === 'POST /api/orders/create')!;
    const askedPerMinute = 60 / 2 + 1;
    for (const l of [...orders.ip, ...orders.session]) expect(l.max / (l.windowSeconds / 60)).toBeGreaterThanOrEqual(askedPerMinute);
  });

  it('scales every limit (at least 1 each), and 0 turns them all off', () => {
    expect(scaleRules([rule], 100)[0]).toMatchObject({ ip: [{ max: 300 }, { max: 1000 }], session: [{ max: 200 }] });
    expect(scaleRules([rule], 0.1)[0]).toMatchObject({ ip: [{ max: 1 }, { max: 1 }], session: [{ max: 1 }] });
    expect(scaleRules([rule], 1)).toEqual([rule]);
    expect(scaleRules(RATE_LIMITS, 0)).toEqual([]);
  });
});

describe('clientIpKey', () => {
  it('keeps IPv4, also written IPv4-mapped', () => {
    expect(clientIpKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientIpKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientIpKey('::FFFF:127.0.0.1')).toBe('127.0.0.1');
  });

  it('counts an IPv6 client by its /64, however the address is written', () => {
    const key = '2001:db8:85a3:12::/64';
    for (const ip of [
      '2001:db8:85a3:12::1',
      '2001:0DB8:85a3:0012:ffff:ffff:ffff:ffff',
      '2001:db8:85a3:12:1:2:3:4%eth0',
      '2001:db8:85a3:12::10.0.0.1',
    ]) {
      expect(clientIpKey(ip)).toBe(key);
    }
    expect(clientIpKey('2001:db8:85a3:13::1')).not.toBe(key);
    expect(clientIpKey('::1')).toBe('0:0:0:0::/64');
    expect(clientIpKey('fe80::1:2')).toBe('fe80:0:0:0::/64');
  });

  it('keeps anything else short', () => {
    expect(clientIpKey('')).toBe('unknown');
    expect(clientIpKey('x'.repeat(500))).toHaveLength(64);
  });
});

describe('countersFor', () => {
  it('names one counter per limit, for the IP and (when there is one) the session, in key order', () => {
    const withSession = countersFor(rule, { ip: '::ffff:198.51.100.2', sessionId: 'ab12' });
    expect(withSession).toEqual([
      { key: 'example:ip:3600:198.51.100.2', max: 10, windowMs: 3_600_000 },
      { key: 'example:ip:60:198.51.100.2', max: 3, windowMs: 60_000 },
      { key: 'example:session:60:ab12', max: 2, windowMs: 60_000 },
    ]);
    expect(countersFor(rule, { ip: '198.51.100.2', sessionId: null }).map((c) => c.key)).toEqual([
      'example:ip:3600:198.51.100.2',
      'example:ip:60:198.51.100.2',
    ]);
  });
});

describe('overLimit and verdict', () => {
  const now = Date.parse('2026-11-01T00:00:00Z');
  const counters = countersFor(rule, { ip: '198.51.100.2', sessionId: 's' });
  const judge = (hits: Record<string, [number, number]>) =>
    verdict(
      overLimit(counters, new Map(Object.entries(hits).map(([key, [n, resetsInMs]]) => [key, { hits: n, resetsAt: now + resetsInMs }]))),
      now,
    );

  it('allows a request within every limit, the last one included', () => {
    expect(judge({ 'example:ip:60:198.51.100.2': [3, 10_000], 'example:session:60:s': [2, 5_000] })).toEqual({ allowed: true });
  });

  it('refuses past any limit, until the last exceeded window ends, in whole seconds', () => {
    expect(judge({ 'example:ip:60:198.51.100.2': [4, 12_300], 'example:session:60:s': [1, 50_000] })).toEqual({
      allowed: false,
      retryAfterSeconds: 13,
    });
    expect(judge({ 'example:ip:60:198.51.100.2': [4, 12_000], 'example:ip:3600:198.51.100.2': [11, 1_800_000] })).toEqual({
      allowed: false,
      retryAfterSeconds: 1800,
    });
    expect(judge({ 'example:session:60:s': [3, 1] })).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it('names the counters past their limit', () => {
    const counted = new Map([
      ['example:ip:60:198.51.100.2', { hits: 4, resetsAt: now + 1 }],
      ['example:ip:3600:198.51.100.2', { hits: 4, resetsAt: now + 2 }],
      ['example:session:60:s', { hits: 3, resetsAt: now + 3 }],
    ]);
    expect(overLimit(counters, counted)).toEqual([
      { key: 'example:ip:60:198.51.100.2', resetsAt: now + 1 },
      { key: 'example:session:60:s', resetsAt: now + 3 },
    ]);
  });
});

describe('retryAfterMessage', () => {
  it('says what to do in seconds, or minutes for long waits', () => {
    expect(retryAfterMessage(1)).toBe('Too many requests. Try again in 1 second.');
    expect(retryAfterMessage(12)).toBe('Too many requests. Try again in 12 seconds.');
    expect(retryAfterMessage(119)).toBe('Too many requests. Try again in 119 seconds.');
    expect(retryAfterMessage(1800)).toBe('Too many requests. Try again in 30 minutes.');
    expect(retryAfterMessage(1801)).toBe('Too many requests. Try again in 31 minutes.');
  });
});
