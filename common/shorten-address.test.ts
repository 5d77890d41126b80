import { describe, expect, it } from 'vitest';
import { shortenAddress } from './shorten-address';

describe('shortenAddress', () => {
  it('keeps the first 6 and last 4 characters joined by three dots', () => {
    expect(shortenAddress('0x1234567890abcdef1234567890abcdef1234abcd')).toBe('0x1234...abcd');
    expect(shortenAddress('0xAbCdEf0000000000000000000000000000009876')).toBe('0xAbCd...9876');
  });

  it('uses three ASCII dots, not an ellipsis character', () => {
    const short = shortenAddress('0x1234567890abcdef1234567890abcdef1234abcd');
    expect(short).toHaveLength(13);
    expect(short).not.toContain('\u2026');
  });

  it('leaves short strings unchanged', () => {
    expect(shortenAddress('0x1234')).toBe('0x1234');
    expect(shortenAddress('0x1234567abcd')).toBe('0x1234567abcd'); // 13 chars: shortening would not shorten
    expect(shortenAddress('0x1234567abcde')).toBe('0x1234...bcde'); // 14 chars
    expect(shortenAddress('')).toBe('');
  });

  it('handles missing values', () => {
    expect(shortenAddress(undefined)).toBe('');
    expect(shortenAddress(null)).toBe('');
  });
});
