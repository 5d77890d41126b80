/**
 * The merchant's webhooks on a real chain (anvil), the Shopify emulator and each database, sent to
 * a real local HTTP server that verifies every delivery with the `standardwebhooks` library (the
 * format's reference implementation, not the shop's code): each event type from the real flow, one
 * event per change across two instances and two senders, a receiver down then up (time driven
 * through the job's `now`), redelivery, rotation, the address and redirect refusals, a timeout, an
 * endpoint disabled after failing for a day, secrets never in the log, and strangers refused.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditPageSchema } from '../../../common/admin';
import { orderSchema, type Variant } from '../../../common/api';
import { ErrorCode } from '../../../common/errors';
import { formatUnits } from '../../../common/money';
import {
  webhookDeliveriesPageSchema,
  webhookDeliveryDetailSchema,
  webhookDeliverySchema,
  webhookEndpointListSchema,
  webhookEndpointSchema,
  webhookEndpointWithSecretSchema,
  WEBHOOK_DISABLE_AFTER_MS,
  WEBHOOK_PREVIOUS_SECRET_MS,
  type WebhookEventBody,
  type WebhookEventType,
} from '../../../common/outgoing-webhooks';
import { DEV_ACCOUNTS } from '../../chain/local-chain';
import { testDatabaseKinds } from '../../test/databases';
import { adminSession, type Harness } from '../../test/harness';
import { startPayingShop, type PayingKit } from '../../test/paying';
import { Shopper } from '../../test/shopper';
import { useTestChain } from '../../test/use-test-chain';
import type { Db } from '../../db';
import { syncRunEventData } from '../catalogue';
import { orderEventData, refundEventData } from '../orders';
import { transferEventData } from '../payments';
import { recordAudit } from '../admin';
import { queueWebhookEvent, WebhookEndpoints, WebhookSender } from '.';
import type { WebhookComposers } from './sender';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from './schedule';

const testChain = useTestChain();
const STORE = DEV_ACCOUNTS[0]!;
const BUYER = DEV_ACCOUNTS[1]!;
const SHORT = DEV_ACCOUNTS[2]!;
const TIMEOUT_MS = 600;
const SECOND = 1000;
const HOUR = 3600 * SECOND;

type Mode = 'ok' | 'slow-ok' | 'down' | 'redirect' | 'hang';
interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** The receiver answered 2xx: the shop counts it delivered. */
  accepted: boolean;
}

