/**
 * The attacks on payments, played as an attacker would, on a real chain (anvil), the real Shopify
 * client against the emulator, and each database. Everything on Base is public: a stranger sees
 * every transfer to the store wallet (hash, sender, amount) the moment it is mined, and can name
 * any address, hash or id. Each test name says what the attack gets now; bench/README.md records
 * the figures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zeroPadValue } from 'ethers';
import { orderSchema, type Variant } from '../../../common/api';
import { formatUnits } from '../../../common/money';
import { DEV_ACCOUNTS } from '../../chain/local-chain';
import { toErrorAnswer } from '../../lib/errors';
import { testDatabaseKinds } from '../../test/databases';
import { startHarness, type Harness } from '../../test/harness';
import { payingKit, type PayingKit } from '../../test/paying';
import { Shopper } from '../../test/shopper';
import { useTestChain } from '../../test/use-test-chain';
import { bumpCatalogueVersion } from '../catalogue';
import { CheckoutService } from './checkout-service';
import { TRANSFER_TOPIC } from './verify';

const VICTIM = DEV_ACCOUNTS[2]!;
const ATTACKER = DEV_ACCOUNTS[3]!;
/** A victim no other checkout names (so the old "sender's one checkout" rule would have fired). */
const LONE_VICTIM = DEV_ACCOUNTS[1]!;
const testChain = useTestChain();

