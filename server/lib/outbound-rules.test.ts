import { describe, expect, it } from 'vitest';
import { addressAllowed, endpointProblem, resolvedProblem } from './outbound-rules';

const live = { local: false };
const local = { local: true };

describe('outbound address rules (push endpoints, webhook URLs)', () => {
  it('allows public addresses, never private, shared, link-local, multicast or reserved ones', () => {
    for (const a of ['142.250.74.46', '17.253.144.10', '2a00:1450:4001:80b::200a', '::ffff:142.250.74.46'])
      expect(addressAllowed(a, live), a).toBe(true);
    for (const a of [
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '100.64.0.1',
      '169.254.169.254',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      'fd00::1',
      'fe80::1',
      '::',
      '::ffff:10.0.0.1',
      '::ffff:a9fe:a9fe',
      '64:ff9b::a9fe:a9fe',
      'not an address',
    ])
      expect(addressAllowed(a, live), a).toBe(false);
  });

  it('allows loopback only in local mode', () => {
    for (const a of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) {
      expect(addressAllowed(a, live), a).toBe(false);
      expect(addressAllowed(a, local), a).toBe(true);
    }
    expect(addressAllowed('10.0.0.1', local)).toBe(false);
  });

  it('takes https endpoints; plain http only to this machine in local mode', () => {
    expect(endpointProblem('https://fcm.googleapis.com/fcm/send/abc', live)).toBeNull();
    expect(endpointProblem('http://fcm.googleapis.com/fcm/send/abc', live)).toMatch(/https/);
    expect(endpointProblem('http://127.0.0.1:8080/push', live)).toMatch(/https/);
    expect(endpointProblem('http://127.0.0.1:8080/push', local)).toBeNull();
    expect(endpointProblem('http://localhost:8080/push', local)).toBeNull();
    expect(endpointProblem('http://10.0.0.1/push', local)).toMatch(/https/);
    expect(endpointProblem('https://localhost/push', live)).toMatch(/this machine/);
    expect(endpointProblem('https://10.0.0.1/push', live)).toMatch(/private/);
    expect(endpointProblem('https://[fe80::1]/push', local)).toMatch(/private/);
    expect(endpointProblem('https://user:pw@push.example/x', live)).toMatch(/user name/);
    expect(endpointProblem('ftp://push.example/x', live)).toMatch(/https/);
    expect(endpointProblem('nonsense', live)).toMatch(/not a URL/);
  });

  it('refuses a host whose addresses include one it may not call (every address is checked)', () => {
    expect(resolvedProblem(['142.250.74.46'], live)).toBeNull();
    expect(resolvedProblem(['142.250.74.46', '10.0.0.5'], live)).toMatch(/private/);
    expect(resolvedProblem(['127.0.0.1'], live)).toMatch(/loopback/);
    expect(resolvedProblem(['127.0.0.1'], local)).toBeNull();
    expect(resolvedProblem([], live)).toMatch(/no address/);
  });
});
