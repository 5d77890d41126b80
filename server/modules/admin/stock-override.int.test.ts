/**
 * The admin's say over Shopify's stock, end to end on each database, a real chain and the emulator
 * through the real Shopify client: one availability rule (common/availability) for the product
 * list, the cart, checkout, settlement and the admin's inventory. The Dad Cap: Shopify has none of
 * it; the admin sets a stock of 5 with "Sold out" off, and the shop sells exactly those 5.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inventorySchema, inventoryWriteResultSchema, type InventoryItem, type InventoryUpdateRequest } from '../../../common/admin';
import { orderSchema, type Product, type Variant } from '../../../common/api';
import { DEV_ACCOUNTS } from '../../chain/local-chain';
import { testDatabaseKinds } from '../../test/databases';
import { adminSession, startHarness, type Harness } from '../../test/harness';
import { payingKit, type PayingKit } from '../../test/paying';
import { Shopper } from '../../test/shopper';
import { useTestChain } from '../../test/use-test-chain';

const BUYER = DEV_ACCOUNTS[2]!;
const OTHER_BUYER = DEV_ACCOUNTS[3]!;
const testChain = useTestChain();

describe.each(testDatabaseKinds)('the admin’s stock override on %s', (kind) => {
  let h: Harness;
  let pay: PayingKit;
  let admin: string;
  /** The Dad Cap's one variant ('One Size'): Shopify's quantity 0, so Shopify sells none. */
  let dadCap: { productId: string; variantId: string };

  const call = (path: string, init: { method?: string; body?: unknown } = {}) =>
    h.api(path, {
      method: init.method ?? 'GET',
      headers: { cookie: admin, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  const update = async (changes: InventoryUpdateRequest): Promise<InventoryItem> => {
    const res = await call(`/api/inventory/${dadCap.variantId}/update`, { method: 'PATCH', body: changes });
    expect(res.status, await res.clone().text()).toBe(200);
    const [item] = inventoryWriteResultSchema.parse(await res.json()).items;
    return item!;
  };
  const inInventory = async (): Promise<InventoryItem> => {
    const res = await call('/api/inventory');
    expect(res.status).toBe(200);
    return inventorySchema.parse(await res.json()).find((i) => i.id === dadCap.variantId)!;
  };
  const inShop = async (): Promise<Variant> => {
    const res = await h.api(`/api/products/${dadCap.productId}`);
    expect(res.status).toBe(200);
    return ((await res.json()) as Product).variants.find((v) => v.id === dadCap.variantId)!;
  };
  const inList = async (): Promise<Variant | undefined> => {
    const products = (await (await h.api('/api/products')).json()) as Product[];
    return products.find((p) => p.id === dadCap.productId)?.variants.find((v) => v.id === dadCap.variantId);
  };
  const variantRow = () => h.database.db('variants').where({ shopify_id: dadCap.variantId }).first('available_stock', 'is_sold_out');
  /** Opens a checkout for `quantity` Dad Caps, pays it exactly from `wallet` and asks for the order. */
  const buy = async (s: Shopper, wallet: string, quantity: number) => {
    const c = await pay.checkout(s, dadCap.variantId, wallet, quantity);
    const hash = await pay.send(wallet, { value: BigInt(c.amountWei) });
    await pay.mine();
    const created = await pay.createOrder(s, { checkoutId: c.id, transactionHash: hash, customerWallet: wallet });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return orderSchema.parse(created.body);
  };

  beforeAll(async () => {
    h = await startHarness(kind, { chain: testChain.chain, env: { REQUIRED_CONFIRMATIONS: '1' } });
    await h.catalogue.sync();
    await h.catalogue.seedDemoPrices();
    pay = payingKit(h, testChain);
    const row = await h.database
      .db('variants as v')
      .join('products as p', 'p.id', 'v.product_id')
      .where('p.title', 'Dad Cap')
      .first('p.shopify_id as productId', 'v.shopify_id as variantId', 'v.inventory_quantity', 'v.available_for_sale');
    expect(row).toMatchObject({ inventory_quantity: 0, available_for_sale: false });
    dadCap = { productId: row.productId, variantId: row.variantId };
    admin = await adminSession(h);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('sells none while Shopify has none and the admin has said nothing', async () => {
    expect(await inShop()).toMatchObject({ isSoldOut: true, availableStock: 0 });
    expect((await inInventory()).inShop).toEqual({ isSoldOut: true, availableStock: 0, soldOutBy: 'shopify', stockFrom: null });
    const s = new Shopper(h);
    const res = await s.add({ variantId: dadCap.variantId, quantity: 1 });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ code: 'variant-sold-out', message: 'This item is sold out' });
  });

  it('sells the admin’s 5 (stock 5, "Sold out" off): the list, the product, the cart and a checkout agree', async () => {
    const item = await update({ availableStock: 5, isSoldOut: false });
    expect(item).toMatchObject({ availableStock: 5, isSoldOut: false, forSale: true, quantity: 0 });
    expect(item.inShop).toEqual({ isSoldOut: false, availableStock: 5, soldOutBy: null, stockFrom: 'admin' });
    expect(await inList()).toMatchObject({ isSoldOut: false, availableStock: 5 });
    expect(await inShop()).toMatchObject({ isSoldOut: false, availableStock: 5 });

    const s = new Shopper(h);
    expect((await s.add({ variantId: dadCap.variantId, quantity: 2 })).status).toBe(200);
    expect((await s.cart()).items).toEqual([expect.objectContaining({ variantId: dadCap.variantId, quantity: 2, problem: null })]);
    // More than the admin's 5, counting what is in the cart.
    const over = await s.add({ variantId: dadCap.variantId, quantity: 4 });
    expect(over.status).toBe(409);
    expect(await over.json()).toEqual({ code: 'insufficient-stock', message: 'Only 5 items available' });
    const opened = await s.post('/api/checkout', { customerWallet: BUYER });
    expect(opened.status, await opened.clone().text()).toBe(201);
  });

  it('makes a paid order of them, takes the units off the admin’s number, and a sync from Shopify keeps it', async () => {
    const order = await buy(new Shopper(h), BUYER, 2);
    expect(order).toMatchObject({ status: 'paid', hold: null, needsShipping: true });
    expect(await variantRow()).toMatchObject({ available_stock: 3, is_sold_out: false });
    expect(await inShop()).toMatchObject({ isSoldOut: false, availableStock: 3 });

    // Shopify still says 0 and not for sale: the admin's number stands.
    await h.catalogue.sync();
    expect(await variantRow()).toMatchObject({ available_stock: 3, is_sold_out: false });
    expect(await inList()).toMatchObject({ isSoldOut: false, availableStock: 3 });
  });

  it('refuses a checkout once the admin switches "Sold out" on, whatever the stock, and sells again when it is off', async () => {
    const s = new Shopper(h);
    expect((await s.add({ variantId: dadCap.variantId, quantity: 1 })).status).toBe(200);
    const item = await update({ isSoldOut: true });
    expect(item.inShop).toEqual({ isSoldOut: true, availableStock: 3, soldOutBy: 'admin', stockFrom: 'admin' });
    expect(await inShop()).toMatchObject({ isSoldOut: true, availableStock: 3 });
    expect((await s.cart()).items[0]).toMatchObject({ problem: 'This item is sold out' });
    const refused = await s.post('/api/checkout', { customerWallet: BUYER });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({
      code: 'cart-item-unavailable',
      message: expect.stringContaining('This item is sold out'),
    });

    await update({ isSoldOut: false });
    expect((await s.cart()).items[0]).toMatchObject({ problem: null });
  });

  it('sells the last units, then is sold out by the admin’s switch (Shopify’s quantity does not take over)', async () => {
    await buy(new Shopper(h), OTHER_BUYER, 3);
    expect(await variantRow()).toMatchObject({ available_stock: 0, is_sold_out: true });
    expect(await inShop()).toMatchObject({ isSoldOut: true, availableStock: 0 });
    expect((await inInventory()).inShop).toEqual({ isSoldOut: true, availableStock: 0, soldOutBy: 'admin', stockFrom: null });
    const res = await new Shopper(h).add({ variantId: dadCap.variantId, quantity: 1 });
    expect(res.status).toBe(409);
  });
});