describe.each(testDatabaseKinds)('attacks on payments, on %s', (kind) => {
  let h: Harness;
  let pay: PayingKit;
  let variants: Variant[];
  /** A variant with no known stock limit: the races never run out of stock. */
  let unlimited: Variant;

  beforeAll(async () => {
    h = await startHarness(kind, {
      chain: testChain.chain,
      // Base's default: a payment counts 3 blocks deep, so there is a window to race in.
      env: { REQUIRED_CONFIRMATIONS: '3' },
      emulator: { webhookRetryDelaysMs: [20, 50, 100] },
    });
    await h.catalogue.sync();
    await h.catalogue.seedDemoPrices();
    variants = (await h.catalogue.list()).products.flatMap((p) => p.variants).filter((v) => !v.isSoldOut);
    unlimited = variants[0]!;
    await db()('variants').where({ shopify_id: unlimited.id }).update({ available_stock: null, inventory_quantity: null });
    await bumpCatalogueVersion(db());
    pay = payingKit(h, testChain);
  });
  afterAll(async () => {
    await h?.close();
  });

  const db = () => h.database.db;
  /** A variant no other test touches, with exactly `stock` units left. */
  const scarce = async (index: number, stock: number) => {
    const variant = variants.at(-1 - index)!;
    await db()('variants').where({ shopify_id: variant.id }).update({ available_stock: stock, is_sold_out: false });
    await bumpCatalogueVersion(db());
    return variant;
  };
  const listed = async (variantId: string) => (await h.catalogue.list()).variantsById.get(variantId)!.variant;

  /** What a stranger watching the chain sees: the store's incoming transfers since `fromBlock`. */
  async function watchStoreTransfers(fromBlock: number): Promise<Array<{ hash: string; from: string }>> {
    const { tokenAddress, storeWallet } = h.payments!.target;
    const logs: Array<{ transactionHash: string; topics: string[] }> = await testChain.provider.send('eth_getLogs', [
      {
        address: tokenAddress,
        topics: [TRANSFER_TOPIC, null, zeroPadValue(storeWallet, 32)],
        fromBlock: `0x${fromBlock.toString(16)}`,
        toBlock: 'latest',
      },
    ]);
    return logs.map((l) => ({ hash: l.transactionHash, from: `0x${l.topics[1]!.slice(26)}` }));
  }

  it('front-running orders/create with a victim’s hash and address wins 0 of 8 races; the victim gets the order', async () => {
    for (let round = 0; round < 8; round++) {
      const victim = new Shopper(h);
      const attacker = new Shopper(h);
      const expensive = await pay.checkout(victim, unlimited.id, VICTIM, 3);
      // The attacker's own checkout is cheaper and names the victim's wallet.
      const cheap = await pay.checkout(attacker, unlimited.id, VICTIM, 1);
      const fromBlock = await testChain.provider.getBlockNumber();
      await pay.send(VICTIM, { value: BigInt(expensive.amountWei) });
      const seen = await watchStoreTransfers(fromBlock + 1);
      expect(seen.map((t) => t.from)).toContain(VICTIM.toLowerCase());
      const hash = seen.at(-1)!.hash;

      // Before it is deep enough the attacker tries already (this only claims stock, for the victim).
      const early = await pay.createOrder(attacker, { checkoutId: cheap.id, transactionHash: hash, customerWallet: VICTIM });
      expect(early.status).toBe(202);
      await pay.mine(2);
      const stealing = pay.createOrder(attacker, { checkoutId: cheap.id, transactionHash: hash, customerWallet: VICTIM });
      const paying = pay.createOrder(victim, { checkoutId: expensive.id, transactionHash: hash, customerWallet: VICTIM });
      // Half the rounds the attacker's request is answered first.
      const [a, v] = round % 2 ? await Promise.all([stealing, paying]) : [await stealing, await paying];
      expect({ status: a.status, code: a.body.code }).toEqual({ status: 409, code: 'transaction-already-used' });
      expect(v.status, JSON.stringify(v.body)).toBeLessThan(300);
      const order = orderSchema.parse(v.body);
      expect(order.total).toBe(expensive.displayTotal);
      expect(await pay.ordersFor(hash)).toEqual([expect.objectContaining({ intent_id: expensive.id, session_id: expect.any(String) })]);
      const mine = await pay.checkoutOf(attacker, cheap.id);
      expect(mine).toMatchObject({ status: 'open', orderId: null, amountReceived: '0.00' });
      expect((await db()('checkout_intents').where({ id: cheap.id }).first()).stock_claimed_until).toBeNull();
      // The attacker cannot read the victim's order either.
      expect((await attacker.request(`/api/orders/${order.id}`)).status).toBe(404);
    }
  });

  it('a checkout naming the victim’s wallet gets none of the victim’s inexact payments (0 of 3); they wait, unmatched, for the admin', async () => {
    const attacker = new Shopper(h);
    const bait = await pay.checkout(attacker, unlimited.id, LONE_VICTIM, 1);
    const total = BigInt(bait.amountWei) - (BigInt(bait.amountWei) % 10n ** 16n);
    const hashes = [
      await pay.send(LONE_VICTIM, { value: total }), // the rounded price, no suffix
      await pay.send(LONE_VICTIM, { value: BigInt(bait.amountWei) + 10n ** 17n }), // a little more
      await pay.send(LONE_VICTIM, { value: BigInt(bait.amountWei) - 10n ** 17n }), // a little less
    ];
    await pay.mine(2);
    await h.payments!.watcher.tick();
    for (const hash of hashes) {
      expect(await pay.transferRow(hash)).toMatchObject({ status: 'unmatched', intent_id: null, from_address: LONE_VICTIM.toLowerCase() });
      expect(await pay.ordersFor(hash)).toHaveLength(0);
    }
    expect(await pay.checkoutOf(attacker, bait.id)).toMatchObject({ status: 'open', orderId: null, amountReceived: '0.00' });
    // Reporting them changes nothing either.
    for (const hash of hashes) {
      const res = await pay.createOrder(attacker, { checkoutId: bait.id, transactionHash: hash, customerWallet: LONE_VICTIM });
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 422, code: 'payment-unmatched' });
    } // Signing in with the attacker's own wallet adopts none of them (only the sender's signature would).
    await attacker.signIn(testChain.provider, ATTACKER);
    for (const hash of hashes) expect(await pay.transferRow(hash)).toMatchObject({ status: 'unmatched', intent_id: null });
    expect((await pay.checkoutOf(attacker, bait.id)).amountReceived).toBe('0.00');
    await attacker.request('/api/auth/logout', { method: 'POST' });
  });

  it('reporting a victim’s mined hash on one’s own checkout claims nothing: the victim’s checkout holds the stock', async () => {
    const variant = await scarce(2, 5);
    const victim = new Shopper(h);
    const attacker = new Shopper(h);
    const theirs = await pay.checkout(victim, variant.id, VICTIM, 2);
    const mine = await pay.checkout(attacker, variant.id, VICTIM, 2);
    const hash = await pay.send(VICTIM, { value: BigInt(theirs.amountWei) }); // mined, not yet 3 deep
    expect((await attacker.post(`/api/checkout/${mine.id}/transaction`, { transactionHash: hash })).status).toBe(200);
    expect((await pay.createOrder(attacker, { checkoutId: mine.id, transactionHash: hash })).status).toBe(202);
    const claimed = async (id: string) => (await db()('checkout_intents').where({ id }).first()).stock_claimed_until;
    expect(await claimed(mine.id)).toBeNull();
    expect(await claimed(theirs.id)).not.toBeNull();
    expect(await listed(variant.id)).toMatchObject({ availableStock: 3 });
    await pay.mine(2);
    const stolen = await pay.createOrder(attacker, { checkoutId: mine.id, transactionHash: hash });
    expect({ status: stolen.status, code: stolen.body.code }).toEqual({ status: 409, code: 'transaction-already-used' });
    expect(await pay.checkoutOf(attacker, mine.id)).toMatchObject({ status: 'open', orderId: null });
    expect(await pay.checkoutOf(victim, theirs.id)).toMatchObject({ status: 'paid', orderId: expect.any(String) });
  });

  it('a payment in two parts becomes an order with the watcher alone (tab closed): underpaid, then the remainder’s exact amount', async () => {
    const s = new Shopper(h);
    await s.signIn(testChain.provider, VICTIM);
    const c = await pay.checkout(s, unlimited.id, VICTIM, 2);
    const first = await pay.send(VICTIM, { value: BigInt(c.amountWei) / 2n });
    await pay.mine(2);
    await h.payments!.watcher.tick();
    const partly = await pay.checkoutOf(s, c.id);
    expect(partly).toMatchObject({ status: 'underpaid', orderId: null, amountReceived: formatUnits(BigInt(c.amountWei) / 2n, 18, 2) });
    expect(BigInt(partly.amountWei)).toBeLessThan(BigInt(c.amountWei));
    expect(partly.paymentUri).toContain(`uint256=${partly.amountWei}`);

    const second = await pay.send(VICTIM, { value: BigInt(partly.amountWei) });
    await pay.mine(2);
    await h.payments!.watcher.tick();
    const done = await pay.checkoutOf(s, c.id);
    expect(done).toMatchObject({ status: 'paid', orderId: expect.any(String), amountDue: '0.00' });
    const order = await db()('orders').where({ id: done.orderId }).first();
    expect(order).toMatchObject({
      status: 'paid',
      overpaid: false,
      amount_paid_wei: String(BigInt(c.amountWei) / 2n + BigInt(partly.amountWei)),
    });
    for (const hash of [first, second]) expect(await pay.transferRow(hash)).toMatchObject({ status: 'matched', order_id: done.orderId });
    expect(await db()('outbox').where({ kind: 'shopify-draft-order', order_id: done.orderId })).toHaveLength(1);
    await s.request('/api/auth/logout', { method: 'POST' });
  });

  it('after an underpayment the full amount again still pays: an order, flagged overpaid with the excess', async () => {
    const s = new Shopper(h);
    await s.signIn(testChain.provider, VICTIM);
    const c = await pay.checkout(s, unlimited.id, VICTIM, 1);
    await pay.send(VICTIM, { value: 10n ** 18n });
    await pay.mine(2);
    await h.payments!.watcher.tick();
    expect((await pay.checkoutOf(s, c.id)).status).toBe('underpaid');
    await s.request('/api/auth/logout', { method: 'POST' }); // the full amount needs no proof
    const again = await pay.send(VICTIM, { value: BigInt(c.amountWei) });
    await pay.mine(2);
    await h.payments!.watcher.tick();
    const [order] = await pay.ordersFor(again);
    expect(order).toMatchObject({ intent_id: c.id, overpaid: true, amount_paid_wei: String(BigInt(c.amountWei) + 10n ** 18n) });
  });

  it('40 anonymous checkouts for all the stock lock nothing: the list still shows it, the first payer gets it, a later payer’s order waits on hold', async () => {
    const variant = await scarce(0, 5);
    const hoarders: Array<{ s: Shopper; id: string; amountWei: string }> = [];
    for (let i = 0; i < 40; i++) {
      const s = new Shopper(h);
      const c = await pay.checkout(s, variant.id, null, 5);
      hoarders.push({ s, id: c.id, amountWei: c.amountWei });
    }
    expect(await listed(variant.id)).toMatchObject({ availableStock: 5, isSoldOut: false });

    const shopper = new Shopper(h);
    const mine = await pay.checkout(shopper, variant.id, VICTIM, 2);
    const hash = await pay.send(VICTIM, { value: BigInt(mine.amountWei) });
    await pay.mine(2);
    const paid = await pay.createOrder(shopper, { checkoutId: mine.id, transactionHash: hash });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(orderSchema.parse(paid.body).hold).toBeNull();
    expect(await listed(variant.id)).toMatchObject({ availableStock: 3, isSoldOut: false });

    // A hoarder who does pay now finds 3 of the 5 units: paid, so an order, but on hold, said plainly.
    const late = hoarders[7]!;
    const lateHash = await pay.send(ATTACKER, { value: BigInt(late.amountWei) });
    await pay.mine(2);
    const held = await pay.createOrder(late.s, { checkoutId: late.id, transactionHash: lateHash });
    expect(held.status).toBe(201);
    expect(orderSchema.parse(held.body)).toMatchObject({ hold: { reason: 'out-of-stock' }, needsShipping: false });
    expect(await listed(variant.id)).toMatchObject({ availableStock: 3, isSoldOut: false });
  });

  it('the first payment seen on chain claims the last unit; a later one confirmed first still waits on hold', async () => {
    const variant = await scarce(1, 1);
    const first = new Shopper(h);
    const second = new Shopper(h);
    const a = await pay.checkout(first, variant.id, VICTIM, 1);
    const b = await pay.checkout(second, variant.id, ATTACKER, 1);
    const hashA = await pay.send(VICTIM, { value: BigInt(a.amountWei) });
    // The first shopper's wallet reports the hash; the chain shows the transfer: the unit is claimed.
    expect((await first.post(`/api/checkout/${a.id}/transaction`, { transactionHash: hashA })).status).toBe(200);
    expect(await listed(variant.id)).toMatchObject({ isSoldOut: true });
    const refused = await new Shopper(h).add({ variantId: variant.id, quantity: 1 });
    expect((await refused.json()).code).toBe('variant-sold-out');

    const hashB = await pay.send(ATTACKER, { value: BigInt(b.amountWei) });
    await pay.mine(3);
    const bOrder = orderSchema.parse((await pay.createOrder(second, { checkoutId: b.id, transactionHash: hashB })).body);
    const aOrder = orderSchema.parse((await pay.createOrder(first, { checkoutId: a.id, transactionHash: hashA })).body);
    expect(aOrder.hold).toBeNull();
    expect(bOrder.hold).toMatchObject({ reason: 'out-of-stock' });
    expect(await db()('variants').where({ shopify_id: variant.id }).first()).toMatchObject({ available_stock: 0, is_sold_out: true });
  });

  it('one session cannot fill the amount space: 20 checkouts in a row keep at most 5 payable, the rest freed, never a 500', async () => {
    const s = new Shopper(h);
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      // Each cart change makes a new checkout (the same cart would get the same one back).
      const cart = await s.cart();
      for (const item of cart.items) await s.remove(item.id);
      await s.add({ variantId: unlimited.id, quantity: 1 + (i % 2) });
      statuses.push((await s.post('/api/checkout', { customerWallet: null })).status);
    }
    expect(new Set(statuses)).toEqual(new Set([201]));
    const payable = await db()('checkout_intents').where({ session_id: s.sessionId }).whereIn('status', ['open', 'expired', 'underpaid']);
    expect(payable).toHaveLength(5);
    const theirs = db()('checkout_intents').where({ session_id: s.sessionId }).select('id');
    expect(await db()('checkout_amounts').whereIn('intent_id', theirs).whereNull('released_at')).toHaveLength(5);
    expect(await db()('checkout_amounts').whereIn('intent_id', theirs).whereNotNull('released_at')).toHaveLength(15);

    // When every payable checkout has a payment on its way, the answer is a 429 to act on.
    for (const c of payable) {
      const hint = await s.post(`/api/checkout/${c.id}/transaction`, { transactionHash: '0x' + c.id.replace(/-/g, '').padEnd(64, '0') });
      expect(hint.status).toBe(200);
    }
    const cart = await s.cart();
    for (const item of cart.items) await s.remove(item.id);
    await s.add({ variantId: unlimited.id, quantity: 3 });
    const refused = await s.post('/api/checkout', { customerWallet: null });
    expect(refused.status).toBe(429);
    expect((await refused.json()).code).toBe('too-many-checkouts');
  });

  it('when every suffix tried is taken the answer is 503 checkout-busy, not a 500', async () => {
    const stuck = new CheckoutService(db(), h.payments!.target, {
      stock: h.services.stock,
      ttlMs: 60_000,
      latePaymentMs: 60_000,
      suffix: () => 424242n,
    });
    const [one, two] = [new Shopper(h), new Shopper(h)];
    for (const s of [one, two]) await s.add({ variantId: unlimited.id, quantity: 7 });
    await stuck.create(one.sessionId, null);
    const refused = await stuck.create(two.sessionId, null).catch((err: unknown) => err);
    expect(toErrorAnswer(refused)).toMatchObject({ status: 503, body: { code: 'checkout-busy' } });
  });
});
