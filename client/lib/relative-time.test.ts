import { describe, expect, it } from 'vitest';
import { relativeTime } from './relative-time';

const now = new Date('2024-06-15T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);
const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe('relativeTime', () => {
  it("says 'just now' under a minute, and for future dates", () => {
    expect(relativeTime(now, now)).toBe('just now');
    expect(relativeTime(ago(59 * S), now)).toBe('just now');
    expect(relativeTime(new Date(now.getTime() + 5 * M), now)).toBe('just now');
  });

  it('counts minutes, hours and days with singular and plural', () => {
    expect(relativeTime(ago(60 * S), now)).toBe('1 minute ago');
    expect(relativeTime(ago(5 * M + 30 * S), now)).toBe('5 minutes ago');
    expect(relativeTime(ago(59 * M), now)).toBe('59 minutes ago');
    expect(relativeTime(ago(H), now)).toBe('1 hour ago');
    expect(relativeTime(ago(2 * H + 59 * M), now)).toBe('2 hours ago');
    expect(relativeTime(ago(D), now)).toBe('1 day ago');
    expect(relativeTime(ago(3 * D), now)).toBe('3 days ago');
    expect(relativeTime(ago(29 * D), now)).toBe('29 days ago');
  });

  it('counts months and years', () => {
    expect(relativeTime(ago(30 * D), now)).toBe('1 month ago');
    expect(relativeTime(ago(65 * D), now)).toBe('2 months ago');
    expect(relativeTime(ago(365 * D), now)).toBe('1 year ago');
    expect(relativeTime(ago(3 * 365 * D), now)).toBe('3 years ago');
  });

  it('accepts ISO strings and timestamps', () => {
    expect(relativeTime('2024-06-15T10:00:00Z', now)).toBe('2 hours ago');
    expect(relativeTime(now.getTime() - 5 * M, now.getTime())).toBe('5 minutes ago');
  });

  it('handles missing and invalid dates', () => {
    expect(relativeTime(null, now)).toBe('at an unknown time');
    expect(relativeTime(undefined, now)).toBe('at an unknown time');
    expect(relativeTime('', now)).toBe('at an unknown time');
    expect(relativeTime('not a date', now)).toBe('at an unknown time');
    expect(relativeTime(new Date(Number.NaN), now)).toBe('at an unknown time');
  });
});
