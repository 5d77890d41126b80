/**
 * Even in local mode, a stranger on the same network reaches the demo shop (its invoice pages and
 * product images too) but not the emulator's /__emulator controls, which act for whoever calls.
 */
import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShopifyEmulator } from './index';

/** An address of this machine that is not loopback: connecting to it shows up as a LAN client. */
const lanAddress = Object.values(os.networkInterfaces())
  .flat()
  .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

describe.skipIf(!lanAddress)('the emulator controls from another machine', () => {
  let server: http.Server;
  let port: number;

  beforeAll(async () => {
    server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
    port = (server.address() as AddressInfo).port;
    const emulator = createShopifyEmulator({
      publicOrigin: `http://${lanAddress}:${port}`,
      accessToken: 'shpat_test',
      clientSecret: 'secret-for-test',
    });
    server.on('request', emulator.app.callback());
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const from = (host: string) => (path: string, init?: RequestInit) => fetch(`http://${host}:${port}${path}`, init);

  it('are refused (403) from a LAN address, for reading and for acting', async () => {
    const lan = from(lanAddress!);
    const list = await lan('/__emulator/draft-orders');
    expect(list.status).toBe(403);
    expect(await list.json()).toEqual({ errors: expect.stringMatching(/only on this machine/) });
    const fulfil = await lan('/__emulator/orders/1/fulfill', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(fulfil.status).toBe(403);
    expect((await lan('/__emulator/reset', { method: 'POST' })).status).toBe(403);
    expect((await lan('/__emulator/access-tokens')).status).toBe(403);
    expect((await lan('/__emulator/access-tokens/expire', { method: 'POST' })).status).toBe(403);
  });

  it('answer from loopback', async () => {
    expect((await from('127.0.0.1')('/__emulator/draft-orders')).status).toBe(200);
    expect((await from('127.0.0.1')('/__emulator/access-tokens')).status).toBe(200);
  });

  it('leave the shop-facing pages reachable from the LAN (a phone opens invoices and images)', async () => {
    expect((await from(lanAddress!)('/cdn/images/classic-hoodie-1.svg')).status).toBe(200);
  });
});
