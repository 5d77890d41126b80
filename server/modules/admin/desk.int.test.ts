/**
 * The admin's payments desk on a real chain (anvil) and each database: problem
 * transfers made through the real payment flow appear in the queue with their kind and amounts,
 * resolving one is recorded (and audited) once, the export lists the paid orders of a date range,
 * and nobody without the admin session (or from another site) gets anything.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAddress } from 'ethers';
import { auditPageSchema } from '../../../common/admin';
import type { Variant } from '../../../common/api';
import { ErrorCode } from '../../../common/errors';
import { formatUnits } from '../../../common/money';
import {
  adminOrderDetailSchema,
  attentionItemSchema,
  attentionPageSchema,
  PAYMENTS_EXPORT_COLUMNS,
  type AttentionItem,
} from '../../../common/payments-desk';
import { DEV_ACCOUNTS } from '../../chain/local-chain';
import { testDatabaseKinds } from '../../test/databases';
import type { Harness } from '../../test/harness';
import { startPayingShop, type PayingKit } from '../../test/paying';
import { Shopper } from '../../test/shopper';
import { useTestChain } from '../../test/use-test-chain';

const STRANGER_WALLET = DEV_ACCOUNTS[1]!;
const SHORT_PAYER = DEV_ACCOUNTS[2]!;
const GENEROUS_PAYER = DEV_ACCOUNTS[3]!;
const testChain = useTestChain();

describe.each(testDatabaseKinds)('payments desk on %s', (kind) => {
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
  const queue = async (query = '') => {
    const res = await asAdmin(`/api/admin/payments/attention${query}`);
    expect(res.status, await res.clone().text()).toBe(200);
    return attentionPageSchema.parse(await res.json());
  };
  const resolve = (transferId: string, note: unknown, headers: Record<string, string> = {}) =>
    asAdmin(`/api/admin/payments/${transferId}/resolve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ note }),
    });
  const itemOf = (items: AttentionItem[], txHash: string) => items.find((i) => i.txHash === txHash.toLowerCase());
  const totalOf = async (checkoutId: string) => BigInt((await db()('checkout_intents').where({ id: checkoutId }).first()).total_wei);
  const today = () => new Date().toISOString().slice(0, 10);
  const dayOffset = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

  /** Hashes of the transfers made in the first test, for the later ones. */
  const made: { unmatched?: string; underpaid?: string; overpaid?: string; plain?: string } = {};

  it('shows an unmatched, an underpaid and an overpaid transfer, each with its kind and amounts; a plain payment is not there', async () => {
    const before = (await queue()).unresolved!;

    // Unmatched: no checkout has this amount and nobody proved the sender.
    const odd = 123_456_789_000_000_000n;
    made.unmatched = await pay.send(STRANGER_WALLET, { value: odd });

    // Underpaid: a signed-in wallet sends half of its checkout (its sender identifies the checkout).
    const short = new Shopper(h);
    await short.signIn(testChain.provider, SHORT_PAYER);
    const owing = await pay.checkout(short, unlimited.id, SHORT_PAYER, 2);
    const half = BigInt(owing.amountWei) / 2n;
    made.underpaid = await pay.send(SHORT_PAYER, { value: half });

    // Overpaid: a signed-in wallet sends its checkout's amount and one POG more.
    const generous = new Shopper(h);
    await generous.signIn(testChain.provider, GENEROUS_PAYER);
    const over = await pay.checkout(generous, unlimited.id, GENEROUS_PAYER, 1);
    const overValue = BigInt(over.amountWei) + 10n ** 18n;
    made.overpaid = await pay.send(GENEROUS_PAYER, { value: overValue });

    // A plain payment of the exact amount: an order nobody needs to look at.
    const plain = new Shopper(h);
    const exact = await pay.checkout(plain, unlimited.id, null, 1);
    made.plain = await pay.send(STRANGER_WALLET, { value: BigInt(exact.amountWei) });

    await h.payments!.watcher.tick();
    expect(await pay.transferRow(made.underpaid)).toMatchObject({ status: 'underpaid' });
    const [overOrder] = await pay.ordersFor(made.overpaid);
    expect(overOrder).toMatchObject({ overpaid: true });
    const [plainOrder] = await pay.ordersFor(made.plain);
    expect(plainOrder).toMatchObject({ overpaid: false, late: false });

    const page = await queue();
    expect(page.unresolved).toBe(before + 3);
    expect(itemOf(page.items, made.plain)).toBeUndefined();
    const head = await testChain.provider.getBlockNumber();

    const u = itemOf(page.items, made.unmatched)!;
    const unmatchedRow = (await pay.transferRow(made.unmatched))!;
    expect(u).toEqual({
      transferId: String(unmatchedRow.id),
      kind: 'unmatched',
      sender: STRANGER_WALLET.toLowerCase(),
      paidWith: { coin: 'POGS', amountIn: null, payer: STRANGER_WALLET.toLowerCase() },
      amount: formatUnits(odd, 18, 2),
      amountWei: odd.toString(),
      txHash: made.unmatched.toLowerCase(),
      logIndex: unmatchedRow.log_index,
      blockNumber: Number(unmatchedRow.block_number),
      at: new Date(unmatchedRow.created_at as string).toISOString(),
      confirmations: head - Number(unmatchedRow.block_number) + 1,
      explorerUrl: null, // the local demo chain: no explorer knows it
      orderId: null,
      due: null,
      excess: null,
      note: expect.stringContaining('no payable checkout'),
      resolved: null,
      refundable: formatUnits(odd, 18, 2),
      refundableWei: odd.toString(),
      refunds: [],
      refundTo: getAddress(STRANGER_WALLET),
    });
    expect(u.amount).toBe('0.123456789');

    expect(itemOf(page.items, made.underpaid)).toMatchObject({
      kind: 'underpaid',
      sender: SHORT_PAYER.toLowerCase(),
      amountWei: half.toString(),
      amount: formatUnits(half, 18, 2),
      orderId: null,
      due: formatUnits((await totalOf(owing.id)) - half, 18, 2),
      excess: null,
    });

    expect(itemOf(page.items, made.overpaid)).toMatchObject({
      kind: 'overpaid',
      sender: GENEROUS_PAYER.toLowerCase(),
      amountWei: overValue.toString(),
      orderId: overOrder!.id,
      due: null,
      excess: formatUnits(overValue - (await totalOf(over.id)), 18, 2),
      note: expect.stringContaining('overpaid by'),
    });

    // Newest first; a filter by kind shows only that kind.
    const ids = page.items.map((i) => Number(i.transferId));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const onlyUnderpaid = await queue('?kind=underpaid');
    expect(onlyUnderpaid.items.map((i) => i.kind)).toEqual(onlyUnderpaid.items.map(() => 'underpaid'));
    expect(itemOf(onlyUnderpaid.items, made.underpaid)).toBeDefined();
    expect(onlyUnderpaid.unresolved).toBe(page.unresolved);
    expect((await asAdmin('/api/admin/payments/attention?kind=lost')).status).toBe(400);
    expect((await asAdmin('/api/admin/payments/attention?resolved=maybe')).status).toBe(400);
  });

  it('resolves an item with a note once: a repeat answers the same and is not audited again; it moves to the history', async () => {
    const item = itemOf((await queue()).items, made.unmatched!)!;
    const [first, second] = await Promise.all([
      resolve(item.transferId, '  refunded off-shop  '),
      resolve(item.transferId, 'a different note'),
    ]);
    const third = await resolve(item.transferId, 'refunded off-shop');
    const answers = await Promise.all([first, second, third].map(async (r) => ({ status: r.status, body: await r.json() })));
    for (const a of answers) expect(a.status).toBe(200);
    const resolved = attentionItemSchema.parse(answers[0]!.body);
    expect(answers.map((a) => a.body)).toEqual([resolved, resolved, resolved]);
    expect(resolved.resolved?.note).toMatch(/^(refunded off-shop|a different note)$/);
    expect(resolved).toMatchObject({ ...item, resolved: { at: expect.any(String), note: resolved.resolved!.note } });

    const audit = auditPageSchema.parse(await (await asAdmin('/api/admin/audit?limit=200')).json()).entries;
    expect(audit.filter((e) => e.action === 'payment-resolved' && e.target === item.transferId)).toHaveLength(1);

    const open = await queue();
    expect(itemOf(open.items, made.unmatched!)).toBeUndefined();
    expect(itemOf((await queue('?resolved=true')).items, made.unmatched!)).toEqual(resolved);
    expect(itemOf((await queue('?resolved=true&kind=unmatched')).items, made.unmatched!)).toEqual(resolved);

    // Bad notes and unknown items are refused, and change nothing.
    expect((await resolve(item.transferId, '   ')).status).toBe(400);
    expect((await resolve(itemOf(open.items, made.underpaid!)!.transferId, 'x'.repeat(501))).status).toBe(400);
    const plainId = String((await pay.transferRow(made.plain!))!.id);
    for (const id of [plainId, '999999', 'abc']) {
      const res = await resolve(id, 'nothing to resolve');
      expect({ status: res.status, code: (await res.json()).code }).toEqual({ status: 404, code: ErrorCode.attentionItemNotFound });
    }
    expect((await queue()).unresolved).toBe(open.unresolved);
  });

  it('exports the orders paid in a date range as CSV, streamed, and nothing outside it', async () => {
    const [overOrder] = await pay.ordersFor(made.overpaid!);
    const [plainOrder] = await pay.ordersFor(made.plain!);
    // Another order, paid long ago: outside today's range.
    const old = new Shopper(h);
    const c = await pay.checkout(old, unlimited.id, null, 1);
    const oldHash = await pay.send(STRANGER_WALLET, { value: BigInt(c.amountWei) });
    await h.payments!.watcher.tick();
    const [oldOrder] = await pay.ordersFor(oldHash);
    await db()('orders')
      .where({ id: oldOrder!.id })
      .update({ paid_at: new Date('2025-03-01T12:00:00Z') });

    const res = await asAdmin(`/api/admin/payments/export.csv?from=${dayOffset(-1)}&to=${dayOffset(1)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="payments-${dayOffset(-1)}-to-${dayOffset(1)}.csv"`);
    const text = await res.text();
    expect(text.endsWith('\r\n')).toBe(true);
    const [header, ...rows] = text.slice(0, -2).split('\r\n');
    expect(header).toBe(PAYMENTS_EXPORT_COLUMNS.join(','));
    const byOrder = new Map(rows.map((r) => [r.split(',')[1], r.split(',')]));
    for (const order of [overOrder!, plainOrder!]) {
      expect(byOrder.get(order.id as string)).toEqual([
        new Date(order.paid_at as string).toISOString(),
        order.id,
        order.status,
        order.tx_hash,
        order.customer_wallet,
        formatUnits(BigInt(order.amount_paid_wei as string), 18, 2),
        '0.00',
        '',
        '', // no dollar reference on this chain
      ]);
    }
    expect(byOrder.has(oldOrder!.id as string)).toBe(false);
    expect(rows.map((r) => r.split(',')[0]).every((d) => d!.slice(0, 10) >= dayOffset(-1) && d!.slice(0, 10) <= dayOffset(1))).toBe(true);

    const past = await (await asAdmin('/api/admin/payments/export.csv?from=2025-03-01&to=2025-03-01')).text();
    expect(
      past
        .split('\r\n')
        .filter(Boolean)
        .map((r) => r.split(',')[1]),
    ).toEqual(['order_id', oldOrder!.id]);

    for (const query of [
      '',
      `?from=${today()}`,
      `?from=${dayOffset(1)}&to=${today()}`,
      '?from=2025-01-01&to=2026-01-02',
      '?from=2025-02-30&to=2025-03-01',
      '?from=yesterday&to=today',
    ]) {
      expect((await asAdmin(`/api/admin/payments/export.csv${query}`)).status, query).toBe(400);
    }
    expect((await asAdmin('/api/admin/payments/export.csv?from=2025-01-01&to=2026-01-01')).status).toBe(200);
  });

  it('keeps an extra payment (a further payment to a paid checkout) for a refund: its shopper is told, the desk, the order and the export name it', async () => {
    const s = new Shopper(h);
    const c = await pay.checkout(s, unlimited.id, null, 1);
    const first = await pay.send(STRANGER_WALLET, { value: BigInt(c.amountWei) });
    await h.payments!.watcher.tick();
    const [order] = await pay.ordersFor(first);
    expect(order).toMatchObject({ intent_id: c.id, overpaid: false });

    // The same exact amount again: its checkout is already paid.
    const extra = BigInt(c.amountWei);
    const again = await pay.send(STRANGER_WALLET, { value: extra });
    await pay.mine(2);
    const answer = await pay.createOrder(s, { checkoutId: c.id, transactionHash: again });
    expect({ status: answer.status, code: answer.body.code }).toEqual({ status: 409, code: ErrorCode.checkoutClosed });
    const row = (await pay.transferRow(again))!;
    expect(row).toMatchObject({ status: 'extra-payment', intent_id: c.id, order_id: null });

    expect(itemOf((await queue('?kind=overpaid')).items, again)).toMatchObject({
      transferId: String(row.id),
      kind: 'overpaid',
      orderId: order!.id,
      excess: formatUnits(extra, 18, 2),
      refundableWei: extra.toString(),
      note: 'a further payment for an already paid checkout (refund it)',
    });

    const detail = adminOrderDetailSchema.parse(await (await asAdmin(`/api/admin/orders/${order!.id}`)).json());
    expect(detail.transfers.map((t) => [t.txHash, t.use])).toEqual([
      [first.toLowerCase(), 'paid'],
      [again.toLowerCase(), 'extra-payment'],
    ]);

    const csv = await (await asAdmin(`/api/admin/payments/export.csv?from=${dayOffset(-1)}&to=${dayOffset(1)}`)).text();
    const exported = csv.split('\r\n').map((r) => r.split(','));
    expect(exported.find((r) => r[3] === again.toLowerCase())?.slice(1, 3)).toEqual([order!.id, 'extra-payment']);
  });

  it('answers nothing to a stranger without the admin session, nor to another site', async () => {
    const underpaid = itemOf((await queue()).items, made.underpaid!)!;
    const stranger = new Shopper(h);
    const asStranger = [
      await stranger.request('/api/admin/payments/attention'),
      await stranger.request('/api/admin/payments/attention?resolved=true'),
      await stranger.request(`/api/admin/payments/export.csv?from=${today()}&to=${today()}`),
      await stranger.post(`/api/admin/payments/${underpaid.transferId}/resolve`, { note: 'mine now' }),
    ];
    for (const res of asStranger) {
      expect(res.status).toBe(401);
      const body = await res.text();
      expect(JSON.parse(body).code).toBe(ErrorCode.adminSessionRequired);
      expect(body).not.toContain(underpaid.txHash);
    }

    const crossSite = [
      await asAdmin('/api/admin/payments/attention', { headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } }),
      await asAdmin(`/api/admin/payments/export.csv?from=${today()}&to=${today()}`, { headers: { 'sec-fetch-site': 'cross-site' } }),
      await resolve(underpaid.transferId, 'mine now', { origin: 'https://evil.example' }),
    ];
    for (const res of crossSite) {
      expect(res.status).toBe(403);
      expect((await res.json()).code).toBe(ErrorCode.crossSiteRequest);
    }
    expect(itemOf((await queue()).items, made.underpaid!)).toEqual({ ...underpaid, confirmations: expect.any(Number) });
    expect(await db()('payment_desk_resolutions').where({ transfer_id: Number(underpaid.transferId) })).toHaveLength(0);
  });
});
