/**
 * Local mode's Shopify emulator as `npm start` wires it: its Admin API token and webhook secret are
 * random per data folder, kept there with mode 0600 and reused across restarts, so the constants
 * the source code once held open nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { loadEmulatorSecrets, startLocalShopify } from './local-shopify';
import { signWebhookBody } from '../../emulators/shopify';
import { startHarness, type Harness } from '../test/harness';
import { useTestChain } from '../test/use-test-chain';

/** What config.ts held before secrets were made per data folder. */
const OLD_ACCESS_TOKEN = 'shpat_local_emulator_token';
const OLD_CLIENT_SECRET = 'local-emulator-client-secret';

const tempDirs: string[] = [];
function tempDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pogs-data-'));
  tempDirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

const secretsFileOf = (dataDir: string) => {
  const config = loadConfig({ DATA_DIR: dataDir });
  if (config.mode !== 'local') throw new Error('expected local mode');
  return config.shopify.secretsFile;
};

describe('the emulator secrets of a data folder', () => {
  it('are made on first start, random, readable by this user only, and reused after', async () => {
    const file = secretsFileOf(path.join(tempDataDir(), 'not-yet-there'));
    expect(fs.existsSync(file)).toBe(false);
    const first = await loadEmulatorSecrets(file);
    expect(first.accessToken).toMatch(/^shpat_[0-9a-f]{32}$/);
    expect(first.clientSecret).toMatch(/^[0-9a-f]{64}$/);
    expect([first.accessToken, first.clientSecret]).not.toContain(OLD_ACCESS_TOKEN);
    expect(first.clientSecret).not.toBe(OLD_CLIENT_SECRET);
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(await loadEmulatorSecrets(file)).toEqual(first);
  });

  it('differ between two data folders', async () => {
    const a = await loadEmulatorSecrets(secretsFileOf(tempDataDir()));
    const b = await loadEmulatorSecrets(secretsFileOf(tempDataDir()));
    expect(a.accessToken).not.toBe(b.accessToken);
    expect(a.clientSecret).not.toBe(b.clientSecret);
  });

  it('tightens a copied file to 0600 and replaces one that holds no secrets', async () => {
    const file = secretsFileOf(tempDataDir());
    const kept = await loadEmulatorSecrets(file);
    fs.chmodSync(file, 0o644);
    expect(await loadEmulatorSecrets(file)).toEqual(kept);
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);

    fs.writeFileSync(file, JSON.stringify({ accessToken: OLD_ACCESS_TOKEN, clientSecret: OLD_CLIENT_SECRET }));
    const replaced = await loadEmulatorSecrets(file);
    expect(replaced.accessToken).not.toBe(OLD_ACCESS_TOKEN);
    expect(replaced.clientSecret).not.toBe(OLD_CLIENT_SECRET);
    expect(await loadEmulatorSecrets(file)).toEqual(replaced);
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });
});

describe('a stranger against the local shop, with the constants from the old source code', () => {
  const testChain = useTestChain();
  let h: Harness;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = tempDataDir();
    h = await startHarness('pglite', { env: { DATA_DIR: dataDir }, localShopify: true, chain: testChain.chain });
  });
  afterAll(async () => {
    await h?.close();
  });

  const adminQuery = (token: string) =>
    h.api('/shopify-emulator/admin/api/2026-07/graphql.json', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-shopify-access-token': token },
      body: JSON.stringify({ query: '{ shop { name } }' }),
    });

  it('cannot use the emulator Admin API with the old constant token; the shop can with its own', async () => {
    expect((await adminQuery(OLD_ACCESS_TOKEN)).status).toBe(401);
    const { accessToken } = await loadEmulatorSecrets(secretsFileOf(dataDir));
    expect((await adminQuery(accessToken)).status).toBe(200);
    // The shop's own client (the same token, read from the data folder) syncs the demo catalogue.
    expect((await h.catalogue.sync()).products).toBeGreaterThan(0);
  });

  it('cannot forge a Shopify webhook with the old constant secret; the data folder secret is the key', async () => {
    const body = JSON.stringify({ id: 1, admin_graphql_api_id: 'gid://shopify/Order/1' });
    const deliver = (secret: string, webhookId: string) =>
      h.api('/api/webhooks/shopify', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-shopify-topic': 'orders/fulfilled',
          'x-shopify-webhook-id': webhookId,
          'x-shopify-hmac-sha256': signWebhookBody(body, secret),
        },
        body,
      });
    const forged = await deliver(OLD_CLIENT_SECRET, 'forged-with-old-constant');
    expect(forged.status).toBe(401);
    expect((await forged.json()).code).toBe('webhook-unauthorized');
    const { clientSecret } = await loadEmulatorSecrets(secretsFileOf(dataDir));
    expect((await deliver(clientSecret, 'signed-with-data-folder-secret')).status).toBe(200);
  });

  it('keeps the same secrets when the shop starts again on the same data folder', async () => {
    const file = secretsFileOf(dataDir);
    const before = fs.readFileSync(file, 'utf8');
    const again = await startLocalShopify(loadConfig({ DATA_DIR: dataDir }), { origin: () => h.baseUrl });
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
    expect(again.config.shopify).toMatchObject(JSON.parse(before));
  });
});