/** A merchant's system: answers each path as told, and keeps every request it got. */
async function startReceiver() {
  const received: Received[] = [];
  const modes = new Map<string, Mode>();
  const sockets = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const mode = modes.get(path) ?? 'ok';
      received.push({
        path,
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString('utf8'),
        accepted: mode === 'ok' || mode === 'slow-ok',
      });
      if (mode === 'ok') res.writeHead(204).end();
      else if (mode === 'slow-ok') setTimeout(() => res.writeHead(200).end('thanks'), 40);
      else if (mode === 'down') res.writeHead(503).end('down for maintenance');
      else if (mode === 'redirect') res.writeHead(302, { location: '/elsewhere' }).end();
      // hang: never answers.
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    received,
    set: (path: string, mode: Mode) => modes.set(path, mode),
    to: (path: string) => received.filter((r) => r.path === path),
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** Verifies a delivery with the reference library, as a merchant's code would; answers its body. */
function verified(r: Received, secret: string): WebhookEventBody<Record<string, unknown>> {
  const payload = new Webhook(secret).verify(r.body, r.headers) as WebhookEventBody<Record<string, unknown>>;
  expect(JSON.parse(r.body)).toEqual(payload);
  return payload;
}

const composersFor = (db: Db): WebhookComposers => ({
  'order.paid': (id) => orderEventData(db, id),
  'order.confirmed': (id) => orderEventData(db, id),
  'order.shipped': (id) => orderEventData(db, id),
  'order.refunded': (id) => orderEventData(db, id),
  'payment.needs_attention': (s) => transferEventData(db, s),
  'payment.refund_recorded': (id) => refundEventData(db, id),
  'catalogue.synced': (id) => syncRunEventData(db, id),
});

describe.each(testDatabaseKinds)('merchant webhooks on %s', (kind) => {
  let h: Harness;
  let pay: PayingKit;
  let unlimited: Variant;
  let admin: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const logLines: string[] = [];
  /** Every secret the shop answered: none may reach the log. */
  const secrets: string[] = [];

  beforeAll(async () => {
    receiver = await startReceiver();
    const logger = pino({ level: 'trace' }, { write: (line: string) => void logLines.push(line) });
    ({ h, pay, unlimited } = await startPayingShop(kind, testChain, { logger, env: { WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) } }));
    // The admin routes' clock is the wall clock here, as the events' times are (and the session is
    // made on it); the login's delay moves it on, so it is set again after.
    h.clock.now = Date.now();
    admin = await adminSession(h);
    h.clock.now = Date.now();
  });
  afterAll(async () => {
    await h?.close();
    await receiver?.close();
  });
  // Each test's endpoints are off after it (also when it failed), so the next one's sends are its own.
  afterEach(async () => {
    await db()('webhook_endpoints').update({ enabled: false, disabled_reason: 'admin', disabled_at: new Date() });
  });

  const db = () => h.database.db;
  const sender = () => h.services.webhooks.sender;
  const call = async (path: string, init: { method?: string; body?: unknown; cookie?: string | null } = {}) => {
    const res = await h.api(path, {
      method: init.method ?? 'GET',
      headers: {
        ...(init.cookie === null ? {} : { cookie: init.cookie ?? admin }),
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const create = async (path: string, events: WebhookEventType[]) => {
    const res = await call('/api/admin/webhooks', {
      method: 'POST',
      body: { url: `${receiver.origin}${path}`, events, description: path },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const made = webhookEndpointWithSecretSchema.parse(res.body);
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    secrets.push(made.secret);
    return made;
  };
  const disable = async (id: string) =>
    expect((await call(`/api/admin/webhooks/${id}`, { method: 'PATCH', body: { enabled: false } })).status).toBe(200);
  const endpointOf = async (id: string) =>
    webhookEndpointListSchema.parse((await call('/api/admin/webhooks')).body).endpoints.find((e) => e.id === id)!;
  const deliveriesOf = async (id: string, query = '') => {
    const res = await call(`/api/admin/webhooks/${id}/deliveries${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return webhookDeliveriesPageSchema.parse(res.body);
  };
  let keyCount = 0;
  /** One synthetic change's event (a catalogue sync run that does not exist: its data is null). */
  const queueOne = (at: Date, key = `test:${kind}:${++keyCount}`) =>
    db().transaction((trx) => queueWebhookEvent(trx, 'catalogue.synced', key, at, { subject: 'none' }));

  it('sends every event type of the real flow, signed, with its data; order.paid after the dollar reference', async () => {
    const all = await create('/all', [
      'order.paid',
      'order.confirmed',
      'order.shipped',
      'order.refunded',
      'payment.needs_attention',
      'payment.refund_recorded',
      'catalogue.synced',
    ]);
    const bodies = () => receiver.to('/all').map((r) => verified(r, all.secret));

    // A shopper pays a checkout on the chain.
    const buyer = new Shopper(h);
    const checkout = await pay.checkout(buyer, unlimited.id, BUYER);
    const txHash = await pay.send(BUYER, { value: BigInt(checkout.amountWei) });
    const created = await pay.createOrder(buyer, { checkoutId: checkout.id, transactionHash: txHash });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const order = orderSchema.parse(created.body);
    await sender().runDue();
    expect(bodies().map((b) => b.type)).not.toContain('order.paid'); // waits for the reference, 5 s
    await sender().runDue({ now: new Date(Date.now() + 6 * SECOND) });
    const paid = bodies().find((b) => b.type === 'order.paid')!;
    expect(paid.data).toMatchObject({
      order: {
        id: order.id,
        status: 'paid',
        wallet: BUYER.toLowerCase(),
        total: expect.stringMatching(/^\d+\.\d{2,}$/),
        totalWei: String((await db()('checkout_intents').where({ id: checkout.id }).first()).total_wei),
        amountPaid: formatUnits(BigInt(checkout.amountWei)),
        amountPaidWei: checkout.amountWei,
        amountRefunded: '0.00',
        amountRefundedWei: '0',
        payment: { txHash: txHash.toLowerCase() },
        refunds: [],
        reference: null,
      },
    });
    expect((paid.data.order as { items: unknown[] }).items).toEqual([
      expect.objectContaining({ variantId: unlimited.id, quantity: 1, unitPrice: expect.stringMatching(/^\d+\.\d{2,}$/) }),
    ]);

    // Shopify has the shipping details, then ships it.
    await h.payments!.handoff.runDue();
    h.emulator.completeDraftOrder((await db()('orders').where({ id: order.id }).first()).shopify_draft_order_id);
    await h.emulator.webhooksIdle();
    h.emulator.fulfillOrder((await db()('orders').where({ id: order.id }).first()).shopify_order_id, 'https://track.example/1Z9');
    await h.emulator.webhooksIdle();
    await sender().runDue();
    const shipped = bodies().find((b) => b.type === 'order.shipped')!;
    expect(shipped.data).toMatchObject({
      order: { id: order.id, trackingUrl: 'https://track.example/1Z9', shopifyOrderName: expect.any(String) },
    });
    expect(bodies().map((b) => b.type)).toContain('order.confirmed');

    // The store wallet sends everything back and the admin records it: the refund and order.refunded.
    const transfer = (await pay.transferRow(txHash))!;
    const refundTx = await pay.send(STORE, { value: BigInt(checkout.amountWei), to: BUYER });
    const refunded = await call(`/api/admin/payments/${transfer.id}/refund`, {
      method: 'POST',
      body: { transactionHash: refundTx, amount: checkout.amount },
    });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    await sender().runDue();
    expect(bodies().find((b) => b.type === 'payment.refund_recorded')!.data).toMatchObject({
      refund: {
        transferId: String(transfer.id),
        orderId: order.id,
        to: BUYER.toLowerCase(),
        amountWei: checkout.amountWei,
        txHash: refundTx.toLowerCase(),
      },
    });
    expect(bodies().find((b) => b.type === 'order.refunded')!.data).toMatchObject({
      order: { id: order.id, status: 'refunded', amountRefundedWei: checkout.amountWei },
    });

    // A signed-in wallet pays half of its checkout: the desk's queue has it as underpaid.
    const short = new Shopper(h);
    await short.signIn(testChain.provider, SHORT);
    const owing = await pay.checkout(short, unlimited.id, SHORT, 2);
    const half = BigInt(owing.amountWei) / 2n;
    const halfTx = await pay.send(SHORT, { value: half });
    await h.payments!.watcher.tick();
    await sender().runDue();
    const attention = bodies().filter((b) => b.type === 'payment.needs_attention');
    expect(attention.map((a) => a.data)).toHaveLength(1);
    const owingTotal = BigInt((await db()('checkout_intents').where({ id: owing.id }).first()).total_wei);
    expect(attention[0]!.data).toMatchObject({
      transfer: {
        kind: 'underpaid',
        txHash: halfTx.toLowerCase(),
        from: SHORT.toLowerCase(),
        amountWei: half.toString(),
        dueWei: (owingTotal - half).toString(),
        checkoutId: owing.id,
      },
    });

    // A catalogue sync.
    await h.catalogue.sync('test');
    await sender().runDue();
    expect(bodies().find((b) => b.type === 'catalogue.synced')!.data).toMatchObject({
      run: { status: 'succeeded', trigger: 'test', products: expect.any(Number), variants: expect.any(Number) },
    });

    // Each change was one event: no type twice.
    const types = bodies().map((b) => b.type);
    expect(types.length).toBe(new Set(types).size);
    expect(new Set(types).size).toBe(7);
    for (const r of receiver.to('/all')) expect(r.headers['content-type']).toBe('application/json');
    await disable(all.endpoint.id);
  });

  it('makes one event of one change across two instances, and two senders never send one delivery twice', async () => {
    const ep = await create('/twice', ['catalogue.synced']);
    receiver.set('/twice', 'slow-ok');
    const otherDb = h.database.connectAgain?.() ?? db();
    const at = new Date();
    const keys = Array.from({ length: 12 }, (_, i) => `twice:${kind}:${i}`);
    await Promise.all(
      [db(), otherDb].flatMap((d) =>
        keys.map((key) => d.transaction((trx) => queueWebhookEvent(trx, 'catalogue.synced', key, at, { subject: 'none' }))),
      ),
    );
    expect(Number((await db()('webhook_messages').whereIn('key', keys).count({ n: '*' }))[0]!.n)).toBe(12);
    const other = new WebhookSender({
      db: otherDb,
      composers: composersFor(otherDb),
      audit: (trx, e) => recordAudit(trx, e),
      timeoutMs: TIMEOUT_MS,
      local: true,
      logger: pino({ level: 'silent' }),
    });
    await Promise.all([sender().runDue({ now: at }), other.runDue({ now: at })]);
    const ids = receiver.to('/twice').map((r) => verified(r, ep.secret) && r.headers['webhook-id']);
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
    expect((await deliveriesOf(ep.endpoint.id)).deliveries.map((d) => [d.status, d.attempts])).toEqual(keys.map(() => ['delivered', 1]));
    await disable(ep.endpoint.id);
  });

  it('retries a receiver that is down on the schedule, and once it is up delivers everything once', async () => {
    const ep = await create('/flaky', ['catalogue.synced']);
    receiver.set('/flaky', 'down');
    const t0 = new Date();
    await queueOne(t0);
    await queueOne(t0);
    expect(await sender().runDue({ now: t0 })).toBe(2);
    expect(await sender().runDue({ now: new Date(t0.getTime() + 4 * SECOND) })).toBe(0); // the next is 5 s later
    expect(await sender().runDue({ now: new Date(t0.getTime() + 5 * SECOND) })).toBe(2);
    const page = await deliveriesOf(ep.endpoint.id, '?status=pending');
    expect(page.deliveries).toHaveLength(2);
    expect(page.deliveries[0]).toMatchObject({ attempts: 2, lastResponseStatus: 503, lastError: 'answered 503: down for maintenance' });
    expect(new Date(page.deliveries[0]!.nextAttemptAt!).getTime()).toBe(t0.getTime() + 5 * SECOND + 5 * 60 * SECOND);
    expect((await endpointOf(ep.endpoint.id)).failingSince).toBe(t0.toISOString());

    receiver.set('/flaky', 'ok');
    expect(await sender().runDue({ now: new Date(t0.getTime() + 6 * 60 * SECOND) })).toBe(2);
    expect(await sender().runDue({ now: new Date(t0.getTime() + 2 * HOUR) })).toBe(0);
    const accepted = receiver.to('/flaky').filter((r) => r.accepted);
    expect(accepted).toHaveLength(2);
    expect(new Set(accepted.map((r) => r.headers['webhook-id'])).size).toBe(2);
    // Every attempt carried the same id and body.
    for (const r of receiver.to('/flaky')) verified(r, ep.secret);
    const bodyOf = new Map<string, string>();
    for (const r of receiver.to('/flaky'))
      expect(bodyOf.get(r.headers['webhook-id']!) ?? r.body).toBe(
        bodyOf.set(r.headers['webhook-id']!, r.body).get(r.headers['webhook-id']!),
      );
    expect(bodyOf.size).toBe(2);
    const endpoint = await endpointOf(ep.endpoint.id);
    expect(endpoint).toMatchObject({ failingSince: null, pending: 0, failed: 0, enabled: true });
    const detail = webhookDeliveryDetailSchema.parse((await call(`/api/admin/webhooks/deliveries/${page.deliveries[0]!.id}`)).body);
    expect(detail.delivery).toMatchObject({ status: 'delivered', attempts: 3, nextAttemptAt: null });
    expect(detail.attempts.map((a) => a.responseStatus)).toEqual([204, 503, 503]);
    expect(JSON.parse(detail.payload!)).toMatchObject({ type: 'catalogue.synced', data: null });
    await disable(ep.endpoint.id);
  });

  it('redelivers the same event (same id, same body), one delivery or every failed one since a time', async () => {
    const ep = await create('/again', ['catalogue.synced']);
    const t0 = new Date();
    await queueOne(t0);
    await sender().runDue({ now: t0 });
    const [first] = receiver.to('/again');
    const [delivery] = (await deliveriesOf(ep.endpoint.id)).deliveries;
    const again = await call(`/api/admin/webhooks/deliveries/${delivery!.id}/redeliver`, { method: 'POST' });
    expect(again.status).toBe(200);
    expect(webhookDeliverySchema.parse(again.body)).toMatchObject({ status: 'pending', eventId: first!.headers['webhook-id'] });
    await sender().runDue();
    const [, second] = receiver.to('/again');
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(second!.body).toBe(first!.body);
    verified(second!, ep.secret);

    // Given up after the whole schedule, then sent again on the admin's word.
    receiver.set('/again', 'down');
    await queueOne(t0);
    let at = t0.getTime();
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      expect(await sender().runDue({ now: new Date(at) })).toBe(1);
      at += RETRY_DELAYS_MS[i] ?? 0;
    }
    expect((await deliveriesOf(ep.endpoint.id, '?status=failed')).deliveries).toHaveLength(1);
    // The last attempt came more than a day after the first failure: the endpoint is off until the admin turns it on.
    expect(await endpointOf(ep.endpoint.id)).toMatchObject({ enabled: false, disabledReason: 'failing', failed: 1 });
    expect((await call(`/api/admin/webhooks/${ep.endpoint.id}`, { method: 'PATCH', body: { enabled: true } })).status).toBe(200);
    receiver.set('/again', 'ok');
    const bad = await call(`/api/admin/webhooks/${ep.endpoint.id}/redeliver-failed`, { method: 'POST', body: { since: 'yesterday' } });
    expect(bad).toMatchObject({ status: 400, body: { code: ErrorCode.badRequest } });
    const res = await call(`/api/admin/webhooks/${ep.endpoint.id}/redeliver-failed`, { method: 'POST', body: { since: t0.toISOString() } });
    expect(res).toEqual({ status: 200, body: { queued: 1 } });
    await sender().runDue();
    expect((await deliveriesOf(ep.endpoint.id, '?status=failed')).deliveries).toHaveLength(0);
    expect((await endpointOf(ep.endpoint.id)).pending).toBe(0);
    await disable(ep.endpoint.id);
  });

  it('signs with the new secret and, for a day after a rotation, the previous one too', async () => {
    const ep = await create('/rotate', ['catalogue.synced']);
    const rotated = await call(`/api/admin/webhooks/${ep.endpoint.id}/rotate-secret`, { method: 'POST' });
    expect(rotated.status).toBe(200);
    const { secret, endpoint } = webhookEndpointWithSecretSchema.parse(rotated.body);
    secrets.push(secret);
    expect(secret).not.toBe(ep.secret);
    const t0 = new Date();
    expect(new Date(endpoint.previousSecretUntil!).getTime()).toBeGreaterThanOrEqual(
      t0.getTime() + WEBHOOK_PREVIOUS_SECRET_MS - 60 * SECOND,
    );
    await queueOne(t0);
    await sender().runDue({ now: t0 });
    const during = receiver.to('/rotate')[0]!;
    expect(during.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    verified(during, secret);
    verified(during, ep.secret);

    const after = new Date(t0.getTime() + WEBHOOK_PREVIOUS_SECRET_MS + HOUR);
    await queueOne(after);
    await sender().runDue({ now: after });
    const later = receiver.to('/rotate')[1]!;
    expect(later.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    verified(later, secret);
    expect(() => new Webhook(ep.secret).verify(later.body, later.headers)).toThrow(/signature/i);
    await disable(ep.endpoint.id);
  });

  it('refuses private addresses (given, and resolved when sending), redirects, and a receiver that does not answer in time', async () => {
    // The admin's URL, checked as the shop is live.
    const live = new WebhookEndpoints(db(), { audit: (trx, e) => recordAudit(trx, e), local: false, resolve: async () => ['10.1.2.3'] });
    for (const url of ['http://hooks.example/x', 'https://10.0.0.7/x', 'https://localhost/x', 'https://hooks.example/x'])
      await expect(live.create({ url, events: ['catalogue.synced'] }, 'test')).rejects.toMatchObject({ code: ErrorCode.webhookUrlRefused });
    const viaApi = await call('/api/admin/webhooks', { method: 'POST', body: { url: 'http://10.0.0.7/x', events: ['order.paid'] } });
    expect(viaApi).toMatchObject({ status: 400, body: { code: ErrorCode.webhookUrlRefused, message: expect.stringMatching(/https/) } });

    // A public name when it was given that resolves to a private address when sending: not called.
    let answer = ['93.184.215.14'];
    const resolve = async () => answer;
    const made = await new WebhookEndpoints(db(), { audit: (trx, e) => recordAudit(trx, e), local: false, resolve }).create(
      { url: 'https://hooks.example/private', events: ['catalogue.synced'] },
      'test',
    );
    secrets.push(made.secret);
    answer = ['10.1.2.3'];
    const liveSender = new WebhookSender({
      db: db(),
      composers: composersFor(db()),
      audit: (trx, e) => recordAudit(trx, e),
      timeoutMs: TIMEOUT_MS,
      local: false,
      resolve,
      logger: pino({ level: 'silent' }),
    });
    const t0 = new Date();
    await queueOne(t0);
    await liveSender.runDue({ now: t0 });
    expect((await deliveriesOf(made.endpoint.id)).deliveries[0]).toMatchObject({
      status: 'pending',
      lastResponseStatus: null,
      lastError: expect.stringMatching(/resolves to a private, loopback or link-local address/),
    });
    await disable(made.endpoint.id);

    const redirect = await create('/redirect', ['catalogue.synced']);
    receiver.set('/redirect', 'redirect');
    const slow = await create('/slow', ['catalogue.synced']);
    receiver.set('/slow', 'hang');
    await queueOne(t0);
    const started = Date.now();
    await sender().runDue({ now: t0 });
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 3000);
    expect((await deliveriesOf(redirect.endpoint.id)).deliveries[0]).toMatchObject({
      lastResponseStatus: 302,
      lastError: expect.stringMatching(/redirect, which is not followed/),
    });
    expect(receiver.to('/elsewhere')).toEqual([]);
    expect((await deliveriesOf(slow.endpoint.id)).deliveries[0]).toMatchObject({
      status: 'pending',
      lastError: `the webhook URL did not answer within ${TIMEOUT_MS} ms`,
    });
    await disable(redirect.endpoint.id);
    await disable(slow.endpoint.id);
  });

  it('disables an endpoint whose every attempt failed for a day: audited, logged, shown; its deliveries wait until it is back', async () => {
    const ep = await create('/dead', ['catalogue.synced']);
    receiver.set('/dead', 'down');
    const t0 = new Date();
    await queueOne(t0);
    let at = t0.getTime();
    // The first event's schedule, attempt by attempt, until a day has passed since the first failure.
    while (at - t0.getTime() < WEBHOOK_DISABLE_AFTER_MS) {
      await sender().runDue({ now: new Date(at) });
      at += 10 * HOUR;
      await queueOne(new Date(at - HOUR));
    }
    await sender().runDue({ now: new Date(at) });
    const shown = await endpointOf(ep.endpoint.id);
    expect(shown).toMatchObject({ enabled: false, disabledReason: 'failing', disabledAt: expect.any(String) });
    expect(shown.pending).toBeGreaterThan(0);
    const audit = auditPageSchema.parse((await call('/api/admin/audit?limit=200')).body).entries;
    expect(audit.find((e) => e.action === 'webhook-disabled' && e.target === ep.endpoint.id)).toMatchObject({ session: null });
    expect(logLines.some((l) => l.includes('webhook endpoint disabled') && l.includes(ep.endpoint.id) && l.includes('"level":40'))).toBe(
      true,
    );

    // Nothing is sent while it is off, not even a new event.
    const count = receiver.to('/dead').length;
    await queueOne(new Date(at));
    expect(await sender().runDue({ now: new Date(at + 30 * HOUR) })).toBe(0);
    expect(receiver.to('/dead')).toHaveLength(count);

    // Back on (and answering): everything that waited goes.
    receiver.set('/dead', 'ok');
    const on = await call(`/api/admin/webhooks/${ep.endpoint.id}`, { method: 'PATCH', body: { enabled: true } });
    expect(webhookEndpointSchema.parse(on.body)).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
    await sender().runDue();
    expect((await endpointOf(ep.endpoint.id)).pending).toBe(0);
    await disable(ep.endpoint.id);
  });

  it('never shows a secret in a list, an audit entry or the log', async () => {
    const list = JSON.stringify((await call('/api/admin/webhooks')).body);
    const audit = JSON.stringify((await call('/api/admin/audit?limit=200')).body);
    const log = logLines.join('\n');
    expect(secrets.length).toBeGreaterThan(5);
    for (const secret of secrets) {
      const key = secret.slice('whsec_'.length);
      for (const text of [list, audit, log]) expect(text.includes(key)).toBe(false);
    }
    expect(log).toContain('webhook');
  });

  it('gives strangers nothing: every route answers 401 without the admin session, and a forged id 404', async () => {
    const ep = await create('/strangers', ['order.paid']);
    const [delivery] = await db()('webhook_deliveries').orderBy('id', 'desc').limit(1);
    const before = JSON.stringify([await db()('webhook_endpoints').orderBy('id'), await db()('webhook_deliveries').orderBy('id')]);
    const id = ep.endpoint.id;
    const routes: Array<[string, string, unknown?]> = [
      ['GET', '/api/admin/webhooks'],
      ['POST', '/api/admin/webhooks', { url: `${receiver.origin}/x`, events: ['order.paid'] }],
      ['PATCH', `/api/admin/webhooks/${id}`, { url: `${receiver.origin}/stolen` }],
      ['POST', `/api/admin/webhooks/${id}/rotate-secret`],
      ['GET', `/api/admin/webhooks/${id}/deliveries`],
      ['POST', `/api/admin/webhooks/${id}/redeliver-failed`, { since: '2026-01-01T00:00:00Z' }],
      ['GET', `/api/admin/webhooks/deliveries/${delivery.id}`],
      ['POST', `/api/admin/webhooks/deliveries/${delivery.id}/redeliver`],
    ];
    for (const [method, path, body] of routes) {
      const res = await call(path, { method, body, cookie: null });
      expect(res, `${method} ${path}`).toEqual({
        status: 401,
        body: { code: ErrorCode.adminSessionRequired, message: expect.any(String) },
      });
      const forged = await call(path, { method, body, cookie: 'pogs_admin=forged-session-token' });
      expect(forged.status, `${method} ${path}`).toBe(401);
    }
    expect(JSON.stringify([await db()('webhook_endpoints').orderBy('id'), await db()('webhook_deliveries').orderBy('id')])).toBe(before);
    for (const path of [
      '/api/admin/webhooks/ep_000000000000000000000000/deliveries',
      '/api/admin/webhooks/deliveries/999999999',
      '/api/admin/webhooks/nonsense/deliveries',
    ])
      expect((await call(path)).body).toMatchObject({ code: ErrorCode.notFound });
    expect((await call('/api/admin/webhooks/deliveries/0x1')).status).toBe(404);
    expect((await call(`/api/admin/webhooks/${id}/deliveries?before=abc`)).body).toMatchObject({ code: ErrorCode.badRequest });
    await disable(id);
  });
});
