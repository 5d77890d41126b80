import { describe, expect, it } from 'vitest';
import { formatDuration } from './duration';

describe('formatDuration', () => {
  it('says a duration in the units a person would', () => {
    expect(formatDuration(450)).toBe('450 ms');
    expect(formatDuration(500)).toBe('500 ms');
    expect(formatDuration(1000)).toBe('1 s');
    expect(formatDuration(2500)).toBe('2.5 s');
    expect(formatDuration(10_000)).toBe('10 s');
    expect(formatDuration(59_940)).toBe('59.9 s');
    expect(formatDuration(59_960)).toBe('1 min');
    expect(formatDuration(60_000)).toBe('1 min');
    expect(formatDuration(185_000)).toBe('3 min 5 s');
    expect(formatDuration(2 * 3600_000 + 10 * 60_000)).toBe('2 h 10 min');
    expect(formatDuration(3600_000)).toBe('1 h');
  });
});
