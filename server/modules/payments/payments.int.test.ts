/**
 * Payments end to end on a real chain (anvil), the real Shopify client against the emulator, and
 * each database: a transfer becomes exactly one order, and nothing else does (docs/payments.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractFactory, parseUnits } from 'ethers';
import { checkoutSchema, orderSchema, type Checkout, type Product } from '../../../common/api';
import { formatUnits } from '../../../common/money';
import artifact from '../../chain/contracts/demo-pogs-token.json';
import { DEV_ACCOUNTS } from '../../chain/local-chain';
import { payingKit, type PayingKit } from '../../test/paying';
import { useTestChain } from '../../test/use-test-chain';
import { testDatabaseKinds } from '../../test/databases';
import { startHarness, type Harness } from '../../test/harness';
import { Shopper } from '../../test/shopper';
import { bumpCatalogueVersion } from '../catalogue';
import { OrdersService } from '../orders';
import { createPaymentServices } from './system';
import { SUFFIX_SPACE_WEI } from './amount';
import { deployed } from '../../chain/mined';

const BUYER = DEV_ACCOUNTS[2]!;
const OTHER_BUYER = DEV_ACCOUNTS[3]!;
/** Anvil's account #4: ETH for gas, no POGS. */
const NO_POGS = '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65';
const testChain = useTestChain();

