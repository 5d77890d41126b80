/**
 * The admin's orders view on a real chain (anvil), the Shopify emulator and each
 * database: orders made by real payments are listed newest first with their amounts, flags and
 * Shopify draft state, filtered and paged; an order's detail carries its items, transfers,
 * refunds and a timeline of what the server recorded; a failed hand-off is shown with its error
 * and "retry now" makes exactly one Shopify draft order, also when clicked twice at once; the
 * Shopify order's name arrives with the completed invoice and reaches the export; and nobody
 * without the admin session (or from another site) gets anything.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditPageSchema } from '../../../common/admin';
import type { Variant } from '../../../common/api';
import { ErrorCode } from '../../../common/errors';
import { formatUnits } from '../../../common/money';
import { adminOrderDetailSchema, adminOrdersPageSchema, type AdminOrder, type AdminOrderDetail } from '../../../common/payments-desk';
import { DEV_ACCOUNTS } from '../../chain/local-chain';
import { testDatabaseKinds } from '../../test/databases';
import type { Harness } from '../../test/harness';
import { startPayingShop, type PayingKit } from '../../test/paying';
import { Shopper } from '../../test/shopper';
import { useTestChain } from '../../test/use-test-chain';

const PAYER = DEV_ACCOUNTS[1]!;
const GENEROUS_PAYER = DEV_ACCOUNTS[3]!;
const testChain = useTestChain();
const hex = (bytes: number) => `0x${randomBytes(bytes).toString('hex')}`;

describe.each(testDatabaseKinds)('the admin orders view on %s', (kind) => {
  let h: Harness;
  let pay: PayingKit;
  let unlimited: Variant;
  let admin: string;

  beforeAll(async () => {
    ({ h, pay, unlimited, admin } = await startPayingShop(kind, testChain));
  });
  afterAll(async () => {
    await h?.close();
  });

  const db = () => h.database.db;
  const asAdmin = (path: string, init: RequestInit = {}) => h.api(path, { ...init, headers: { cookie: admin, ...init.headers } });
  const list = async (query = '') => {
    const res = await asAdmin(`/api/admin/orders${query}`);
    expect(res.status, await res.clone().text()).toBe(200);
    return adminOrdersPageSchema.parse(await res.json());
  };
  const detail = async (id: string): Promise<AdminOrderDetail> => {
    const res = await asAdmin(`/api/admin/orders/${id}`);
    expect(res.status, await res.clone().text()).toBe(200);
    return adminOrderDetailSchema.parse(await res.json());
  };
  const retry = (id: string, headers: Record<string, string> = {}) =>
    asAdmin(`/api/admin/orders/${id}/retry-handoff`, { method: 'POST', headers });
  const inList = (orders: AdminOrder[], id: string) => orders.find((o) => o.id === id);
  const draftsFor = (orderId: string) => h.emulator.orders.listDraftOrders().filter((d) => d.tags.includes(`pogs-order-${orderId}`));
  const orderRow = async (id: string) => db()('orders').where({ id }).first();
  const job = async (orderId: string) => db()('outbox').where({ kind: 'shopify-draft-order', order_id: orderId }).first();
  const kinds = (d: AdminOrderDetail) => d.timeline.map((e) => e.kind);

  /** Pays a fresh checkout of `quantity` with `value` (its exact amount by default) and lets the watcher make the order. */
  async function paidOrder(opts: { from?: string; extraWei?: bigint; quantity?: number } = {}) {
    const from = opts.from ?? PAYER;
    const s = new Shopper(h);
    if (opts.extraWei) await s.signIn(testChain.provider, from); // a non-exact amount pays only a proven wallet's checkout
    const c = await pay.checkout(s, unlimited.id, opts.extraWei ? from : null, opts.quantity ?? 1);
    const hash = await pay.send(from, { value: BigInt(c.amountWei) + (opts.extraWei ?? 0n) });
    await h.payments!.watcher.tick();
    const [order] = await pay.ordersFor(hash);
    expect(order, 'the watcher made the order').toBeDefined();
    return { id: order!.id as string, hash: hash.toLowerCase(), checkout: c };
  }

  /** A refund recorded against the order's paying transfer, as the refunds code writes it. */
  async function recordRefund(orderId: string, amountWei: bigint, at: Date) {
    const order = await orderRow(orderId);
    const transfer = await db()('chain_transfers').where({ tx_hash: order.tx_hash, log_index: order.log_index }).first();
    const [row] = await db()('refunds')
      .insert({
        transfer_id: transfer.id,
        order_id: orderId,
        chain_id: order.chain_id,
        tx_hash: hex(32),
        log_index: 0,
        block_number: Number(transfer.block_number) + 1,
        to_address: transfer.from_address,
        amount_wei: amountWei.toString(),
        created_at: at,
        session_label: 'admin-test',
      })
      .returning(['id', 'tx_hash']);
    return { id: String(row.id), txHash: row.tx_hash as string, transferId: String(transfer.id), to: transfer.from_address as string };
  }

  const made: { plain?: string; over?: string } = {};

  it('lists orders newest first with exact amounts, payer, flags, draft state and hand-off; filters by status and by prefix', async () => {
    await h.payments!.handoff.runDue(); // nothing earlier waits
    const plain = await paidOrder({ quantity: 2 });
    const over = await paidOrder({ from: GENEROUS_PAYER, extraWei: 10n ** 18n });
    made.plain = plain.id;
    made.over = over.id;

    // Before the hand-off ran: the job is queued.
    let page = await list();
    expect(page.orders.slice(0, 2).map((o) => o.id)).toEqual([over.id, plain.id]);
    const plainRow = await orderRow(plain.id);
    expect(inList(page.orders, plain.id)).toEqual({
      id: plain.id,
      status: 'paid',
      total: formatUnits(BigInt(plainRow.total_wei), 18, 2),
      amountPaid: formatUnits(BigInt(plain.checkout.amountWei), 18, 2),
      refunded: '0.00',
      payer: PAYER.toLowerCase(),
      paidAt: new Date(plainRow.paid_at).toISOString(),
      txHash: plain.hash,
      explorerUrl: null, // the local demo chain: no explorer knows it
      flags: { overpaid: false, late: false, hold: null },
      usdAtPayment: null, // no dollar reference configured on this chain
      reference: null,
      draftState: 'pending',
      shopifyDraftOrderId: null,
      shopifyOrderName: null,
      handoff: { attempts: 0, lastError: null, nextAttemptAt: expect.any(String), done: false },
    });
    // Every decimal of the exact amount (its suffix included), never a float.
    expect(inList(page.orders, plain.id)!.amountPaid).toBe(formatUnits(BigInt(String(plainRow.amount_paid_wei)), 18, 2));
    expect(BigInt(String(plainRow.amount_paid_wei)) % 10n ** 16n).not.toBe(0n);
    const overRow = await orderRow(over.id);
    expect(inList(page.orders, over.id)).toMatchObject({
      payer: GENEROUS_PAYER.toLowerCase(),
      amountPaid: formatUnits(BigInt(overRow.amount_paid_wei), 18, 2),
      flags: { overpaid: true, late: false, hold: null },
    });

    // The hand-off made the drafts: open, nothing to tell about the job.
    expect(await h.payments!.handoff.runDue()).toBe(2);
    page = await list();
    expect(inList(page.orders, plain.id)).toMatchObject({
      draftState: 'open',
      shopifyDraftOrderId: draftsFor(plain.id)[0] && `gid://shopify/DraftOrder/${draftsFor(plain.id)[0]!.legacyId}`,
      handoff: null,
    });

    // What was refunded is the sum of the refunds recorded for the order, exactly.
    await recordRefund(over.id, 10n ** 18n, new Date());
    await recordRefund(over.id, 1n, new Date());
    expect(inList((await list()).orders, over.id)!.refunded).toBe(formatUnits(10n ** 18n + 1n, 18, 2));

    // Filters: status, and a case-insensitive prefix of the order id, the payer or the tx hash.
    expect((await list('?status=paid')).orders.every((o) => o.status === 'paid')).toBe(true);
    expect(inList((await list('?status=paid')).orders, plain.id)).toBeDefined();
    expect(inList((await list('?status=shipped')).orders, plain.id)).toBeUndefined();
    for (const q of [plain.id.slice(0, 6).toLowerCase(), plain.id, plain.hash.slice(0, 12).toUpperCase().replace('0X', '0x'), plain.hash]) {
      const found = (await list(`?q=${encodeURIComponent(q)}`)).orders;
      expect(
        found.map((o) => o.id),
        q,
      ).toContain(plain.id);
      expect(
        found.every(
          (o) =>
            o.id.toLowerCase().startsWith(q.toLowerCase()) || o.txHash.startsWith(q.toLowerCase()) || o.payer.startsWith(q.toLowerCase()),
        ),
      ).toBe(true);
    }
    const byPayer = (await list(`?q=${GENEROUS_PAYER.slice(0, 10).toUpperCase().replace('0X', '0x')}`)).orders;
    expect(byPayer.map((o) => o.id)).toContain(over.id);
    expect(byPayer.every((o) => o.payer === GENEROUS_PAYER.toLowerCase())).toBe(true);
    expect((await list('?q=0xnothing')).orders).toEqual([]);
    expect((await list('?q=%25')).orders).toEqual([]); // a LIKE wildcard is just a character that matches nothing
    expect((await list(`?q=${plain.id}&status=shipped`)).orders).toEqual([]);

    // A bad status says which ones exist.
    const bad = await asAdmin('/api/admin/orders?status=lost');
    expect(bad.status).toBe(400);
    const body = await bad.json();
    expect(body.code).toBe(ErrorCode.badRequest);
    expect(body.message).toContain('pending, paid, confirmed, shipped, failed, draft, refunded');
    expect((await asAdmin('/api/admin/orders?sort=asc')).status).toBe(400);
  });

  it('pages 50 at a time with a cursor, newest first, ties broken by id, also under a filter', async () => {
    // Old orders written as settlement writes them, several paid in the same instant.
    const template = await orderRow(made.plain!);
    const intent = await db()('checkout_intents').where({ id: template.intent_id }).first();
    const fixtures: Array<{ id: string; status: string }> = [];
    for (let i = 0; i < 57; i++) {
      const id = `PGT${String(i).padStart(2, '0')}${randomBytes(3).toString('hex').toUpperCase()}`.slice(0, 12);
      const intentId = `${intent.id.slice(0, 24)}${randomBytes(6).toString('hex')}`;
      const paidAt = new Date(Date.UTC(2020, 0, 1, 0, Math.floor(i / 3))); // three per minute
      const status = i % 4 === 0 ? 'failed' : 'shipped';
      await db()('checkout_intents').insert({
        ...intent,
        id: intentId,
        session_id: null,
        amount_wei: (BigInt(intent.amount_wei) + BigInt(i + 1)).toString(),
        status: 'paid',
      });
      await db()('orders').insert({
        ...template,
        id,
        intent_id: intentId,
        session_id: null,
        status,
        tx_hash: hex(32),
        shopify_draft_order_id: null,
        shopify_invoice_url: null,
        paid_at: paidAt,
        shipped_at: status === 'shipped' ? paidAt : null,
        created_at: paidAt,
        updated_at: paidAt,
      });
      fixtures.push({ id, status });
    }
    const expected = async (status?: string) => {
      const q = db()('orders').orderBy([
        { column: 'paid_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ]);
      if (status) q.where({ status });
      const rows: Array<{ id: string }> = await q.select('id');
      return rows.map((r) => r.id);
    };

    const walk = async (filter: string) => {
      const seen: string[] = [];
      const sizes: number[] = [];
      let before: string | null = null;
      do {
        const page = await list(`?${filter}${before ? `${filter ? '&' : ''}before=${encodeURIComponent(before)}` : ''}`);
        sizes.push(page.orders.length);
        seen.push(...page.orders.map((o) => o.id));
        before = page.nextBefore;
      } while (before);
      return { seen, sizes };
    };
    const all = await walk('');
    expect(all.seen).toEqual(await expected());
    expect(all.sizes[0]).toBe(50);
    expect(all.sizes.at(-1)).toBeGreaterThan(0);
    const shipped = await walk('status=shipped');
    expect(shipped.seen).toEqual(await expected('shipped'));
    expect(shipped.seen.length).toBeGreaterThan(40);
    expect((await walk('status=failed')).seen).toEqual(await expected('failed'));

    // A fixture order: shipped, never handed off by this shop (no job): completed in Shopify.
    const old = inList((await list(`?q=${fixtures[1]!.id}`)).orders, fixtures[1]!.id)!;
    expect(old).toMatchObject({ status: 'shipped', draftState: 'completed', handoff: null });
    const failed = inList((await list(`?q=${fixtures[0]!.id}`)).orders, fixtures[0]!.id)!;
    expect(failed).toMatchObject({ status: 'failed', draftState: 'none', handoff: null });

    // Cursors the server did not give are refused, not guessed at.
    const good = (await list()).nextBefore!;
    for (const before of [
      'abc',
      '!!!',
      Buffer.from('yesterday|PG1').toString('base64url'),
      Buffer.from('2026-13-45T99:00:00.000Z|PG1').toString('base64url'),
      Buffer.from(`2026-01-01T00:00:00.000Z|PG'1`).toString('base64url'),
      good.slice(0, 20),
      'x'.repeat(201),
    ]) {
      const res = await asAdmin(`/api/admin/orders?before=${encodeURIComponent(before)}`);
      expect(res.status, before).toBe(400);
      expect((await res.json()).code).toBe(ErrorCode.badRequest);
    }
  });

  it('shows a paid order with its items, transfers, refunds and timeline; an unknown order is 404', async () => {
    const d = await detail(made.over!);
    const row = await orderRow(made.over!);
    const transfer = await db()('chain_transfers').where({ tx_hash: row.tx_hash }).first();
    expect(d).toMatchObject({ id: made.over, status: 'paid', draftState: 'open' });
    expect(d.items).toEqual([{ title: expect.any(String), quantity: 1, price: unlimited.price }]);
    expect(d.transfers).toEqual([
      {
        transferId: String(transfer.id),
        txHash: row.tx_hash,
        amount: formatUnits(BigInt(transfer.value_wei), 18, 2),
        sender: GENEROUS_PAYER.toLowerCase(),
        paidWith: { coin: 'POGS', amountIn: null, payer: GENEROUS_PAYER.toLowerCase() },
        at: new Date(transfer.created_at).toISOString(),
        use: 'paid',
      },
    ]);
    expect(d.refunds.map((r) => r.amountWei)).toEqual([(10n ** 18n).toString(), '1']);
    expect(d.refunds[0]).toMatchObject({
      transferId: String(transfer.id),
      orderId: made.over,
      to: GENEROUS_PAYER.toLowerCase(),
      amount: '1.00',
      explorerUrl: null,
      by: 'admin-test',
    });
    expect(kinds(d)).toEqual(['paid', 'handed-off', 'refunded', 'refunded']);
    expect(d.timeline[0]!.text).toContain('(overpaid)');
    expect(d.timeline[1]!.text).toContain(d.shopifyDraftOrderId!.split('/').pop()!);
    expect(d.timeline[2]!.text).toBe(`Refunded 1.00 POG to ${GENEROUS_PAYER.toLowerCase()}`);
    expect(d.timeline.map((e) => e.at)).toEqual(d.timeline.map((e) => e.at).sort());
    expect(d.timeline[0]!.at).toBe(new Date(row.paid_at).toISOString());

    // Resolving its queue item on the payments desk shows on the timeline, with the note.
    const resolved = await asAdmin(`/api/admin/payments/${transfer.id}/resolve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ note: 'excess refunded' }),
    });
    expect(resolved.status).toBe(200);
    const after = await detail(made.over!);
    expect(after.timeline.find((e) => e.kind === 'resolved')).toEqual({
      at: expect.any(String),
      kind: 'resolved',
      text: `Transfer ${transfer.id} resolved: excess refunded`,
    });

    for (const id of ['PG0000000000', 'nope', 'x'.repeat(300)]) {
      const res = await asAdmin(`/api/admin/orders/${id}`);
      expect({ status: res.status, code: (await res.json()).code }, id).toEqual({ status: 404, code: ErrorCode.orderNotFound });
    }
    // A NUL is refused before any route, as everywhere in the API.
    const nul = await asAdmin('/api/admin/orders/%00');
    expect({ status: nul.status, code: (await nul.json()).code }).toEqual({ status: 400, code: ErrorCode.badRequest });
  });

  it('shows a failed hand-off with its error; retry now runs it at once and makes exactly one draft, even clicked twice at once', async () => {
    const { id } = await paidOrder();
    const draftsBefore = h.emulator.orders.listDraftOrders().length;

    // Never failed: nothing to retry (it runs by itself).
    const early = await retry(id);
    expect({ status: early.status, code: (await early.json()).code }).toEqual({ status: 409, code: ErrorCode.handoffNotRetryable });

    h.emulator.failNext(1000, 503); // Shopify is down
    expect(await h.payments!.handoff.runDue()).toBe(0);
    const failed = inList((await list()).orders, id)!;
    expect(failed).toMatchObject({
      draftState: 'pending',
      handoff: { attempts: 1, lastError: expect.any(String), done: false },
    });
    expect(Date.parse(failed.handoff!.nextAttemptAt!)).toBeGreaterThan(Date.now()); // backing off
    const failedDetail = await detail(id);
    expect(kinds(failedDetail)).toEqual(['paid', 'handoff-failed']);
    expect(failedDetail.timeline[1]!.text).toBe(`Shopify hand-off attempt 1 failed: ${failed.handoff!.lastError}`);

    // Retrying while Shopify is still down: it runs now, fails again, and says so.
    const again = await retry(id);
    expect(again.status, await again.clone().text()).toBe(200);
    expect(adminOrderDetailSchema.parse(await again.json())).toMatchObject({
      draftState: 'pending',
      handoff: { attempts: 2, lastError: expect.any(String), done: false },
      timeline: [
        expect.objectContaining({ kind: 'paid' }),
        expect.objectContaining({ kind: 'handoff-failed', text: expect.stringContaining('attempt 2 failed') }),
      ],
    });
    expect(draftsFor(id)).toHaveLength(0);

    // Shopify is back: two clicks at once make one attempt and one draft order.
    h.emulator.failNext(0, 503);
    const answers = await Promise.all([retry(id), retry(id)]);
    const results = await Promise.all(answers.map(async (r) => ({ status: r.status, body: await r.json() })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body.code).toBe(ErrorCode.handoffNotRetryable);
    const done = adminOrderDetailSchema.parse(results.find((r) => r.status === 200)!.body);
    expect(draftsFor(id)).toHaveLength(1);
    expect(h.emulator.orders.listDraftOrders()).toHaveLength(draftsBefore + 1);
    expect(done).toMatchObject({
      draftState: 'open',
      shopifyDraftOrderId: `gid://shopify/DraftOrder/${draftsFor(id)[0]!.legacyId}`,
      // The failure stays as history.
      handoff: { attempts: 3, lastError: expect.any(String), nextAttemptAt: null, done: true },
    });
    expect(kinds(done)).toEqual(['paid', 'handoff-failed', 'handed-off']);
    expect((await job(id)).done_at).not.toBeNull();

    // Done: nothing to retry, and no second draft.
    const late = await retry(id);
    expect({ status: late.status, code: (await late.json()).code }).toEqual({ status: 409, code: ErrorCode.handoffNotRetryable });
    expect(draftsFor(id)).toHaveLength(1);

    // Each retry that ran is audited once; the refused ones are not.
    const audit = auditPageSchema.parse(await (await asAdmin('/api/admin/audit?limit=200')).json()).entries;
    expect(audit.filter((e) => e.action === 'handoff-retried' && e.target === id)).toHaveLength(2);

    const unknown = await retry('PG0000000000');
    expect(unknown.status).toBe(404);
  });

  it('never runs a hand-off twice when a retry meets the background pass', async () => {
    for (let round = 0; round < 3; round++) {
      const { id } = await paidOrder();
      h.emulator.failNext(1000, 503);
      expect(await h.payments!.handoff.runDue()).toBe(0);
      h.emulator.failNext(0, 503);
      // Due now, so the background pass may take it too.
      await db()('outbox')
        .where({ kind: 'shopify-draft-order', order_id: id })
        .update({ next_attempt_at: new Date(Date.now() - 1000) });
      const [a, b, ran] = await Promise.all([retry(id), retry(id), h.payments!.handoff.runDue()]);
      const statuses = [a.status, b.status];
      expect(statuses.filter((s) => s === 200).length + ran).toBe(1);
      expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
      expect(draftsFor(id)).toHaveLength(1);
      expect((await detail(id)).draftState).toBe('open');
    }
  });

  it('records the Shopify order name when the invoice is completed (webhook or poll); the timeline and the export show it', async () => {
    const { id } = await paidOrder();
    await h.payments!.handoff.runDue();
    const draftId = (await orderRow(id)).shopify_draft_order_id;
    const { order: shopifyOrder } = h.emulator.completeDraftOrder(draftId, {
      firstName: 'Ada',
      lastName: 'Lovelace',
      address1: '1 Main St',
      city: 'London',
      zip: 'N1 1AA',
      countryCode: 'GB',
    });
    await h.emulator.webhooksIdle();
    expect(shopifyOrder.name).toMatch(/^#\d{4,}$/);

    const confirmed = await detail(id);
    expect(confirmed).toMatchObject({ status: 'confirmed', draftState: 'completed', shopifyOrderName: shopifyOrder.name });
    expect(kinds(confirmed)).toEqual(['paid', 'handed-off', 'confirmed']);
    expect(confirmed.timeline[2]!.text).toBe(`Shipping details given in Shopify (order ${shopifyOrder.name})`);

    h.emulator.fulfillOrder(shopifyOrder.legacyId);
    await h.emulator.webhooksIdle();
    const shipped = await detail(id);
    expect(shipped.status).toBe('shipped');
    expect(kinds(shipped)).toEqual(['paid', 'handed-off', 'confirmed', 'shipped']);

    const day = new Date().toISOString().slice(0, 10);
    const csv = await (await asAdmin(`/api/admin/payments/export.csv?from=${day}&to=${day}`)).text();
    const line = csv.split('\r\n').find((l) => l.split(',')[1] === id)!;
    expect(line.split(',').at(-2)).toBe(shopifyOrder.name);
    expect(line.split(',').at(-1)).toBe(''); // no dollar reference

    // Webhooks lost: the poll of the draft order brings the name.
    const lost = await paidOrder();
    await h.payments!.handoff.runDue();
    const { order: lostOrder } = h.emulator.completeDraftOrder((await orderRow(lost.id)).shopify_draft_order_id);
    await h.emulator.webhooksIdle();
    await db()('orders')
      .where({ id: lost.id })
      .update({ status: 'paid', needs_shipping: true, shopify_order_id: null, shopify_order_name: null, confirmed_at: null });
    expect(await h.payments!.handoff.reconcile(1000)).toBeGreaterThanOrEqual(1);
    expect(await orderRow(lost.id)).toMatchObject({ status: 'confirmed', shopify_order_name: lostOrder.name });
    expect(inList((await list(`?q=${lost.id}`)).orders, lost.id)!.shopifyOrderName).toBe(lostOrder.name);
  });

  it('answers nothing to a stranger without the admin session, nor to another site', async () => {
    const id = made.plain!;
    const stranger = new Shopper(h);
    for (const res of [
      await stranger.request('/api/admin/orders'),
      await stranger.request(`/api/admin/orders/${id}`),
      await stranger.post(`/api/admin/orders/${id}/retry-handoff`, {}),
    ]) {
      expect(res.status).toBe(401);
      const body = await res.text();
      expect(JSON.parse(body).code).toBe(ErrorCode.adminSessionRequired);
      expect(body).not.toContain(id);
    }
    for (const res of [
      await asAdmin('/api/admin/orders', { headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } }),
      await asAdmin(`/api/admin/orders/${id}`, { headers: { 'sec-fetch-site': 'cross-site' } }),
      await retry(id, { origin: 'https://evil.example' }),
    ]) {
      expect(res.status).toBe(403);
      const body = await res.text();
      expect(JSON.parse(body).code).toBe(ErrorCode.crossSiteRequest);
      expect(body).not.toContain(id);
    }
    expect((await asAdmin('/api/admin/orders')).headers.get('cache-control')).toBe('no-store');
  });
});
