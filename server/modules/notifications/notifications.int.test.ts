/**
 * Order updates by Web Push (docs/order-updates.md), on a real chain (anvil), the Shopify emulator
 * and each database. A push service stand-in (a local HTTP server) receives what the shop sends;
 * the test made the subscription's P-256 key pair and auth secret itself, so it decrypts each
 * message (RFC 8291, aes128gcm) and checks its VAPID JWT (RFC 8292) against the shop's public key.
 * Every status change that is news reaches every browser of the wallet once, with two senders on
 * one database; a gone subscription is dropped; strangers get nothing.
 */
import { createPublicKey, randomBytes, verify } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderSchema, type Variant } from '../../../common/api';
import { ErrorCode } from '../../../common/errors';
import type { OrderNewsMessage } from '../../../common/order-news';
import { DEV_ACCOUNTS } from '../../chain/local-chain';
import { createLogger } from '../../lib/logger';
import { insertRefund, refundOrderIfFull } from '../orders';
import { testDatabaseKinds } from '../../test/databases';
import type { Harness } from '../../test/harness';
import { startPayingShop, type PayingKit } from '../../test/paying';
import { Shopper } from '../../test/shopper';
import { useTestChain } from '../../test/use-test-chain';
import {
  decryptPush as decrypt,
  newPushBrowser as newBrowser,
  startPushService,
  type PushBrowser as Browser,
} from '../../test/push-service';
import { OrderNews, PushSubscriptions } from '.';
import { MAX_SUBSCRIPTIONS_PER_WALLET } from './subscriptions';
import { MAX_FAILURES } from './sender';

const ALICE = DEV_ACCOUNTS[2]!;
const BOB = DEV_ACCOUNTS[3]!;
const SUBJECT = 'mailto:orders@pogs-shop.example';
const VAPID = webpush.generateVAPIDKeys();
const testChain = useTestChain();

/** RFC 8292: `vapid t=<JWT>, k=<public key>`, the JWT signed (ES256) by the key's private half, for this push service. */
function checkVapid(headers: IncomingHttpHeaders, audience: string): void {
  const m = /^vapid t=([\w-]+)\.([\w-]+)\.([\w-]+), k=([\w-]+)$/.exec(String(headers.authorization));
  expect(m, String(headers.authorization)).not.toBeNull();
  const [, head, claims, signature, k] = m!;
  expect(k).toBe(VAPID.publicKey);
  const point = Buffer.from(VAPID.publicKey, 'base64url');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') },
    format: 'jwk',
  });
  const signed = Buffer.from(`${head}.${claims}`);
  expect(verify('sha256', signed, { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature!, 'base64url'))).toBe(true);
  expect(JSON.parse(Buffer.from(head!, 'base64url').toString())).toMatchObject({ alg: 'ES256', typ: 'JWT' });
  const jwt = JSON.parse(Buffer.from(claims!, 'base64url').toString()) as { aud: string; sub: string; exp: number };
  expect(jwt).toMatchObject({ aud: audience, sub: SUBJECT });
  const now = Date.now() / 1000;
  expect(jwt.exp).toBeGreaterThan(now);
  expect(jwt.exp).toBeLessThanOrEqual(now + 24 * 3600);
}

const codeOf = async (res: Response) => ({ status: res.status, code: ((await res.json()) as { code?: string }).code });