describe.each(testDatabaseKinds)('payments on %s', (kind) => {
  let h: Harness;
  let products: Product[];
  let token: string;
  let store: string;

  beforeAll(async () => {
    h = await startHarness(kind, {
      chain: testChain.chain,
      env: { REQUIRED_CONFIRMATIONS: '2' },
      emulator: { webhookRetryDelaysMs: [20, 50, 100] },
    });
    await h.catalogue.sync();
    await h.catalogue.seedDemoPrices();
    // One variant without a known stock limit, so the tests never run each other out of stock.
    const first = (await h.catalogue.list()).products.flatMap((p) => p.variants).find((v) => !v.isSoldOut)!;
    await h.database.db('variants').where({ shopify_id: first.id }).update({ available_stock: null, inventory_quantity: null });
    await bumpCatalogueVersion(h.database.db);
    products = (await h.catalogue.list()).products;
    token = h.payments!.target.tokenAddress;
    store = h.payments!.target.storeWallet;
  });
  afterAll(async () => {
    await h?.close();
  });

  const unlimited = () => {
    for (const p of products) for (const v of p.variants) if (!v.isSoldOut && v.availableStock === 0) return v;
    throw new Error('no unlimited variant in the demo catalogue');
  };
  const db = () => h.database.db;
  let pay: PayingKit;
  beforeAll(() => {
    pay = payingKit(h, testChain);
  });
  const mine = (blocks = 1) => pay.mine(blocks);
  const send = (from: string, opts: { value: bigint; to?: string; tokenAddress?: string }) => pay.send(from, opts);
  const checkout = (s: Shopper, wallet: string | null, quantity = 2) => pay.checkout(s, unlimited().id, wallet, quantity);
  const createOrder = (s: Shopper, body: Record<string, unknown>) => pay.createOrder(s, body);
  const ordersFor = (txHash: string) => pay.ordersFor(txHash);

  it('pays a checkout: exact unique amount, verified order, same order on repeat, buyer-only', async () => {
    const s = new Shopper(h);
    const variant = unlimited();
    const c = await checkout(s, BUYER);
    const total = parseUnits(variant.price, 18) * 2n;
    const suffix = BigInt(c.amountWei) - total;
    expect(suffix > 0n && suffix < SUFFIX_SPACE_WEI).toBe(true);
    expect(c).toMatchObject({
      status: 'open',
      displayTotal: formatUnits(total),
      amountReceived: '0.00',
      amountDue: formatUnits(total),
      chainId: 8453,
      customerWallet: BUYER.toLowerCase(),
      orderId: null,
    });
    expect(c.amount).toBe(formatUnits(BigInt(c.amountWei), 18, 18));
    expect(c.paymentUri).toBe(`ethereum:${token.toLowerCase()}@8453/transfer?address=${store.toLowerCase()}&uint256=${c.amountWei}`);
    const ttl = Date.parse(c.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(29 * 60_000);
    expect(ttl).toBeLessThanOrEqual(30 * 60_000);

    const hash = await send(BUYER, { value: BigInt(c.amountWei) });
    const hint = await s.post(`/api/checkout/${c.id}/transaction`, { transactionHash: hash });
    expect((await hint.json()).transactionHash).toBe(hash.toLowerCase());

    // One block deep is not enough with REQUIRED_CONFIRMATIONS=2.
    const early = await createOrder(s, { checkoutId: c.id, transactionHash: hash, customerWallet: BUYER });
    expect(early.status).toBe(202);
    expect(early.body.code).toBe('awaiting-confirmations');
    await mine();

    const first = await createOrder(s, { checkoutId: c.id, transactionHash: hash, customerWallet: BUYER });
    expect(first.status).toBe(201);
    const order = orderSchema.parse(first.body);
    expect(order).toMatchObject({
      status: 'paid',
      needsShipping: true,
      shippingUrl: `/orders/${order.id}/shipping`,
      shippingReady: false,
      total: formatUnits(total),
      amountPaid: c.amount,
      customerWallet: BUYER.toLowerCase(),
      transactionHash: hash.toLowerCase(),
    });
    expect(order.items).toEqual([expect.objectContaining({ variantId: variant.id, price: variant.price, quantity: 2 })]);
    expect(order.hold).toBeNull();

    const again = await createOrder(s, { checkoutId: c.id, transactionHash: hash, customerWallet: BUYER });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(order.id);
    // The older clients' payload (no checkout id) finds the same order too.
    const specPayload = await createOrder(s, { transactionHash: hash, customerWallet: BUYER });
    expect(specPayload.body.id).toBe(order.id);
    expect(await ordersFor(hash)).toHaveLength(1);

    expect((await s.request(`/api/orders/${order.id}`)).status).toBe(200);
    expect(checkoutSchema.parse(await (await s.request(`/api/checkout/${c.id}`)).json())).toMatchObject({
      status: 'paid',
      orderId: order.id,
    });
    expect((await s.cart()).items).toEqual([]);
    const stranger = new Shopper(h);
    await stranger.add({ variantId: variant.id, quantity: 1 });
    expect((await stranger.request(`/api/orders/${order.id}`)).status).toBe(404);
    expect((await stranger.request(`/api/checkout/${c.id}`)).status).toBe(404);
    // Presenting someone else's transaction from another session cannot claim it, nor can the
    // stranger report it on the buyer's checkout.
    const stolen = await createOrder(stranger, { transactionHash: hash, customerWallet: BUYER });
    expect(stolen).toMatchObject({ status: 404, body: { code: 'checkout-not-found' } });
    const hinted = await stranger.post(`/api/checkout/${c.id}/transaction`, { transactionHash: hash });
    expect(hinted.status).toBe(404);
    expect(await ordersFor(hash)).toHaveLength(1);
  });

  it('hands the order to Shopify and follows the webhooks to confirmed and shipped', async () => {
    const s = new Shopper(h);
    const c = await checkout(s, BUYER, 1);
    const hash = await send(BUYER, { value: BigInt(c.amountWei) });
    await mine();
    const order = orderSchema.parse((await createOrder(s, { checkoutId: c.id, transactionHash: hash, customerWallet: BUYER })).body);

    expect(await h.payments!.handoff.runDue()).toBeGreaterThanOrEqual(1);
    const drafts = h.emulator.orders.listDraftOrders().filter((d) => d.tags.includes(`pogs-order-${order.id}`));
    expect(drafts).toHaveLength(1);
    const draft = drafts[0]!;
    const invoiceUrl: string = (await db()('orders').where({ id: order.id }).first()).shopify_invoice_url;
    expect(invoiceUrl).toMatch(new RegExp(`/invoices/${draft.invoiceToken}$`));
    expect(draft.lineItems.map((l) => l.quantity)).toEqual([1]);
    expect(draft.shippingLine).toMatchObject({ title: 'Shipping (paid in $POGS)' });
    expect(draft.appliedDiscount).toMatchObject({ valueType: 'PERCENTAGE', value: 100 });
    expect(draft.taxExempt).toBe(true);
    expect(draft.customAttributes).toEqual(
      expect.arrayContaining([
        { key: 'pogs_order_id', value: order.id },
        { key: 'chain_tx', value: hash.toLowerCase() },
      ]),
    );

    const redirect = await s.request(order.shippingUrl, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe(invoiceUrl);
    // Nobody else is sent to the (bearer-secret) invoice page.
    expect((await new Shopper(h).request(order.shippingUrl, { redirect: 'manual' })).status).not.toBe(302);

    // The shopper gives the address on Shopify's page: signed webhooks confirm the order.
    const form = new URLSearchParams({
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      address1: '1 Main St',
      city: 'London',
      zip: 'N1 1AA',
      country: 'GB',
    });
    const submitted = await fetch(invoiceUrl, { method: 'POST', body: form, redirect: 'manual' });
    expect(submitted.status, await submitted.clone().text()).toBeLessThan(400);
    await h.emulator.webhooksIdle();
    let current = orderSchema.parse(await (await s.request(`/api/orders/${order.id}`)).json());
    expect(current).toMatchObject({ status: 'confirmed', needsShipping: false });

    const shopifyOrderId = (await db()('orders').where({ id: order.id }).first()).shopify_order_id;
    expect(shopifyOrderId).toMatch(/^gid:\/\/shopify\/Order\/\d+$/);
    h.emulator.fulfillOrder(shopifyOrderId);
    await h.emulator.webhooksIdle();
    current = orderSchema.parse(await (await s.request(`/api/orders/${order.id}`)).json());
    expect(current.status).toBe('shipped');

    // A duplicate delivery changes nothing; a forged one is refused.
    const delivery = h.emulator.webhookDeliveries.find((d) => d.topic === 'orders/create' && d.body.includes(order.id))!;
    await h.emulator.redeliver(delivery.webhookId);
    await h.emulator.webhooksIdle();
    expect((await db()('orders').where({ id: order.id }).first()).status).toBe('shipped');
    const forged = await h.api('/api/webhooks/shopify', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-shopify-topic': 'orders/create',
        'x-shopify-webhook-id': 'forged-1',
        'x-shopify-hmac-sha256': 'AAAA',
      },
      body: delivery.body,
    });
    expect(forged.status).toBe(401);
    expect((await forged.json()).code).toBe('webhook-unauthorized');
  });

  it('makes exactly one order when the tab dies after the transfer (the watcher finds it)', async () => {
    const s = new Shopper(h);
    const c = await checkout(s, BUYER);
    const hash = await send(BUYER, { value: BigInt(c.amountWei) });
    await mine();
    const first = await h.payments!.watcher.tick();
    expect(first.leader).toBe(true);
    expect(await ordersFor(hash)).toHaveLength(1);
    expect((await h.payments!.watcher.tick()).orders).toBe(0);
    const status = checkoutSchema.parse(await (await s.request(`/api/checkout/${c.id}`)).json());
    expect(status.status).toBe('paid');
    // The shopper comes back later and asks: the same order.
    const late = await createOrder(s, { checkoutId: c.id, transactionHash: hash, customerWallet: BUYER });
    expect(late.status).toBe(200);
    expect(late.body.id).toBe(status.orderId);
  });

  it('pays a "pay from another wallet" checkout from whichever wallet sends the exact amount', async () => {
    const s = new Shopper(h);
    const c = await checkout(s, null);
    const hash = await send(OTHER_BUYER, { value: BigInt(c.amountWei) });
    await mine();
    await h.payments!.watcher.tick();
    const [order] = await ordersFor(hash);
    expect(order).toMatchObject({ intent_id: c.id, customer_wallet: OTHER_BUYER.toLowerCase() });
  });

  it('turns the same hash sent concurrently into one order', async () => {
    const s = new Shopper(h);
    const c = await checkout(s, BUYER);
    const hash = await send(BUYER, { value: BigInt(c.amountWei) });
    await mine();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => createOrder(s, { checkoutId: c.id, transactionHash: hash, customerWallet: BUYER })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(await ordersFor(hash)).toHaveLength(1);
  });

  it('rejects every payment that does not pay the checkout, each with its code, and makes no order', async () => {
    const expectRejected = async (s: Shopper, body: Record<string, unknown>, status: number, code: string) => {
      const res = await createOrder(s, body);
      expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
      expect(typeof res.body.message).toBe('string');
      if (body.transactionHash) expect(await ordersFor(String(body.transactionHash))).toHaveLength(0);
    };

    // Underpaid, from a wallet nobody proved: not the exact amount, so it identifies nothing and is
    // kept for the admin with its sender. Once this browser signs in with that wallet, the transfer
    // is counted towards its checkout, which asks for the rest.
    let s = new Shopper(h);
    let c = await checkout(s, BUYER);
    let hash = await send(BUYER, { value: BigInt(c.amountWei) - 10n ** 18n });
    await mine();
    await expectRejected(s, { checkoutId: c.id, transactionHash: hash, customerWallet: BUYER }, 422, 'payment-unmatched');
    expect(await db()('chain_transfers').where({ tx_hash: hash.toLowerCase() }).first()).toMatchObject({
      status: 'unmatched',
      intent_id: null,
    });
    await s.signIn(testChain.provider, BUYER);
    expect(await db()('chain_transfers').where({ tx_hash: hash.toLowerCase() }).first()).toMatchObject({
      status: 'underpaid',
      intent_id: c.id,
    });
    await expectRejected(s, { checkoutId: c.id, transactionHash: hash }, 422, 'payment-underpaid');
    // Asked again: the same answer, nothing counted twice.
    await expectRejected(s, { checkoutId: c.id, transactionHash: hash }, 422, 'payment-underpaid');
    const after = checkoutSchema.parse(await (await s.request(`/api/checkout/${c.id}`)).json());
    expect(after).toMatchObject({
      status: 'underpaid',
      amountReceived: formatUnits(BigInt(c.amountWei) - 10n ** 18n, 18, 2),
      amountDue: '1.00',
    });
    // The remainder's own exact amount: 1.00 plus a fresh suffix.
    expect(BigInt(after.amountWei) - 10n ** 18n).toBeGreaterThan(0n);
    expect(BigInt(after.amountWei) - 10n ** 18n).toBeLessThan(SUFFIX_SPACE_WEI);
    await s.request('/api/auth/logout', { method: 'POST' });

    // To another recipient than the store.
    s = new Shopper(h);
    c = await checkout(s, BUYER);
    hash = await send(BUYER, { value: BigInt(c.amountWei), to: OTHER_BUYER });
    await mine();
    await expectRejected(s, { checkoutId: c.id, transactionHash: hash, customerWallet: BUYER }, 422, 'transfer-not-found');

    // Of another token contract (same symbol, same decimals: still not POG).
    const factory = new ContractFactory(artifact.abi, artifact.bytecode, await testChain.provider.getSigner(DEV_ACCOUNTS[0]!));
    const fake = await factory.deploy([BUYER], parseUnits('1000000', 18));
    await deployed(fake);
    hash = await send(BUYER, { value: BigInt(c.amountWei), tokenAddress: await fake.getAddress() });
    await mine();
    await expectRejected(s, { checkoutId: c.id, transactionHash: hash, customerWallet: BUYER }, 422, 'transfer-not-found');

    // Reverted on chain (an account with no POGS; the gas limit skips estimation, so it is mined).
    hash = await send(NO_POGS, { value: BigInt(c.amountWei) });
    await mine();
    expect((await testChain.provider.getTransactionReceipt(hash))!.status).toBe(0);
    await expectRejected(s, { checkoutId: c.id, transactionHash: hash, customerWallet: NO_POGS }, 422, 'transaction-failed');

    // A hash that does not exist.
    await expectRejected(
      s,
      { checkoutId: c.id, transactionHash: '0x' + '12'.repeat(32), customerWallet: BUYER },
      404,
      'transaction-not-found',
    );

    // A transfer that already paid another checkout.
    const other = new Shopper(h);
    const paidCheckout = await checkout(other, BUYER);
    const paidHash = await send(BUYER, { value: BigInt(paidCheckout.amountWei) });
    await mine();
    expect((await createOrder(other, { checkoutId: paidCheckout.id, transactionHash: paidHash, customerWallet: BUYER })).status).toBe(201);
    const reuse = await createOrder(s, { checkoutId: c.id, transactionHash: paidHash, customerWallet: BUYER });
    expect({ status: reuse.status, code: reuse.body.code }).toEqual({ status: 409, code: 'transaction-already-used' });
    expect(await ordersFor(paidHash)).toHaveLength(1);

    // Bad input is a 400 that says what to send, never a 500.
    for (const body of [{}, { transactionHash: 'nope', customerWallet: BUYER }, { transactionHash: hash, customerWallet: '0x123' }]) {
      const res = await createOrder(s, body);
      expect(res.status).toBe(400);
    }
    expect((await s.post('/api/checkout', { customerWallet: 'not-an-address' })).status).toBe(400);
    expect((await new Shopper(h).post('/api/checkout', { customerWallet: BUYER })).status).toBe(409);
  });

  it('pays a checkout from whichever wallet sends its exact amount, whatever wallet it named', async () => {
    const s = new Shopper(h);
    const c = await checkout(s, BUYER);
    const hash = await send(OTHER_BUYER, { value: BigInt(c.amountWei) });
    await mine();
    const res = await createOrder(s, { checkoutId: c.id, transactionHash: hash, customerWallet: BUYER });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ customerWallet: OTHER_BUYER.toLowerCase(), amountPaid: c.amount });
  });

  it('keeps an overpayment from an unproven wallet for the admin, and makes a flagged order when the wallet is proven', async () => {
    // Not the exact amount, from a wallet nobody proved: it identifies nothing.
    let s = new Shopper(h);
    let c = await checkout(s, BUYER);
    let hash = await send(BUYER, { value: BigInt(c.amountWei) + 10n ** 18n });
    await mine();
    const res = await createOrder(s, { checkoutId: c.id, transactionHash: hash });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 422, code: 'payment-unmatched' });
    expect(await db()('chain_transfers').where({ tx_hash: hash.toLowerCase() }).first()).toMatchObject({
      status: 'unmatched',
      intent_id: null,
      from_address: BUYER.toLowerCase(),
      value_wei: String(BigInt(c.amountWei) + 10n ** 18n),
    });

    // The same from a wallet this browser signed in with: its one payable checkout is paid, flagged.
    s = new Shopper(h);
    c = await checkout(s, OTHER_BUYER);
    await s.signIn(testChain.provider, OTHER_BUYER);
    hash = await send(OTHER_BUYER, { value: BigInt(c.amountWei) + 10n ** 18n });
    await mine();
    const paid = await createOrder(s, { checkoutId: c.id, transactionHash: hash });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(paid.body.amountPaid).toBe(formatUnits(BigInt(c.amountWei) + 10n ** 18n, 18, 18));
    expect((await ordersFor(hash))[0]).toMatchObject({ status: 'paid', overpaid: true });
    await s.request('/api/auth/logout', { method: 'POST' });
  });

  it('honours a late payment while stock allows, and keeps one on hold for the admin when it does not', async () => {
    const expire = (id: string) =>
      db()('checkout_intents')
        .where({ id })
        .update({ expires_at: new Date(Date.now() - 60_000), created_at: new Date(Date.now() - 31 * 60_000) });

    // Expired, but the items are still there: an order, flagged late.
    let s = new Shopper(h);
    let c = await checkout(s, BUYER, 1);
    await expire(c.id);
    await h.payments!.watcher.tick(); // the sweep marks it expired (its amount stays reserved)
    expect(checkoutSchema.parse(await (await s.request(`/api/checkout/${c.id}`)).json()).status).toBe('expired');
    let hash = await send(BUYER, { value: BigInt(c.amountWei) });
    await mine();
    await h.payments!.watcher.tick();
    expect((await ordersFor(hash))[0]).toMatchObject({ status: 'paid', late: true });

    // Expired, and meanwhile someone else paid for the last unit: an order all the same, on hold
    // for the admin (restock or refund), with nothing taken from stock and nothing sent to Shopify.
    const scarce = products
      .flatMap((p) => p.variants)
      .filter((v) => !v.isSoldOut && v.id !== unlimited().id)
      .at(-2)!;
    await db()('variants').where({ shopify_id: scarce.id }).update({ available_stock: 1 });
    await bumpCatalogueVersion(db());
    s = new Shopper(h);
    await s.add({ variantId: scarce.id, quantity: 1 });
    c = checkoutSchema.parse(await (await s.post('/api/checkout', { customerWallet: BUYER })).json());
    await expire(c.id);
    const other = new Shopper(h);
    await other.add({ variantId: scarce.id, quantity: 1 });
    const taken = checkoutSchema.parse(await (await other.post('/api/checkout', { customerWallet: OTHER_BUYER })).json());
    const takenHash = await send(OTHER_BUYER, { value: BigInt(taken.amountWei) });
    await mine();
    expect((await createOrder(other, { checkoutId: taken.id, transactionHash: takenHash })).status).toBe(201);
    hash = await send(BUYER, { value: BigInt(c.amountWei) });
    await mine();
    const late = await createOrder(s, { checkoutId: c.id, transactionHash: hash, customerWallet: BUYER });
    expect(late.status, JSON.stringify(late.body)).toBe(201);
    const held = orderSchema.parse(late.body);
    expect(held).toMatchObject({
      status: 'paid',
      needsShipping: false,
      hold: { reason: 'out-of-stock', message: expect.stringContaining('refund') },
    });
    expect((await ordersFor(hash))[0]).toMatchObject({ late: true, stock_taken: false, hold_reason: 'out-of-stock' });
    expect(await db()('outbox').where({ kind: 'shopify-draft-order', order_id: held.id })).toHaveLength(0);
    expect(await db()('variants').where({ shopify_id: scarce.id }).first()).toMatchObject({ available_stock: 0, is_sold_out: true });
  });

  it('catches up with Shopify when its webhooks never arrived', async () => {
    await h.payments!.handoff.runDue();
    const s = new Shopper(h);
    const c = await checkout(s, BUYER, 1);
    const hash = await send(BUYER, { value: BigInt(c.amountWei) });
    await mine();
    const order = orderSchema.parse((await createOrder(s, { checkoutId: c.id, transactionHash: hash, customerWallet: BUYER })).body);
    await h.payments!.handoff.runDue();
    const row = await db()('orders').where({ id: order.id }).first();
    // Shopify completes the draft and fulfils the order, but the shop hears nothing.
    const { order: shopifyOrder } = h.emulator.completeDraftOrder(row.shopify_draft_order_id);
    h.emulator.fulfillOrder(shopifyOrder.legacyId);
    await h.emulator.webhooksIdle();
    await db()('orders').where({ id: order.id }).update({ status: 'paid', needs_shipping: true, shopify_order_id: null });

    expect(await h.payments!.handoff.reconcile()).toBeGreaterThanOrEqual(2);
    expect(await db()('orders').where({ id: order.id }).first()).toMatchObject({ status: 'shipped', needs_shipping: false });
    expect((await db()('orders').where({ id: order.id }).first()).shopify_order_id).toMatch(/^gid:\/\/shopify\/Order\//);
  });

  it('keeps a transfer that matches no checkout as unmatched, for the admin', async () => {
    const hash = await send(DEV_ACCOUNTS[1]!, { value: 123456789n });
    await mine();
    await h.payments!.watcher.tick();
    expect(await db()('chain_transfers').where({ tx_hash: hash.toLowerCase() }).first()).toMatchObject({
      status: 'unmatched',
      intent_id: null,
    });
    expect(await ordersFor(hash)).toHaveLength(0);
  });

  it('holds nothing for unpaid checkouts: the first to pay gets the stock, then checkout says what is left', async () => {
    // A variant no other test uses, with 3 left.
    const variant = products
      .flatMap((p) => p.variants)
      .filter((v) => !v.isSoldOut && v.id !== unlimited().id)
      .at(-1)!;
    await db()('variants').where({ shopify_id: variant.id }).update({ available_stock: 3 });
    await bumpCatalogueVersion(db());
    const a = new Shopper(h);
    const b = new Shopper(h);
    const c = new Shopper(h);
    for (const s of [a, b, c]) await s.add({ variantId: variant.id, quantity: 2 });
    const ca = checkoutSchema.parse(await (await a.post('/api/checkout', { customerWallet: BUYER })).json());
    const cb = await b.post('/api/checkout', { customerWallet: OTHER_BUYER });
    expect(cb.status).toBe(201);
    const hash = await send(BUYER, { value: BigInt(ca.amountWei) });
    await mine();
    expect((await createOrder(a, { checkoutId: ca.id, transactionHash: hash })).status).toBe(201);
    const listed = async () => (await h.catalogue.list()).variantsById.get(variant.id)!.variant;
    expect(await listed()).toMatchObject({ availableStock: 1, isSoldOut: false });
    const refused = await new Shopper(h).add({ variantId: variant.id, quantity: 2 });
    expect(await refused.json()).toMatchObject({ code: 'insufficient-stock', message: 'Only 1 items available' });
    const late = await c.post('/api/checkout', { customerWallet: OTHER_BUYER });
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({ code: 'cart-item-unavailable', message: expect.stringContaining('Only 1 items available') });
  });

  it('keeps the order when Shopify is down during the hand-off, and forwards once it is back', async () => {
    await h.payments!.handoff.runDue(); // earlier tests' hand-offs, while Shopify is up
    const s = new Shopper(h);
    const c = await checkout(s, BUYER, 1);
    const hash = await send(BUYER, { value: BigInt(c.amountWei) });
    await mine();
    const created = await createOrder(s, { checkoutId: c.id, transactionHash: hash, customerWallet: BUYER });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const order = orderSchema.parse(created.body);
    const draftsFor = () => h.emulator.orders.listDraftOrders().filter((d) => d.tags.includes(`pogs-order-${order.id}`));

    h.emulator.failNext(1000, 503);
    expect(await h.payments!.handoff.runDue()).toBe(0);
    const job = await db()('outbox').where({ kind: 'shopify-draft-order', order_id: order.id }).first();
    expect(job).toMatchObject({ done_at: null, attempts: 1 });
    expect(job.last_error).toBeTruthy();
    expect(new Date(job.next_attempt_at).getTime()).toBeGreaterThan(Date.now());
    expect(await h.payments!.handoff.runDue()).toBe(0); // not due yet: no hammering
    const waiting = orderSchema.parse(await (await s.request(`/api/orders/${order.id}`)).json());
    expect(waiting).toMatchObject({ status: 'paid', shippingReady: false, shippingUrl: `/orders/${order.id}/shipping` });
    expect((await s.request(order.shippingUrl, { redirect: 'manual' })).status).not.toBe(302);
    expect(draftsFor()).toHaveLength(0);

    // Shopify is back; the retry comes due.
    h.emulator.failNext(0, 503);
    await db()('outbox')
      .where({ kind: 'shopify-draft-order', order_id: order.id })
      .update({ next_attempt_at: new Date(Date.now() - 1000) });
    expect(await h.payments!.handoff.runDue()).toBe(1);
    expect(draftsFor()).toHaveLength(1);
    expect((await s.request(order.shippingUrl, { redirect: 'manual' })).status).toBe(302);

    // A create whose answer was lost is found by its tag, never made twice.
    await db()('outbox')
      .where({ kind: 'shopify-draft-order', order_id: order.id })
      .update({ done_at: null, next_attempt_at: new Date(Date.now() - 1000) });
    expect(await h.payments!.handoff.runDue()).toBe(1);
    expect(draftsFor()).toHaveLength(1);
  });

  it.runIf(kind === 'postgres')('processes each payment once with two server processes on one database', async () => {
    const secondDb = h.database.connectAgain!();
    const second = createPaymentServices({
      config: h.config,
      db: secondDb,
      logger: (await import('../../lib/logger')).createLogger({ level: 'silent' }),
      target: h.payments!.target,
      orders: new OrdersService(secondDb, { explorerUrl: null }),
      // It holds no connection: each read runs in the connection it is given (secondDb's here).
      stock: h.services.stock,
    });
    try {
      const hashes: string[] = [];
      const shoppers: Array<{ s: Shopper; c: Checkout }> = [];
      for (let i = 0; i < 4; i++) {
        const s = new Shopper(h);
        const c = await checkout(s, BUYER, 1);
        shoppers.push({ s, c });
        hashes.push(await send(BUYER, { value: BigInt(c.amountWei) }));
      }
      await mine();
      // Both watchers tick at once, while the shoppers also report their payments.
      const ticks = await Promise.all([
        h.payments!.watcher.tick(),
        second.watcher.tick(),
        ...shoppers.map(({ s, c }, i) => createOrder(s, { checkoutId: c.id, transactionHash: hashes[i], customerWallet: BUYER })),
      ]);
      const leaders = (ticks.slice(0, 2) as Array<{ leader: boolean }>).filter((t) => t.leader);
      expect(leaders).toHaveLength(1);
      for (const hash of hashes) expect(await ordersFor(hash)).toHaveLength(1);
      // The second process settles the same transfers again: still one order each.
      await second.settlement.settle(
        (await import('./verify')).decodeStoreTransfer((await second.chain.receipt(hashes[0]!))!.logs[0]!, 8453, token, store)!,
      );
      expect(await ordersFor(hashes[0]!)).toHaveLength(1);
    } finally {
      await second.watcher.stop();
      second.chain.destroy();
    }
  });

  it('undoes an order whose payment vanished in a chain reorganisation', async () => {
    const s = new Shopper(h);
    const c = await checkout(s, BUYER, 1);
    await h.payments!.watcher.tick(); // cursor up to date before the fork point
    const snapshot = await testChain.provider.send('evm_snapshot', []);
    const hash = await send(BUYER, { value: BigInt(c.amountWei) });
    await mine();
    await h.payments!.watcher.tick();
    const [paid] = await ordersFor(hash);
    expect(paid.status).toBe('paid');

    await testChain.provider.send('evm_revert', [snapshot]);
    await mine(3); // the new branch is longer, without the payment
    const tick = await h.payments!.watcher.tick();
    expect(tick.reorg).toBe(true);
    const [after] = await ordersFor(hash);
    expect(after).toMatchObject({ status: 'failed', status_reason: 'payment-reorged' });
    expect(await db()('chain_transfers').where({ tx_hash: hash.toLowerCase() }).first()).toMatchObject({ status: 'removed' });
  });

  it('pays the order again when the vanished payment is mined again on the new branch', async () => {
    const s = new Shopper(h);
    const c = await checkout(s, BUYER, 1);
    await h.payments!.watcher.tick();
    const snapshot = await testChain.provider.send('evm_snapshot', []);
    const hash = await send(BUYER, { value: BigInt(c.amountWei) });
    const raw: string = await testChain.provider.send('eth_getRawTransactionByHash', [hash]);
    await mine();
    await h.payments!.watcher.tick();
    await testChain.provider.send('evm_revert', [snapshot]);
    await mine(3);
    expect((await h.payments!.watcher.tick()).reorg).toBe(true);
    expect((await ordersFor(hash))[0]).toMatchObject({ status: 'failed', status_reason: 'payment-reorged' });

    // The same signed transaction is included again.
    expect(await testChain.provider.send('eth_sendRawTransaction', [raw])).toBe(hash);
    await mine(2);
    await h.payments!.watcher.tick();
    const orders = await ordersFor(hash);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ status: 'paid', status_reason: null, needs_shipping: true });
    expect(await pay.transferRow(hash)).toMatchObject({ status: 'matched', order_id: orders[0]!.id });
  });
});
