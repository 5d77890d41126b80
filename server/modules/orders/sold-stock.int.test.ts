/**
 * A paid order's units count as sold (taken from the stock shoppers see) until Shopify has the
 * order; every change of that, whoever makes it (Shopify's webhook, a chain reorganisation), reaches
 * the catalogue shoppers read at once, by an update naming the order's variants.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhookBody } from '../../../emulators/shopify';
import type { Variant } from '../../../common/api';
import { bumpCatalogueVersion } from '../catalogue';
import { testDatabaseKinds } from '../../test/databases';
import { startHarness, type Harness } from '../../test/harness';
import { createOrder, failReorgedOrder, lockOrder, restoreReorgedOrder } from '.';

const SECRET = 'integration-test-secret'; // the harness's webhook key

describe.each(testDatabaseKinds)("an order's sold units in the listed stock on %s", (kind) => {
  let h: Harness;
  let variant: Variant;
  let productId: string;
  let n = 0;
  const db = () => h.database.db;

  beforeAll(async () => {
    h = await startHarness(kind);
    await h.catalogue.sync();
    await h.catalogue.seedDemoPrices();
    // A variant whose stock is Shopify's (no number of the admin's): its sold units are held by the shop.
    const shopifyStock = new Set(
      (await db()('variants').whereNull('available_stock').where('inventory_quantity', '>', 4).select('shopify_id')).map(
        (r: { shopify_id: string }) => r.shopify_id,
      ),
    );
    const product = (await h.catalogue.list()).products.find((p) => p.variants.some((v) => shopifyStock.has(v.id)))!;
    variant = product.variants.find((v) => shopifyStock.has(v.id))!;
    productId = product.id;
  });
  afterAll(async () => {
    await h?.close();
  });

  /** The variant's listed stock now, and whether the list was brought up to date by an update. */
  const listed = async () => {
    const before = h.catalogue.builds.update;
    const snap = await h.catalogue.list();
    return { stock: snap.variantsById.get(variant.id)!.variant.availableStock, updated: h.catalogue.builds.update > before };
  };

  /** A paid order of 2 units that took its stock, written as settlement writes it. */
  const paidOrder = () =>
    db().transaction(async (trx) => {
      const intentId = randomUUID();
      const at = new Date();
      await trx('checkout_intents').insert({
        id: intentId,
        chain_id: 8453,
        token_address: '0x0000000000000000000000000000000000000001',
        store_wallet: '0x0000000000000000000000000000000000000002',
        total_wei: '200',
        amount_wei: String(BigInt(Date.now()) * 1000n + BigInt(++n)),
        status: 'paid',
        expires_at: new Date(at.getTime() + 60_000),
        match_until: new Date(at.getTime() + 120_000),
      });
      const line = { variant_id: variant.id, product_id: productId, title: 'sold', unit_price: variant.price, quantity: 2 };
      const orderId = await createOrder(
        trx,
        {
          intentId,
          sessionId: null,
          totalWei: '200',
          payment: {
            from: '0x0000000000000000000000000000000000000003',
            chainId: 8453,
            txHash: `0x${n.toString(16).padStart(64, '0')}`,
            logIndex: 0,
            blockNumber: 1,
          },
          amountPaidWei: 200n,
          overpaid: false,
          late: false,
          lines: [{ ...line, available_stock: null, is_sold_out: false }],
          outOfStock: null,
        },
        at,
      );
      await bumpCatalogueVersion(trx, { variantIds: [variant.id] });
      return orderId;
    });

  it('counts them until Shopify tells of the order, then shows the stock without them', async () => {
    const before = (await listed()).stock!;
    const orderId = await paidOrder();
    expect(await listed()).toEqual({ stock: before - 2, updated: true });
    const body = JSON.stringify({
      id: 9_000_000 + n,
      admin_graphql_api_id: `gid://shopify/Order/${9_000_000 + n}`,
      name: `#${1000 + n}`,
      note_attributes: [{ name: 'pogs_order_id', value: orderId }],
    });
    const res = await h.api('/api/webhooks/shopify', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-shopify-topic': 'orders/create',
        'x-shopify-webhook-id': `sold-${kind}-${n}`,
        'x-shopify-hmac-sha256': signWebhookBody(body, SECRET),
      },
      body,
    });
    expect(res.status).toBe(200);
    expect(await db()('orders').where({ id: orderId }).first('status')).toEqual({ status: 'confirmed' });
    // Shopify's own stock drops when it counts the order (its inventory webhook); until then the
    // shop no longer holds the units as its own sale.
    expect(await listed()).toEqual({ stock: before, updated: true });
  });

  it('gives them back when a reorganisation fails the order, and takes them again when it is paid again', async () => {
    const before = (await listed()).stock!;
    const orderId = await paidOrder();
    expect((await listed()).stock).toBe(before - 2);
    await db().transaction(async (trx) => expect(await failReorgedOrder(trx, await lockOrder(trx, orderId), new Date())).toBe('failed'));
    expect(await listed()).toEqual({ stock: before, updated: true });
    await db().transaction(async (trx) => restoreReorgedOrder(trx, await lockOrder(trx, orderId), new Date()));
    expect(await db()('orders').where({ id: orderId }).first('status')).toEqual({ status: 'paid' });
    expect(await listed()).toEqual({ stock: before - 2, updated: true });
  });
});
