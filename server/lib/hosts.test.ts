import { describe, expect, it } from 'vitest';
import { fetchRefusesPort, isLoopbackHost } from './hosts';

describe('isLoopbackHost', () => {
  it.each(['localhost', 'LOCALHOST', 'shop.localhost', '127.0.0.1', '127.8.9.10', '::1', '[::1]'])('%s stays on this machine', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });
  it.each(['shop.example', '10.0.0.1', '192.168.1.20', '0.0.0.0', '::', '[2001:db8::1]', 'localhost.example.com', '128.0.0.1'])(
    '%s does not',
    (host) => {
      expect(isLoopbackHost(host)).toBe(false);
    },
  );
});

describe('fetchRefusesPort', () => {
  it('knows the ports a shop or an API is commonly put on are fine', () => {
    for (const port of [80, 443, 3000, 8080, 8443, 4319]) expect(fetchRefusesPort(port)).toBe(false);
  });
  it('knows X11 and IRC ports are refused', () => {
    for (const port of [6000, 6667, 10080]) expect(fetchRefusesPort(port)).toBe(true);
  });
});
