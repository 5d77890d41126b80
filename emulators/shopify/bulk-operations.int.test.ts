/**
 * The emulator's bulk queries and the catalogue webhooks' reads, driven by the shop's own documents
 * (server/shopify) through the real Shopify client: the answers have exactly the shapes the shop
 * reads, the rules Shopify documents are enforced (one bulk query at a time, at most two levels of
 * nested connections), and the JSONL file is served until its URL expires.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  BULK_OPERATION_QUERY,
  BULK_PRODUCTS_QUERY,
  BULK_RUN_QUERY_MUTATION,
  CURRENT_BULK_OPERATION_QUERY,
  INVENTORY_ITEM_QUERY,
  PRODUCT_QUERY,
  ShopifyGraphql,
  type BulkOperationNode,
  type InventoryItemResult,
  type ProductResult,
} from '../../server/shopify';
import { createShopifyEmulator, type ShopifyEmulator } from './index';

const TOKEN = 'shpat_bulk_test';

describe('bulk operations in the emulator', () => {
  let server: http.Server;
  let emulator: ShopifyEmulator;
  let shopify: ShopifyGraphql;
  const clock = { now: Date.parse('2026-11-01T00:00:00Z') };

  beforeAll(async () => {
    server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    emulator = createShopifyEmulator({ publicOrigin: origin, accessToken: TOKEN, clientSecret: 'x', now: () => clock.now });
    server.on('request', emulator.app.callback());
    shopify = new ShopifyGraphql({ storeDomain: 'bulk.myshopify.com', apiVersion: '2026-07', accessToken: TOKEN, originOverride: origin });
  });
  beforeEach(() => emulator.reset());
  afterAll(async () => {
    emulator.bulkOperations.setHold(false);
    await new Promise((r) => server.close(r));
  });

  const run = async (query: string) =>
    (
      await shopify.query<{
        bulkOperationRunQuery: { bulkOperation: BulkOperationNode | null; userErrors: Array<{ message: string; code: string | null }> };
      }>(BULK_RUN_QUERY_MUTATION, { query })
    ).data.bulkOperationRunQuery;
  const poll = async (id: string): Promise<BulkOperationNode> => {
    for (let i = 0; i < 200; i++) {
      const { data } = await shopify.query<{ bulkOperation: BulkOperationNode }>(BULK_OPERATION_QUERY, { id });
      if (!['CREATED', 'RUNNING'].includes(data.bulkOperation.status)) return data.bulkOperation;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error('bulk operation never ended');
  };

  it('runs the catalogue bulk query: CREATED, then COMPLETED with a JSONL file of every product, variant and image', async () => {
    const started = await run(BULK_PRODUCTS_QUERY);
    expect(started.userErrors).toEqual([]);
    expect(started.bulkOperation).toMatchObject({ status: 'CREATED', url: null, objectCount: '0' });
    const done = await poll(started.bulkOperation!.id);
    const shop = emulator.state.listProducts();
    const variants = shop.reduce((n, p) => n + p.variants.length, 0);
    const images = shop.reduce((n, p) => n + p.images.length, 0);
    expect(done).toMatchObject({ status: 'COMPLETED', errorCode: null, rootObjectCount: String(shop.length) });
    expect(Number(done.objectCount)).toBe(shop.length + variants + images);

    const res = await fetch(done.url!);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(Buffer.byteLength(text)).toBe(Number(done.fileSize));
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(Number(done.objectCount));
    const products = lines.filter((l) => !('__parentId' in l));
    expect(products.map((p) => p.id).sort()).toEqual(shop.map((p) => `gid://shopify/Product/${p.legacyId}`).sort());
    const first = shop[0];
    const children = lines.filter((l) => l.__parentId === `gid://shopify/Product/${first.legacyId}`);
    expect(children.filter((c) => String(c.id).includes('ProductVariant')).map((c) => c.title)).toEqual(first.variants.map((v) => v.title));
    expect(products[0]).not.toHaveProperty('variants');

    // currentBulkOperation answers the newest one.
    const { data } = await shopify.query<{ currentBulkOperation: BulkOperationNode }>(CURRENT_BULK_OPERATION_QUERY, {});
    expect(data.currentBulkOperation.id).toBe(done.id);

    // The URL expires after seven days.
    clock.now += 7 * 24 * 3600_000 + 1000;
    expect((await fetch(done.url!)).status).toBe(403);
  });

  it('refuses a second bulk query while one runs, with Shopify’s userError', async () => {
    emulator.bulkOperations.setHold(true);
    const first = await run(BULK_PRODUCTS_QUERY);
    const second = await run(BULK_PRODUCTS_QUERY);
    expect(second.bulkOperation).toBeNull();
    expect(second.userErrors).toEqual([
      {
        field: null,
        message: `A bulk query operation for this app and shop is already in progress: ${first.bulkOperation!.id}.`,
        code: 'OPERATION_IN_PROGRESS',
      },
    ]);
    emulator.bulkOperations.setHold(false);
    expect((await poll(first.bulkOperation!.id)).status).toBe('COMPLETED');
  });

  it('ends FAILED when told to, and refuses queries Shopify refuses', async () => {
    emulator.bulkOperations.failNextOperation();
    const op = await poll((await run(BULK_PRODUCTS_QUERY)).bulkOperation!.id);
    expect(op).toMatchObject({ status: 'FAILED', errorCode: 'INTERNAL_SERVER_ERROR', url: null });
    for (const [query, message] of [
      ['{ shop { name } }', /at least one connection/],
      ['{ products { edges { node { variants { edges { node { product { media { edges { node { id } } } } } } } } } } }', /nesting depth/],
      ['{ products { edges { node { idd } } } }', /Invalid bulk query/],
    ] as const) {
      const refused = await run(query);
      expect(refused.bulkOperation).toBeNull();
      expect(refused.userErrors[0]).toMatchObject({ code: 'INVALID', message: expect.stringMatching(message) });
    }
  });

  it('answers the webhook re-reads: a product by id, and an inventory item’s variant', async () => {
    const p = emulator.state.listProducts()[0];
    const { data } = await shopify.query<ProductResult>(PRODUCT_QUERY, {
      id: `gid://shopify/Product/${p.legacyId}`,
      variantsFirst: 50,
      mediaFirst: 20,
    });
    expect(data.product).toMatchObject({ id: `gid://shopify/Product/${p.legacyId}`, title: p.title });
    const v = p.variants[0];
    emulator.setInventory(v.legacyId, 5);
    const item = await shopify.query<InventoryItemResult>(INVENTORY_ITEM_QUERY, {
      id: `gid://shopify/InventoryItem/${v.inventoryItemLegacyId}`,
    });
    expect(item.data.inventoryItem).toEqual({
      id: `gid://shopify/InventoryItem/${v.inventoryItemLegacyId}`,
      variant: {
        id: `gid://shopify/ProductVariant/${v.legacyId}`,
        inventoryQuantity: 5,
        availableForSale: true,
        product: { id: `gid://shopify/Product/${p.legacyId}` },
      },
    });
  });
});
