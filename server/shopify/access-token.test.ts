import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ClientCredentialsToken, renewalDelayMs, StaticAccessToken, type Grant } from './access-token';

const DAY_MS = 86_399_000;

/** A grant function that answers numbered tokens and records each call; `gate` holds the answers back. */
function grants(lifetimeMs = DAY_MS) {
  const calls: number[] = [];
  let gate: Promise<void> | null = null;
  let failNext = 0;
  const grant = async (): Promise<Grant> => {
    calls.push(Date.now());
    if (gate) await gate;
    if (failNext > 0) {
      failNext--;
      throw new Error('Shopify did not answer');
    }
    return { accessToken: `token-${calls.length}`, scopes: ['read_products'], lifetimeMs };
  };
  return {
    grant,
    calls,
    hold() {
      let open!: () => void;
      gate = new Promise((resolve) => (open = resolve));
      return () => {
        gate = null;
        open();
      };
    },
    failNext(n: number) {
      failNext = n;
    },
  };
}

describe('renewalDelayMs', () => {
  it('renews a day-long token 5 to 10 minutes before it ends', () => {
    expect(renewalDelayMs(DAY_MS, 0)).toBe(DAY_MS - 5 * 60_000);
    expect(renewalDelayMs(DAY_MS, 0.999_999)).toBe(DAY_MS - 10 * 60_000);
    expect(renewalDelayMs(DAY_MS, 0.5)).toBe(DAY_MS - 7.5 * 60_000);
  });

  it('keeps a short-lived token for most of its life, never past its end', () => {
    expect(renewalDelayMs(10_000, 0)).toBe(9_000);
    expect(renewalDelayMs(10_000, 1)).toBe(8_000);
    for (const r of [0, 0.3, 0.7, 0.99]) {
      const ms = renewalDelayMs(4_000, r);
      expect(ms).toBeGreaterThan(0);
      expect(ms).toBeLessThan(4_000);
    }
  });
});

describe('ClientCredentialsToken', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: Date.parse('2026-11-26T00:00:00Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fetches a token on first use and keeps it while it lasts', async () => {
    const g = grants();
    const tokens = new ClientCredentialsToken(g.grant, { random: () => 0 });
    expect(await tokens.token()).toBe('token-1');
    await vi.advanceTimersByTimeAsync(60 * 60_000);
    expect(await tokens.token()).toBe('token-1');
    expect(g.calls).toHaveLength(1);
    expect(tokens.scopes).toEqual(['read_products']);
  });

  it('renews ahead of expiry, at the margin plus its jitter', async () => {
    const g = grants();
    const tokens = new ClientCredentialsToken(g.grant, { random: () => 0.5 });
    await tokens.token();
    const renewAt = renewalDelayMs(DAY_MS, 0.5);
    await vi.advanceTimersByTimeAsync(renewAt - 1);
    expect(g.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(g.calls).toHaveLength(2);
    expect(await tokens.token()).toBe('token-2');
    // The renewed token is renewed again, on its own schedule.
    await vi.advanceTimersByTimeAsync(renewAt);
    expect(g.calls).toHaveLength(3);
    expect(tokens.grants).toBe(3);
    tokens.stop();
    await vi.advanceTimersByTimeAsync(DAY_MS);
    expect(g.calls).toHaveLength(3);
  });

  it('instances started together spread their renewals', async () => {
    const times = [];
    for (const r of [0.1, 0.5, 0.9]) {
      const g = grants();
      const tokens = new ClientCredentialsToken(g.grant, { random: () => r });
      await tokens.token();
      const start = Date.now();
      await vi.advanceTimersByTimeAsync(DAY_MS - 4 * 60_000);
      expect(g.calls).toHaveLength(2);
      times.push(g.calls[1]! - start);
      tokens.stop();
    }
    expect(new Set(times).size).toBe(3);
  });

  it('concurrent callers share one grant', async () => {
    const g = grants();
    const tokens = new ClientCredentialsToken(g.grant);
    const release = g.hold();
    const waiting = Promise.all([tokens.token(), tokens.token(), tokens.token()]);
    await vi.advanceTimersByTimeAsync(0);
    expect(g.calls).toHaveLength(1);
    release();
    expect(await waiting).toEqual(['token-1', 'token-1', 'token-1']);
    tokens.stop();
  });

  it('a 401 renews once for every call that met it, and a later 401 renews again', async () => {
    const g = grants();
    const tokens = new ClientCredentialsToken(g.grant);
    const refused = await tokens.token();
    const release = g.hold();
    const renewed = Promise.all([tokens.renewAfterRejection(refused), tokens.renewAfterRejection(refused)]);
    await vi.advanceTimersByTimeAsync(0);
    release();
    expect(await renewed).toEqual(['token-2', 'token-2']);
    // A call that sent the old token and was refused after the renewal gets the new one, no grant.
    expect(await tokens.renewAfterRejection(refused)).toBe('token-2');
    expect(g.calls).toHaveLength(2);
    // The new token refused in turn (revoked): one more grant.
    expect(await tokens.renewAfterRejection('token-2')).toBe('token-3');
    expect(g.calls).toHaveLength(3);
    tokens.stop();
  });

  it('a token past its end is never sent: the caller waits for a new one', async () => {
    const g = grants(10_000);
    const tokens = new ClientCredentialsToken(g.grant, { random: () => 0 });
    await tokens.token();
    g.failNext(1); // the scheduled renewal fails…
    await vi.advanceTimersByTimeAsync(9_000);
    expect(g.calls).toHaveLength(2);
    tokens.stop(); // …and its retries are stopped, so nothing renews before the end
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await tokens.token()).toBe('token-3');
  });

  it('retries a failed scheduled renewal while the token lasts, logging once', async () => {
    const g = grants(100_000);
    const warnings: unknown[] = [];
    const logger = { warn: (...args: unknown[]) => warnings.push(args), debug: () => {} } as never;
    const tokens = new ClientCredentialsToken(g.grant, { random: () => 0, logger });
    await tokens.token();
    g.failNext(3);
    await vi.advanceTimersByTimeAsync(90_000); // the first scheduled renewal (fails)
    await vi.advanceTimersByTimeAsync(1_000 + 2_000 + 4_000); // three retries: two fail, the third works
    expect(g.calls).toHaveLength(5);
    expect(await tokens.token()).toBe('token-5');
    expect(warnings).toHaveLength(1);
    expect(JSON.stringify(warnings)).not.toContain('token-');
    tokens.stop();
  });

  it('a failed grant reaches the caller, and the next call asks again', async () => {
    const g = grants();
    const tokens = new ClientCredentialsToken(g.grant);
    g.failNext(1);
    await expect(tokens.token()).rejects.toThrow('Shopify did not answer');
    expect(await tokens.token()).toBe('token-2');
    tokens.stop();
  });

  it('keeps a token Shopify gave no lifetime until a 401', async () => {
    const g = grants(Infinity);
    const tokens = new ClientCredentialsToken(g.grant);
    await tokens.token();
    await vi.advanceTimersByTimeAsync(7 * DAY_MS);
    expect(await tokens.token()).toBe('token-1');
    expect(await tokens.renewAfterRejection('token-1')).toBe('token-2');
  });
});

describe('StaticAccessToken', () => {
  it('is the configured token, with nothing to renew', async () => {
    const tokens = new StaticAccessToken('shpat_legacy');
    expect(await tokens.token()).toBe('shpat_legacy');
    expect(await tokens.renewAfterRejection()).toBeNull();
  });
});