describe.each(testDatabaseKinds)('order updates by Web Push on %s', (kind) => {
  let h: Harness;
  let pay: PayingKit;
  let unlimited: Variant;
  let push: Awaited<ReturnType<typeof startPushService>>;
  let alice: Shopper;
  let bob: Shopper;
  /** The order news sender of a second instance: its own connections when the database has them. */
  let otherNews: OrderNews;
  const db = () => h.database.db;

  const subscribe = (s: Shopper, body: unknown) =>
    s.request('/api/notifications/subscription', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const unsubscribe = (s: Shopper, endpoint: string) =>
    s.request('/api/notifications/subscription', {
      method: 'DELETE',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ endpoint }),
    });
  const isSubscribed = async (s: Shopper, endpoint: string) => {
    const res = await s.request(`/api/notifications/subscription?endpoint=${encodeURIComponent(endpoint)}`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { subscribed: boolean }).subscribed;
  };
  /** Both instances' senders at once, as their background passes would. */
  const sendNews = () => Promise.all([h.payments!.notifications.news.runDue(), otherNews.runDue()]);
  const messagesTo = (b: Browser) => push.received.filter((r) => r.path === new URL(b.endpoint).pathname);
  const newsTo = (b: Browser) => messagesTo(b).map((r) => JSON.parse(decrypt(b, r.body)) as OrderNewsMessage);

  async function paidOrder(buyer: Shopper, from: string) {
    const checkout = await pay.checkout(buyer, unlimited.id, from);
    const txHash = await pay.send(from, { value: BigInt(checkout.amountWei) });
    const created = await pay.createOrder(buyer, { checkoutId: checkout.id, transactionHash: txHash });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return { order: orderSchema.parse(created.body), txHash };
  }

  beforeAll(async () => {
    push = await startPushService();
    ({ h, pay, unlimited } = await startPayingShop(kind, testChain, {
      env: { VAPID_PUBLIC_KEY: VAPID.publicKey, VAPID_PRIVATE_KEY: VAPID.privateKey, VAPID_SUBJECT: SUBJECT },
    }));
    const otherDb = h.database.connectAgain?.() ?? h.database.db;
    otherNews = new OrderNews({
      db: otherDb,
      subscriptions: new PushSubscriptions(otherDb, { local: true }),
      vapid: { ...VAPID, subject: SUBJECT },
      origin: h.config.publicUrl,
      timeoutMs: 5_000,
      local: true,
      logger: createLogger({ level: 'silent' }),
    });
    alice = new Shopper(h);
    bob = new Shopper(h);
    await alice.signIn(testChain.provider, ALICE);
    await bob.signIn(testChain.provider, BOB);
  });
  afterAll(async () => {
    await h?.close();
    await push?.close();
  });

  it('gives its public key to anyone, and nothing of subscriptions without a signed-in wallet', async () => {
    const key = await h.api('/api/notifications/key');
    expect(await key.json()).toEqual({ publicKey: VAPID.publicKey });
    const stranger = new Shopper(h);
    const browser = newBrowser(push.origin);
    expect(await codeOf(await subscribe(stranger, browser.json))).toEqual({ status: 401, code: ErrorCode.signInRequired });
    expect(await codeOf(await unsubscribe(stranger, browser.endpoint))).toEqual({ status: 401, code: ErrorCode.signInRequired });
    const read = await stranger.request(`/api/notifications/subscription?endpoint=${encodeURIComponent(browser.endpoint)}`);
    expect(await codeOf(read)).toEqual({ status: 401, code: ErrorCode.signInRequired });
    expect(await db()('push_subscriptions')).toEqual([]);
  });

  it('refuses endpoints it will not call and subscriptions that are not a browser’s, with a code', async () => {
    const good = newBrowser(push.origin).json;
    for (const endpoint of [
      'https://10.0.0.7/push/x',
      'https://169.254.169.254/latest',
      'https://192.168.1.1/push',
      'https://[fd00::1]/push',
      'http://push.example/push',
      'https://user:pw@127.0.0.1/push',
      'https://no-such-host.invalid/push',
    ]) {
      expect(await codeOf(await subscribe(alice, { ...good, endpoint })), endpoint).toEqual({
        status: 400,
        code: ErrorCode.pushEndpointRefused,
      });
    }
    for (const keys of [
      { ...good.keys, p256dh: 'B'.repeat(200) },
      { ...good.keys, p256dh: good.keys.p256dh.slice(0, 80) },
      { ...good.keys, p256dh: `B${'A'.repeat(86)}` }, // the right size, not a point of the curve
      { ...good.keys, auth: randomBytes(17).toString('base64url') },
      { ...good.keys, auth: '!!!!!!!!!!!!!!!!!!!!!!' },
    ]) {
      expect(await codeOf(await subscribe(alice, { ...good, keys })), JSON.stringify(keys)).toEqual({
        status: 400,
        code: ErrorCode.invalidPushSubscription,
      });
    }
    expect(await codeOf(await subscribe(alice, { keys: good.keys }))).toEqual({ status: 400, code: ErrorCode.invalidPushSubscription });
    expect(await codeOf(await subscribe(alice, { ...good, endpoint: `${push.origin}/${'x'.repeat(2000)}` }))).toEqual({
      status: 400,
      code: ErrorCode.invalidPushSubscription,
    });
    expect((await subscribe(alice, { ...good, pad: 'x'.repeat(40_000) })).status).toBe(413);
    expect(await db()('push_subscriptions')).toEqual([]);
  });

  it('keeps each endpoint its own wallet’s: another wallet can neither read, remove nor take it', async () => {
    const browser = newBrowser(push.origin);
    expect((await subscribe(alice, browser.json)).status).toBe(200);
    expect(await isSubscribed(alice, browser.endpoint)).toBe(true);
    expect(await isSubscribed(bob, browser.endpoint)).toBe(false);
    expect(await codeOf(await unsubscribe(bob, browser.endpoint))).toEqual({ status: 404, code: ErrorCode.pushSubscriptionNotFound });
    const bobs = newBrowser(push.origin);
    expect(await codeOf(await subscribe(bob, { ...bobs.json, endpoint: browser.endpoint }))).toEqual({
      status: 409,
      code: ErrorCode.pushSubscriptionTaken,
    });
    expect(await db()('push_subscriptions').where({ endpoint: browser.endpoint })).toEqual([
      expect.objectContaining({ wallet: ALICE.toLowerCase(), p256dh: browser.json.keys.p256dh }),
    ]);
    expect((await unsubscribe(alice, browser.endpoint)).status).toBe(200);
    expect(await isSubscribed(alice, browser.endpoint)).toBe(false);
  });

  it(`keeps at most ${MAX_SUBSCRIPTIONS_PER_WALLET} browsers per wallet, dropping the oldest`, async () => {
    const browsers = Array.from({ length: MAX_SUBSCRIPTIONS_PER_WALLET + 1 }, () => newBrowser(push.origin));
    for (const b of browsers) expect((await subscribe(bob, b.json)).status).toBe(200);
    const kept = await db()('push_subscriptions').where({ wallet: BOB.toLowerCase() }).pluck('endpoint');
    expect(kept.sort()).toEqual(
      browsers
        .slice(1)
        .map((b) => b.endpoint)
        .sort(),
    );
    for (const b of browsers.slice(1)) expect((await unsubscribe(bob, b.endpoint)).status).toBe(200);
  });

  it('tells every browser of the wallet each status once, across two senders: encrypted, signed, a topic per order', async () => {
    const phone = newBrowser(push.origin);
    const laptop = newBrowser(push.origin);
    const bobs = newBrowser(push.origin);
    for (const b of [phone, laptop]) expect((await subscribe(alice, b.json)).status).toBe(200);
    expect((await subscribe(bob, bobs.json)).status).toBe(200);

    const { order, txHash } = await paidOrder(alice, ALICE);
    await sendNews();
    expect(newsTo(phone).map((n) => n.notification.title)).toEqual([`Order ${order.id} is paid`]);
    expect(newsTo(laptop).map((n) => n.order)).toEqual([{ id: order.id, status: 'paid' }]);
    expect(messagesTo(bobs)).toEqual([]);
    const [message] = messagesTo(phone);
    checkVapid(message!.headers, push.origin);
    expect(message!.headers).toMatchObject({
      'content-encoding': 'aes128gcm',
      ttl: '86400',
      urgency: 'normal',
      topic: `order-${order.id}`,
    });
    expect(newsTo(phone)[0]!.notification).toMatchObject({
      navigate: `${h.config.publicUrl}/order-confirmation?id=${order.id}`,
      tag: `order-${order.id}`,
    });

    // Shopify has the shipping details: confirmed.
    await h.payments!.handoff.runDue();
    const draftId = (await db()('orders').where({ id: order.id }).first()).shopify_draft_order_id as string;
    h.emulator.completeDraftOrder(draftId);
    await h.emulator.webhooksIdle();
    await sendNews();
    expect(newsTo(phone).map((n) => n.order.status)).toEqual(['paid', 'confirmed']);

    // Shopify fulfilled it, with a tracking link (in its fulfilments/create and orders/fulfilled
    // webhooks): shipped, the link kept with the order and in the news.
    const shopifyOrderId = (await db()('orders').where({ id: order.id }).first()).shopify_order_id as string;
    h.emulator.fulfillOrder(shopifyOrderId, 'https://track.example/1Z999');
    await h.emulator.webhooksIdle();
    const shown = orderSchema.parse(await (await alice.request(`/api/orders/${order.id}`)).json());
    expect(shown).toMatchObject({ status: 'shipped', trackingUrl: 'https://track.example/1Z999' });
    await sendNews();
    const shipped = newsTo(laptop).at(-1)!;
    expect(shipped.notification).toMatchObject({
      title: `Order ${order.id} has shipped`,
      body: 'Track it: https://track.example/1Z999',
      actions: [{ action: 'track', title: 'Track parcel', navigate: 'https://track.example/1Z999' }],
    });

    // Everything paid went back: refunded.
    const transfer = (await pay.transferRow(txHash))!;
    await db().transaction(async (trx) => {
      await insertRefund(trx, {
        transfer_id: transfer.id as number,
        order_id: order.id,
        chain_id: transfer.chain_id as number,
        tx_hash: `0x${randomBytes(32).toString('hex')}`,
        log_index: 0,
        block_number: Number(transfer.block_number),
        to_address: ALICE.toLowerCase(),
        amount_wei: String(transfer.value_wei),
        created_at: new Date(),
        session_label: null,
      });
      expect(await refundOrderIfFull(trx, order.id, new Date())).toEqual({ from: 'shipped', to: 'refunded' });
    });
    await sendNews();
    await sendNews(); // nothing left: no message twice
    for (const b of [phone, laptop]) expect(newsTo(b).map((n) => n.order.status)).toEqual(['paid', 'confirmed', 'shipped', 'refunded']);
    expect(newsTo(phone).at(-1)!.notification.title).toBe(`Order ${order.id} was refunded`);
    expect(messagesTo(bobs)).toEqual([]);
    expect(await db()('outbox').where({ order_id: order.id }).whereLike('kind', 'notify:%').whereNull('done_at')).toEqual([]);
    expect(await db()('push_deliveries')).toEqual([]);
    expect(await db()('push_subscriptions').where({ endpoint: phone.endpoint }).first()).toMatchObject({
      failures: 0,
      last_success_at: expect.anything(),
    });
    for (const b of [phone, laptop]) expect((await unsubscribe(alice, b.endpoint)).status).toBe(200);
    expect((await unsubscribe(bob, bobs.endpoint)).status).toBe(200);
  });

  it('drops a subscription the push service says is gone; retries one that fails, only to it, and drops it at the bound', async () => {
    const gone = newBrowser(push.origin);
    const failing = newBrowser(push.origin);
    const fine = newBrowser(push.origin);
    for (const b of [gone, failing, fine]) expect((await subscribe(alice, b.json)).status).toBe(200);
    push.answers.set(new URL(gone.endpoint).pathname, 410);
    push.answers.set(new URL(failing.endpoint).pathname, 500);

    const { order } = await paidOrder(alice, ALICE);
    await sendNews();
    expect(await isSubscribed(alice, gone.endpoint)).toBe(false);
    expect(await db()('push_subscriptions').where({ endpoint: failing.endpoint }).first()).toMatchObject({
      failures: 1,
      last_error: expect.stringMatching(/^the push service answered 500: x+$/),
    });
    const job = () => db()('outbox').where({ order_id: order.id, kind: 'notify:paid' }).first();
    expect(await job()).toMatchObject({ done_at: null, last_error: expect.stringContaining('1 of 3') });
    expect((await job()).last_error.length).toBeLessThan(100); // the service's long answer was not read into it

    for (let attempt = 2; attempt <= MAX_FAILURES; attempt++) {
      await db()('outbox')
        .where({ order_id: order.id, kind: 'notify:paid' })
        .update({ next_attempt_at: new Date(Date.now() - 1000) });
      await sendNews();
    }
    expect(await isSubscribed(alice, failing.endpoint)).toBe(false);
    expect(await job()).toMatchObject({ done_at: expect.anything() });
    // The retries went only to the subscription that had not taken it.
    expect(messagesTo(fine)).toHaveLength(1);
    expect(messagesTo(failing)).toHaveLength(MAX_FAILURES);
    expect(messagesTo(gone)).toHaveLength(1);
    expect((await unsubscribe(alice, fine.endpoint)).status).toBe(200);
  });
});
