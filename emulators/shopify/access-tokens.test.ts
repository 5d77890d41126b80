import { describe, expect, it } from 'vitest';
import { AccessTokens, constantTimeEqual } from './access-tokens';

function tokensAt(start: number, staticToken?: string) {
  const clock = { now: start };
  const tokens = new AccessTokens({ staticToken, ttlSeconds: 60, now: () => clock.now });
  return { clock, tokens };
}

describe('AccessTokens', () => {
  it('mints shpat_ + 32 hex, each different, valid for the TTL on the clock and not a moment longer', () => {
    const { clock, tokens } = tokensAt(1_000_000);
    const a = tokens.grant('json');
    const b = tokens.grant('form');
    expect(a.accessToken).toMatch(/^shpat_[0-9a-f]{32}$/);
    expect(b.accessToken).not.toBe(a.accessToken);
    expect(a.expiresInSeconds).toBe(60);
    expect(tokens.grants).toEqual([
      { grantedAt: 1_000_000, expiresAt: 1_060_000, body: 'json' },
      { grantedAt: 1_000_000, expiresAt: 1_060_000, body: 'form' },
    ]);
    clock.now += 59_999;
    expect(tokens.accepts(a.accessToken)).toBe(true);
    clock.now += 1;
    expect(tokens.accepts(a.accessToken)).toBe(false);
    expect(tokens.accepts(b.accessToken)).toBe(false);
  });

  it('refuses what it never granted, the empty token and a near miss', () => {
    const { tokens } = tokensAt(0, 'shpat_static');
    const { accessToken } = tokens.grant('json');
    expect(tokens.accepts('')).toBe(false);
    expect(tokens.accepts('shpat_unknown')).toBe(false);
    expect(tokens.accepts(accessToken.slice(0, -1))).toBe(false);
    expect(tokens.accepts('shpat_stati')).toBe(false);
  });

  it('keeps accepting the static token, whatever the clock or expireAll says', () => {
    const { clock, tokens } = tokensAt(0, 'shpat_static');
    expect(tokens.accepts('shpat_static')).toBe(true);
    clock.now += 365 * 86_400_000;
    tokens.expireAll();
    expect(tokens.accepts('shpat_static')).toBe(true);
  });

  it('drops expired tokens from memory, oldest first, while the log keeps their grants', () => {
    const { clock, tokens } = tokensAt(0);
    for (let i = 0; i < 5; i++) {
      tokens.grant('json');
      clock.now += 20_000;
    }
    // granted at 0, 20, 40, 60 and 80 s, for 60 s; at 100 s those of 60 and 80 s still work
    expect(tokens.activeCount).toBe(2);
    clock.now += 60_000;
    expect(tokens.activeCount).toBe(0);
    expect(tokens.count).toBe(5);
    expect(tokens.grants).toHaveLength(5);
  });

  it('expireAll ends every granted token now and dates their expiry to now', () => {
    const { clock, tokens } = tokensAt(5_000);
    const a = tokens.grant('form');
    clock.now += 1_000;
    expect(tokens.expireAll()).toBe(1);
    expect(tokens.accepts(a.accessToken)).toBe(false);
    expect(tokens.grants[0].expiresAt).toBe(6_000);
    expect(tokens.expireAll()).toBe(0);
    // A token granted afterwards works.
    const b = tokens.grant('json');
    expect(tokens.accepts(b.accessToken)).toBe(true);
  });

  it('keeps only the newest 1,000 grants in the log but counts them all', () => {
    const { tokens } = tokensAt(0);
    for (let i = 0; i < 1005; i++) tokens.grant(i === 1004 ? 'form' : 'json');
    expect(tokens.grants).toHaveLength(1000);
    expect(tokens.grants.at(-1)!.body).toBe('form');
    expect(tokens.count).toBe(1005);
  });

  it('reset forgets tokens, grants and the count, emptying the same log array', () => {
    const { tokens } = tokensAt(0);
    const log = tokens.grants;
    const { accessToken } = tokens.grant('json');
    tokens.reset();
    expect(tokens.accepts(accessToken)).toBe(false);
    expect(log).toHaveLength(0);
    expect(tokens.grants).toBe(log);
    expect(tokens.count).toBe(0);
  });
});

describe('constantTimeEqual', () => {
  it('compares strings of any lengths', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
    expect(constantTimeEqual('', '')).toBe(true);
  });
});
