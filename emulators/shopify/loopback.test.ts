import { describe, expect, it } from 'vitest';
import { isLoopbackAddress } from './loopback';

describe('isLoopbackAddress', () => {
  it.each(['127.0.0.1', '127.1.2.3', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', '::FFFF:127.0.0.2'])('%s is this machine', (a) => {
    expect(isLoopbackAddress(a)).toBe(true);
  });
  it.each([
    undefined,
    '',
    '192.168.1.20',
    '10.0.0.1',
    '::ffff:192.168.1.20',
    'fe80::1',
    '::',
    '::2',
    '::11',
    '128.0.0.1',
    '1127.0.0.1',
    '127.0.0.1.evil',
    '::ffff:10.127.0.1',
  ])('%s is not', (a) => {
    expect(isLoopbackAddress(a)).toBe(false);
  });
});
