import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncStartSchema, syncStatusSchema, type SyncJob } from '../../../common/api';
import { signWebhookBody } from '../../../emulators/shopify';
import { createLogger } from '../../lib/logger';
import { subscribeShopifyWebhooks } from '../orders';
import { adminSession, startHarness, type Harness } from '../../test/harness';
import { testDatabaseKinds } from '../../test/databases';

const SECRET = 'integration-test-secret';

describe.each(testDatabaseKinds)('catalogue sync jobs and webhooks on %s', (kind) => {
  let h: Harness;
  let cookie: string;

  beforeAll(async () => {
    h = await startHarness(kind);
    cookie = await adminSession(h);
    await subscribeShopifyWebhooks(h.shopify, `${h.baseUrl}/api/webhooks/shopify`, createLogger({ level: 'silent' }));
  });
  afterAll(async () => {
    h?.emulator.bulkOperations.setHold(false);
    await h?.close();
  });

  const post = (path: string, body?: unknown, c = cookie) =>
    h.api(path, {
      method: 'POST',
      headers: { cookie: c, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const status = async (): Promise<SyncJob | null> => {
    const res = await h.api('/api/inventory/sync', { headers: { cookie } });
    expect(res.status).toBe(200);
    return syncStatusSchema.parse(await res.json()).job;
  };
  const until = async <T>(what: () => Promise<T> | T, ok: (v: T) => boolean, label: string): Promise<T> => {
    for (let i = 0; i < 500; i++) {
      const v = await what();
      if (ok(v)) return v;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`timed out waiting for ${label}`);
  };
  const ended = async (): Promise<SyncJob> => (await until(status, (j) => j !== null && j.status !== 'running', 'the sync to end'))!;
  const productRow = (legacyId: string) => h.database.db('products').where({ shopify_id: legacyId }).first();
  const addProducts = (n: number, prefix: string) => {
    for (let i = 0; i < n; i++) {
      h.emulator.upsertProduct({
        title: `${prefix} ${i}`,
        status: 'ACTIVE',
        images: [{ alt: 'front' }],
        variants: [
          { title: 'S', price: '1.00', inventoryQuantity: i % 7, selectedOptions: [{ name: 'Size', value: 'S' }] },
          { title: 'L', price: '2.00', inventoryQuantity: 3, selectedOptions: [{ name: 'Size', value: 'L' }] },
        ],
      });
    }
  };

  it('lands a few hundred products through one bulk query, every variant and image', async () => {
    addProducts(300, 'Bulk pog');
    const shop = h.emulator.state.listProducts();
    const result = await h.catalogue.sync('test');
    expect(result).toMatchObject({ method: 'bulk', pages: 0, products: shop.length, deactivated: 0 });
    expect(result.variants).toBe(shop.reduce((n, p) => n + p.variants.length, 0));
    const ops = h.emulator.requestLog.map((r) => r.operationName);
    expect(ops).toContain('BulkRunQuery');
    expect(ops).not.toContain('CataloguePage');
    const [{ n }] = await h.database.db('products').whereNull('removed_at').count({ n: '*' });
    expect(Number(n)).toBe(shop.length);
    const sample = shop.find((p) => p.title === 'Bulk pog 123')!;
    const row = await productRow(sample.legacyId);
    expect(row).toMatchObject({ title: 'Bulk pog 123' });
    expect(row.images).toHaveLength(1);
    const variants = await h.database.db('variants').where({ product_id: row.id }).orderBy('position');
    expect(variants.map((v) => [v.title, v.inventory_quantity])).toEqual([
      ['S', 123 % 7],
      ['L', 3],
    ]);
  });

  it('falls back to paging when the bulk query fails, and says so in the result', async () => {
    h.emulator.bulkOperations.failNextOperation();
    const result = await h.catalogue.sync('test');
    expect(result.method).toBe('paged');
    expect(result.pages).toBeGreaterThan(0);
    expect(result.products).toBe(h.emulator.state.listProducts().length);
    expect(h.emulator.bulkOperations.current()?.status).toBe('FAILED');
  });

  it('starts in the background (202), shows its progress, answers the running job to a second press, then ends', async () => {
    const bulkRuns = () => h.emulator.requestLog.filter((r) => r.operationName === 'BulkRunQuery').length;
    const runsBefore = bulkRuns();
    h.emulator.bulkOperations.setHold(true);
    const first = await post('/api/inventory/sync');
    expect(first.status).toBe(202);
    const started = syncStartSchema.parse(await first.json());
    expect(started).toMatchObject({ started: true, job: { status: 'running', trigger: 'admin' } });

    const again = await post('/api/inventory/sync');
    expect(again.status).toBe(202);
    expect(syncStartSchema.parse(await again.json())).toMatchObject({ started: false, job: { id: started.job.id } });
    // Nor does a start-up or periodic sync start another.
    await expect(h.catalogue.sync('schedule')).rejects.toMatchObject({ code: 'sync-in-progress' });

    const running = await until(status, (j) => j?.phase === 'bulk-running', 'the bulk query phase');
    expect(running).toMatchObject({ id: started.job.id, status: 'running', method: 'bulk', finishedAt: null });
    expect(bulkRuns()).toBe(runsBefore + 1);

    h.emulator.bulkOperations.setHold(false);
    const done = await ended();
    expect(done).toMatchObject({ id: started.job.id, status: 'succeeded', phase: 'done', method: 'bulk', error: null });
    expect(done.productsRead).toBe(h.emulator.state.listProducts().length);
    expect(done.total).toBe(done.productsRead);
    expect(done.result?.products).toBe(done.productsRead);
    expect(done.finishedAt).not.toBeNull();
    const audit = await (await h.api('/api/admin/audit?limit=1', { headers: { cookie } })).json();
    expect(JSON.stringify(audit)).toContain('inventory-synced');
  });

  it('reports a sync that failed with its reason', async () => {
    h.emulator.bulkOperations.failNextOperation();
    h.emulator.failNext(60, 500);
    const res = await post('/api/inventory/sync');
    expect(res.status).toBe(202);
    const job = await ended();
    h.emulator.failNext(0, 500);
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/Shopify/);
  });

  it('lets no stranger start a sync or read its status', async () => {
    const before = await status();
    for (const c of ['', 'pogs_admin=forged-session-value-that-is-long-enough-0000000']) {
      const start = await post('/api/inventory/sync', undefined, c);
      expect(start.status).toBe(401);
      expect(await start.json()).toMatchObject({ code: expect.any(String) });
      const read = await h.api('/api/inventory/sync', { headers: c ? { cookie: c } : {} });
      expect(read.status).toBe(401);
      expect(JSON.stringify(await read.json())).not.toContain('productsRead');
    }
    expect((await status())?.id).toBe(before?.id);
  });

  it('applies products/update, products/create, inventory_levels/update and products/delete within the delivery', async () => {
    await h.catalogue.sync('test');
    const target = h.emulator.state.listProducts().find((p) => p.title === 'Bulk pog 5')!;
    // The admin's own fields survive a webhook.
    await h.database.db('products').where({ shopify_id: target.legacyId }).update({ custom_title: 'Admin title' });
    const versionBefore = await h.database.db('app_state').where({ key: 'catalogue_version' }).first();

    const update = await fetch(`${emulatorOrigin()}/__emulator/products`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ legacyId: target.legacyId, title: 'Renamed by the merchant' }),
    });
    expect(update.status).toBe(200);
    await h.emulator.webhooksIdle();
    expect(lastDelivery('products/update')).toMatchObject({ status: 'delivered', lastStatusCode: 200 });
    expect(await productRow(target.legacyId)).toMatchObject({ title: 'Renamed by the merchant', custom_title: 'Admin title' });
    const versionAfter = await h.database.db('app_state').where({ key: 'catalogue_version' }).first();
    expect(Number(versionAfter.value)).toBeGreaterThan(Number(versionBefore.value));

    // A product the shop has never seen is created.
    const created = h.emulator.changeProduct({
      title: 'Brand new pog',
      status: 'ACTIVE',
      variants: [{ price: '4.00', inventoryQuantity: 2 }],
    });
    await h.emulator.webhooksIdle();
    expect(lastDelivery('products/create')).toMatchObject({ status: 'delivered' });
    expect(await productRow(created.legacyId)).toMatchObject({ title: 'Brand new pog', removed_at: null });

    const variant = target.variants[0];
    h.emulator.setInventory(variant.legacyId, 42);
    await h.emulator.webhooksIdle();
    expect(lastDelivery('inventory_levels/update')).toMatchObject({ status: 'delivered' });
    expect(await h.database.db('variants').where({ shopify_id: variant.legacyId }).first()).toMatchObject({ inventory_quantity: 42 });

    const del = await fetch(`${emulatorOrigin()}/__emulator/products/${created.legacyId}`, { method: 'DELETE' });
    expect(del.status).toBe(200);
    await h.emulator.webhooksIdle();
    expect((await productRow(created.legacyId)).removed_at).not.toBeNull();
  });

  it('creates a product whose first news is a stock change', async () => {
    const unseen = h.emulator.upsertProduct({ title: 'Quiet pog', status: 'ACTIVE', variants: [{ price: '1.00', inventoryQuantity: 1 }] });
    expect(await productRow(unseen.legacyId)).toBeUndefined();
    h.emulator.setInventory(unseen.variants[0].legacyId, 9);
    await h.emulator.webhooksIdle();
    expect(await productRow(unseen.legacyId)).toMatchObject({ title: 'Quiet pog' });
    expect(await h.database.db('variants').where({ shopify_id: unseen.variants[0].legacyId }).first()).toMatchObject({
      inventory_quantity: 9,
    });
  });

  it('ignores a duplicate delivery (same X-Shopify-Webhook-Id)', async () => {
    const target = h.emulator.state.listProducts().find((p) => p.title === 'Bulk pog 6')!;
    h.emulator.changeProduct({ legacyId: target.legacyId, title: 'Once' });
    await h.emulator.webhooksIdle();
    const first = lastDelivery('products/update')!;
    // Changed again in the shop's database; a copy of the old delivery must not re-apply anything.
    await h.database.db('products').where({ shopify_id: target.legacyId }).update({ title: 'Changed since' });
    h.emulator.redeliver(first.webhookId);
    await h.emulator.webhooksIdle();
    expect(lastDelivery('products/update')).toMatchObject({ webhookId: first.webhookId, status: 'delivered' });
    expect(await productRow(target.legacyId)).toMatchObject({ title: 'Changed since' });
    const [{ n }] = await h.database.db('webhook_events').where({ webhook_id: first.webhookId }).count({ n: '*' });
    expect(Number(n)).toBe(1);
  });

  it('keeps a webhook’s newer product and stock when an older bulk snapshot arrives after it', async () => {
    const target = h.emulator.state.listProducts().find((p) => p.title === 'Bulk pog 7')!;
    const variant = target.variants[1];
    h.emulator.bulkOperations.setHold(true);
    const start = await post('/api/inventory/sync');
    const { job } = syncStartSchema.parse(await start.json());
    // The snapshot is taken when the bulk query starts running.
    await until(
      () => h.emulator.bulkOperations.current(),
      (op) => op?.status === 'RUNNING',
      'the bulk query to run',
    );
    h.emulator.changeProduct({ legacyId: target.legacyId, title: 'Newer than the snapshot' });
    h.emulator.setInventory(variant.legacyId, 77);
    await h.emulator.webhooksIdle();
    expect(await productRow(target.legacyId)).toMatchObject({ title: 'Newer than the snapshot' });

    h.emulator.bulkOperations.setHold(false);
    const done = await ended();
    expect(done).toMatchObject({ id: job.id, status: 'succeeded', method: 'bulk' });
    expect(await productRow(target.legacyId)).toMatchObject({ title: 'Newer than the snapshot', removed_at: null });
    expect(await h.database.db('variants').where({ shopify_id: variant.legacyId }).first()).toMatchObject({ inventory_quantity: 77 });
  });

  it('answers a forged signature 401 and changes nothing', async () => {
    const target = h.emulator.state.listProducts().find((p) => p.title === 'Bulk pog 8')!;
    const before = await productRow(target.legacyId);
    const body = JSON.stringify({ id: Number(target.legacyId), admin_graphql_api_id: `gid://shopify/Product/${target.legacyId}` });
    h.emulator.upsertProduct({ legacyId: target.legacyId, title: 'Forged rename' });
    for (const hmac of [signWebhookBody(body, 'not-the-secret'), '', signWebhookBody(`${body} `, SECRET)]) {
      const res = await h.api('/api/webhooks/shopify', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'X-Shopify-Topic': 'products/update',
          'X-Shopify-Webhook-Id': `forged-${hmac.length}-${Math.random()}`,
          ...(hmac ? { 'X-Shopify-Hmac-Sha256': hmac } : {}),
        },
        body,
      });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: 'webhook-unauthorized' });
    }
    expect(await productRow(target.legacyId)).toEqual(before);
  });

  function lastDelivery(topic: string) {
    return h.emulator.webhookDeliveries.filter((d) => d.topic === topic).at(-1);
  }
  function emulatorOrigin(): string {
    return h.emulatorOrigin;
  }
});

describe.each(testDatabaseKinds.filter((k) => k === 'postgres'))('one sync across two instances on %s', (kind) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(kind);
  });
  afterAll(async () => {
    h?.emulator.bulkOperations.setHold(false);
    await h?.close();
  });

  it('a start on another instance answers the running sync instead of starting another', async () => {
    const other = await h.startAnotherInstance();
    h.emulator.bulkOperations.setHold(true);
    const mine = await h.catalogue.startSync('admin');
    expect(mine.started).toBe(true);
    const theirs = await other.catalogue.startSync('schedule');
    expect(theirs).toMatchObject({ started: false, job: { id: mine.job.id, status: 'running' } });
    h.emulator.bulkOperations.setHold(false);
    await mine.done;
    expect((await other.catalogue.syncStatus())?.status).toBe('succeeded');
    expect(h.emulator.requestLog.filter((r) => r.operationName === 'BulkRunQuery')).toHaveLength(1);
  });
});
