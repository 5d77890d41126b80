/**
 * Sign-In with Ethereum and the private order history, on a real chain (anvil signs with its dev
 * accounts), over HTTP, on each database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SiweMessage } from 'siwe';
import { z } from 'zod';
import { authSessionSchema, checkoutSchema, orderSchema, siweNonceSchema, type Order } from '../../../common/api';
import { DEV_ACCOUNTS } from '../../chain/local-chain';
import { sendTokenTransfer } from '../../test/chain';
import { useTestChain } from '../../test/use-test-chain';
import { testDatabaseKinds } from '../../test/databases';
import { startHarness, type Harness } from '../../test/harness';
import { Shopper } from '../../test/shopper';
import { bumpCatalogueVersion } from '../catalogue';
import { mined } from '../../chain/mined';

/** GET /api/orders answers a page of orders. */
const ordersListSchema = z.array(orderSchema);

const ALICE = DEV_ACCOUNTS[2]!;
const BOB = DEV_ACCOUNTS[3]!;
const testChain = useTestChain();

describe.each(testDatabaseKinds)('sign-in and order history on %s', (kind) => {
  let h: Harness;
  let variantId: string;
  const orders: Record<string, Order> = {};

  beforeAll(async () => {
    h = await startHarness(kind, { chain: testChain.chain });
    await h.catalogue.sync();
    await h.catalogue.seedDemoPrices();
    variantId = (await h.catalogue.list()).products.flatMap((p) => p.variants).find((v) => !v.isSoldOut)!.id;
    await h.database.db('variants').where({ shopify_id: variantId }).update({ available_stock: null, inventory_quantity: null });
    await bumpCatalogueVersion(h.database.db);
    // Alice and Bob each buy once.
    for (const buyer of [ALICE, BOB]) {
      const s = new Shopper(h);
      await s.add({ variantId, quantity: 1 });
      const c = checkoutSchema.parse(await (await s.post('/api/checkout', { customerWallet: buyer })).json());
      const tx = await sendTokenTransfer(testChain.provider, buyer, {
        token: c.tokenAddress,
        to: c.storeWallet,
        value: BigInt(c.amountWei),
      });
      await mined(tx);
      const res = await s.post('/api/orders/create', { checkoutId: c.id, transactionHash: tx.hash, customerWallet: buyer });
      orders[buyer] = orderSchema.parse(await res.json());
    }
  });
  afterAll(async () => {
    await h?.close();
  });

  const site = () => new URL(h.baseUrl);
  async function nonceFor(s: Shopper, address: string) {
    const res = await s.request(`/api/auth/nonce?address=${address}`);
    expect(res.status).toBe(200);
    return siweNonceSchema.parse(await res.json());
  }
  const sign = async (address: string, message: string) => (await testChain.provider.getSigner(address)).signMessage(message);
  const verify = (s: Shopper, message: string, signature: string) => s.post('/api/auth/verify', { message, signature });
  const signIn = (s: Shopper, address: string) => s.signIn(testChain.provider, address);
  /** A message with the server's nonce but other fields changed, as an attacker or a buggy client would send. */
  async function tampered(s: Shopper, address: string, change: Partial<SiweMessage>) {
    const { message } = await nonceFor(s, address);
    const m = new SiweMessage(message);
    Object.assign(m, change);
    const text = m.prepareMessage();
    return { text, signature: await sign(address, text) };
  }
  const expectRefused = async (res: Response, status: number, code: string) => {
    expect(res.status).toBe(status);
    expect((await res.json()).code).toBe(code);
  };

  it('writes the message for this site and binds the session to the wallet that signed it', async () => {
    const s = new Shopper(h);
    const { nonce, message } = await nonceFor(s, ALICE);
    const parsed = new SiweMessage(message);
    expect(parsed).toMatchObject({ domain: site().host, uri: site().origin, chainId: 8453, nonce, address: ALICE });
    expect(message).toContain('Sign in to POGS Shop to see your orders.');
    const res = await verify(s, message, await sign(ALICE, message));
    expect(res.status).toBe(200);
    expect(authSessionSchema.parse(await res.json()).address).toBe(ALICE.toLowerCase());
    expect(authSessionSchema.parse(await (await s.request('/api/auth/session')).json()).address).toBe(ALICE.toLowerCase());
    // The nonce cannot be presented twice.
    await expectRefused(await verify(s, message, await sign(ALICE, message)), 401, 'invalid-nonce');
  });

  it("refuses expired, foreign, wrong-chain and badly signed messages, and other sessions' nonces", async () => {
    const s = new Shopper(h);
    let t = await tampered(s, ALICE, {
      expirationTime: new Date(Date.now() - 1000).toISOString(),
      issuedAt: new Date(Date.now() - 60_000).toISOString(),
    });
    await expectRefused(await verify(s, t.text, t.signature), 401, 'invalid-message');
    t = await tampered(s, ALICE, { domain: 'evil.example' });
    await expectRefused(await verify(s, t.text, t.signature), 401, 'invalid-message');
    t = await tampered(s, ALICE, { uri: 'https://evil.example' });
    await expectRefused(await verify(s, t.text, t.signature), 401, 'invalid-message');
    t = await tampered(s, ALICE, { chainId: 1 });
    await expectRefused(await verify(s, t.text, t.signature), 401, 'invalid-message');

    // Signed by Bob for Alice's address.
    const { message } = await nonceFor(s, ALICE);
    await expectRefused(await verify(s, message, await sign(BOB, message)), 401, 'invalid-signature');
    // The nonce was spent by that attempt.
    await expectRefused(await verify(s, message, await sign(ALICE, message)), 401, 'invalid-nonce');

    // A nonce issued to another browser.
    const other = new Shopper(h);
    const foreign = await nonceFor(other, ALICE);
    await expectRefused(await verify(s, foreign.message, await sign(ALICE, foreign.message)), 401, 'invalid-nonce');
    // A stranger presenting it did not spend it: the browser it was issued to still signs in with it.
    expect((await verify(other, foreign.message, await sign(ALICE, foreign.message))).status).toBe(200);
    // A made-up nonce.
    t = await tampered(s, ALICE, { nonce: 'abcdefgh12345678' });
    await expectRefused(await verify(s, t.text, t.signature), 401, 'invalid-nonce');

    // Garbage in: clear 4xx answers.
    await expectRefused(await verify(s, 'hello', '0x1234'), 401, 'invalid-message');
    expect((await s.post('/api/auth/verify', { message: 'x' })).status).toBe(400);
    expect((await s.request('/api/auth/nonce?address=nope')).status).toBe(400);
    expect(authSessionSchema.parse(await (await s.request('/api/auth/session')).json()).address).toBeNull();
  });

  it("shows a signed-in wallet exactly its own orders, and nobody else's", async () => {
    const s = new Shopper(h);
    await expectRefused(await s.request(`/api/orders?wallet=${ALICE}`), 401, 'sign-in-required');
    await signIn(s, ALICE);
    const mine = ordersListSchema.parse(await (await s.request(`/api/orders?wallet=${ALICE}`)).json());
    expect(mine.map((o) => o.id)).toEqual([orders[ALICE]!.id]);
    expect(mine[0]).toMatchObject({ status: 'paid', needsShipping: true, shippingUrl: `/orders/${orders[ALICE]!.id}/shipping` });
    expect(mine[0]!.blockchain.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(mine[0]!.processed_at).toBeTruthy();
    // The same wallet in lower case is the same wallet.
    expect((await s.request(`/api/orders?wallet=${ALICE.toLowerCase()}`)).status).toBe(200);
    await expectRefused(await s.request(`/api/orders?wallet=${BOB}`), 403, 'wallet-mismatch');
    expect((await s.request('/api/orders?wallet=0x12')).status).toBe(400);

    // By id: the signed-in owner (in a browser that did not pay) may read it and its shipping link…
    expect((await s.request(`/api/orders/${orders[ALICE]!.id}`)).status).toBe(200);
    await h.payments!.handoff.runDue();
    expect((await s.request(`/orders/${orders[ALICE]!.id}/shipping`, { redirect: 'manual' })).status).toBe(302);
    // …but not Bob's.
    expect((await s.request(`/api/orders/${orders[BOB]!.id}`)).status).toBe(404);
    expect((await s.request(`/orders/${orders[BOB]!.id}/shipping`, { redirect: 'manual' })).status).not.toBe(302);

    // After a confirmation the order moves to the pending-shipment group (no shipping needed).
    await h.database.db('orders').where({ id: orders[ALICE]!.id }).update({ status: 'confirmed', needs_shipping: false });
    const after = ordersListSchema.parse(await (await s.request(`/api/orders?wallet=${ALICE}`)).json());
    expect(after[0]).toMatchObject({ status: 'confirmed', needsShipping: false });
    // A failed order (its payment reorganised away) is not listed: the shopper has nothing to follow there.
    await h.database.db('orders').where({ id: orders[ALICE]!.id }).update({ status: 'failed' });
    expect(ordersListSchema.parse(await (await s.request(`/api/orders?wallet=${ALICE}`)).json())).toEqual([]);
    await h.database.db('orders').where({ id: orders[ALICE]!.id }).update({ status: 'confirmed' });

    // Logging out forgets the wallet.
    expect(authSessionSchema.parse(await (await s.post('/api/auth/logout', {})).json()).address).toBeNull();
    await expectRefused(await s.request(`/api/orders?wallet=${ALICE}`), 401, 'sign-in-required');
    expect((await s.request(`/api/orders/${orders[ALICE]!.id}`)).status).toBe(404);
  });

  it('signing in as another wallet replaces the first', async () => {
    const s = new Shopper(h);
    await signIn(s, ALICE);
    await signIn(s, BOB);
    await expectRefused(await s.request(`/api/orders?wallet=${ALICE}`), 403, 'wallet-mismatch');
    const bobs = ordersListSchema.parse(await (await s.request(`/api/orders?wallet=${BOB}`)).json());
    expect(bobs.map((o) => o.id)).toEqual([orders[BOB]!.id]);
  });
});
