import { describe, expect, it } from 'vitest';
import { isClientsOwn } from './client-address';

describe("a client's own address", () => {
  it.each(['203.0.113.7', '8.8.8.8', '::ffff:203.0.113.7', '2001:db8::1', ' 198.51.100.2 '])('%s is a client’s own', (ip) => {
    expect(isClientsOwn(ip)).toBe(true);
  });

  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.10',
    '169.254.169.254',
    '100.64.0.1',
    '::1',
    '::ffff:10.0.0.1',
    'fd00::1',
    'fe80::1%eth0',
    'not an address',
    '',
  ])('%s is not (loopback, private, link-local, shared NAT, or no address)', (ip) => {
    expect(isClientsOwn(ip)).toBe(false);
  });
});
