/**
 * The admin's desks and a shopper's orders at volume, on each database, over HTTP: 6,000 paid
 * orders and 200 transfers that need a person written straight into the database
 * (server/test/desk-volume.ts). The payments desk pages, filters and counts in SQL exactly as the
 * one rule of payments' desk-kinds.ts says (checked against its JavaScript; the rule's SQL is
 * checked against the same for every combination of facts in desk-kinds.int.test.ts); the orders view's prefix search finds what a plain reading finds;
 * the export lists every row once across its batches, ties included, with formulas neutralised; a
 * shopper's orders come a page at a time, the orders that need them first; and nobody without the
 * admin session (or signed in as another wallet) gets any of it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { orderSchema } from '../../../common/api';
import { ErrorCode } from '../../../common/errors';
import { parseUnits } from '../../../common/money';
import { ORDER_SECTIONS, orderSection, ORDERS_PAGE_SIZE } from '../../../common/order-listing';
import {
  adminOrdersPageSchema,
  ATTENTION_PAGE_SIZE,
  attentionKindSchema,
  attentionPageSchema,
  type AttentionItem,
  type AttentionKind,
  type AttentionPage,
} from '../../../common/payments-desk';
import { DEV_ACCOUNTS } from '../../chain/local-chain';
import { testDatabaseKinds } from '../../test/databases';
import { resolveSome, SEEDED_FROM, SEEDED_TO, seedDeskVolume } from '../../test/desk-volume';
import { adminSession, startHarness, type Harness } from '../../test/harness';
import { parseCsv } from '../../test/csv';
import { Shopper } from '../../test/shopper';
import { useTestChain } from '../../test/use-test-chain';
import { attentionKindOf } from '../payments';

const ORDERS = 6000;
const FLAGGED = 200;
const REGULAR = DEV_ACCOUNTS[2]!.toLowerCase();
const OTHER = DEV_ACCOUNTS[3]!.toLowerCase();
const testChain = useTestChain();

interface Fact {
  id: number;
  status: string;
  status_before_refund: string | null;
  order_reorged: boolean | null;
  paying: boolean | null;
  on_hold: boolean | null;
  overpaid: boolean | null;
  late: boolean | null;
  resolved: boolean;
}

describe.each(testDatabaseKinds)('the desks at volume on %s', (kind) => {
  let h: Harness;
  let admin: string;

  beforeAll(async () => {
    h = await startHarness(kind, { chain: testChain.chain });
    await seedDeskVolume(db(), { orders: ORDERS, flagged: FLAGGED, regularShopper: REGULAR });
    admin = await adminSession(h);
  }, 180_000);
  afterAll(async () => {
    await h?.close();
  });

  const db = () => h.database.db;
  const asAdmin = (path: string) => h.api(path, { headers: { cookie: admin } });
  const page = async (query: string): Promise<AttentionPage> => {
    const res = await asAdmin(`/api/admin/payments/attention${query}`);
    expect(res.status, await res.clone().text()).toBe(200);
    return attentionPageSchema.parse(await res.json());
  };
  /** Every page of a tab, following nextBefore. */
  const allPages = async (query: URLSearchParams) => {
    const pages: AttentionPage[] = [];
    let before: string | null = null;
    do {
      const q = new URLSearchParams(query);
      if (before) q.set('before', before);
      const p = await page(`?${q.toString()}`);
      expect(p.items.length).toBeLessThanOrEqual(ATTENTION_PAGE_SIZE);
      pages.push(p);
      before = p.nextBefore;
    } while (before);
    return pages;
  };
  /** Every transfer with the facts that decide its kind, newest first, read plainly: what the desk must show. */
  const facts = async () => {
    const rows: Fact[] = await db()
      .from('chain_transfers as ct')
      .leftJoin('orders as o', 'o.intent_id', 'ct.intent_id')
      .leftJoin('payment_desk_resolutions as r', 'r.transfer_id', 'ct.id')
      .orderBy([
        { column: 'ct.created_at', order: 'desc' },
        { column: 'ct.id', order: 'desc' },
      ])
      .select(
        'ct.id',
        'ct.status',
        'ct.status_before_refund',
        db().raw("o.status_reason = 'payment-reorged' as order_reorged"),
        db().raw('(o.tx_hash = ct.tx_hash and o.log_index = ct.log_index) as paying'),
        db().raw('o.hold_reason is not null as on_hold'),
        'o.overpaid',
        'o.late',
        db().raw('r.transfer_id is not null as resolved'),
      );
    return rows.map((r) => ({
      id: String(r.id),
      resolved: r.resolved,
      kind: attentionKindOf({
        status: r.status,
        statusBeforeRefund: r.status_before_refund,
        orderReorged: Boolean(r.order_reorged),
        paying: Boolean(r.paying),
        onHold: Boolean(r.on_hold),
        overpaid: Boolean(r.overpaid),
        late: Boolean(r.late),
      }),
    }));
  };
  const countsOf = (rows: Array<{ kind: AttentionKind | null }>) =>
    Object.fromEntries(attentionKindSchema.options.map((k) => [k, rows.filter((r) => r.kind === k).length]));

  it('pages the open items newest first, each once, with the kinds and counts the rule gives; the empty history has none', async () => {
    const expected = (await facts()).filter((f) => f.kind !== null && !f.resolved);
    expect(expected).toHaveLength(FLAGGED);
    const pages = await allPages(new URLSearchParams());
    expect(pages.length).toBe(Math.ceil(FLAGGED / ATTENTION_PAGE_SIZE));
    const items = pages.flatMap((p) => p.items);
    expect(items.map((i) => [i.transferId, i.kind])).toEqual(expected.map((f) => [f.id, f.kind]));
    for (const p of pages) {
      expect(p.counts).toEqual(countsOf(expected));
      expect(p.unresolved).toBe(FLAGGED);
    }
    // The seeded overlaps keep their precedence: overpaid before late, on hold before both.
    expect(countsOf(expected)).toMatchObject({ late: 20, 'out-of-stock': 5 });
    const both: Array<{ id: number }> = await db()('orders as o')
      .join('chain_transfers as ct', 'ct.order_id', 'o.id')
      .where({ 'o.overpaid': true, 'o.late': true })
      .select('ct.id');
    expect(both.length).toBeGreaterThan(0);
    for (const { id } of both) expect(items.find((i) => i.transferId === String(id))?.kind).toBe('overpaid');

    const history = await page('?resolved=true');
    expect(history).toEqual({ items: [], nextBefore: null, counts: countsOf([]), unresolved: null });
  });

  it('pages one kind at a time, each of its pages that kind only, as many as its count', async () => {
    const open = await page('');
    for (const k of attentionKindSchema.options) {
      const pages = await allPages(new URLSearchParams({ kind: k }));
      const items = pages.flatMap((p) => p.items);
      expect(
        items.every((i) => i.kind === k),
        k,
      ).toBe(true);
      expect(new Set(items.map((i) => i.transferId)).size, k).toBe(open.counts[k]);
      // The counts are the tab's, whatever kind is shown.
      expect(pages[0]!.counts).toEqual(open.counts);
    }
  });

  it('moves resolved items to the history, which pages and counts them the same way', async () => {
    const open = (await facts()).filter((f) => f.kind !== null && !f.resolved);
    const resolved = await resolveSome(
      db(),
      open.map((f) => Number(f.id)),
      3,
    );
    const after = await facts();
    const expectedOpen = after.filter((f) => f.kind !== null && !f.resolved);
    const expectedHistory = after.filter((f) => f.kind !== null && f.resolved);
    expect(expectedHistory).toHaveLength(resolved);

    const openPages = await allPages(new URLSearchParams());
    expect(openPages.flatMap((p) => p.items.map((i) => i.transferId))).toEqual(expectedOpen.map((f) => f.id));
    expect(openPages[0]!.unresolved).toBe(FLAGGED - resolved);
    expect(openPages[0]!.counts).toEqual(countsOf(expectedOpen));

    const historyPages = await allPages(new URLSearchParams({ resolved: 'true' }));
    const history: AttentionItem[] = historyPages.flatMap((p) => p.items);
    expect(history.map((i) => i.transferId)).toEqual(expectedHistory.map((f) => f.id));
    expect(history.every((i) => i.resolved?.note === 'dealt with')).toBe(true);
    expect(historyPages[0]!.counts).toEqual(countsOf(expectedHistory));
    expect(historyPages[0]!.unresolved).toBeNull();
  });

  it('refuses a cursor that is not one it gave', async () => {
    for (const before of ['999999999', '0', 'abc', '1.5', '-1', '99999999999']) {
      const res = await asAdmin(`/api/admin/payments/attention?before=${before}`);
      expect({ status: res.status, code: (await res.json()).code }, before).toEqual({ status: 400, code: ErrorCode.badRequest });
    }
  });

  it('finds orders by a prefix of their id, payer or tx hash as a plain reading does, rare terms and common ones', async () => {
    const all: Array<{ id: string; customer_wallet: string; tx_hash: string }> = await db()('orders').orderBy([
      { column: 'paid_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);
    const sample = all[1234]!;
    const terms = [
      sample.id, // one order
      sample.id.slice(0, 6).toLowerCase(), // a few, case-insensitive
      sample.customer_wallet.slice(0, 12).toUpperCase(), // one payer's orders
      REGULAR.slice(0, 20), // the regular shopper's
      sample.tx_hash.slice(0, 9), // one order
      '0x', // every order: a common term
      'pg', // every order again
      'zzzz9', // none
    ];
    for (const term of terms) {
      const t = term.toLowerCase();
      const expected = all.filter((o) => [o.id, o.customer_wallet, o.tx_hash].some((v) => v.toLowerCase().startsWith(t))).map((o) => o.id);
      const found: string[] = [];
      let before: string | null = null;
      // At most three pages of a common term.
      for (let i = 0; i < 3; i++) {
        const res = await asAdmin(`/api/admin/orders?q=${term}${before ? `&before=${before}` : ''}`);
        expect(res.status, term).toBe(200);
        const p = adminOrdersPageSchema.parse(await res.json());
        found.push(...p.orders.map((o) => o.id));
        before = p.nextBefore;
        if (!before) break;
      }
      expect(found, term).toEqual(expected.slice(0, found.length));
      expect(found.length, term).toBe(Math.min(expected.length, 150));
    }
    // A status with a term: both apply.
    const paidRes = await asAdmin(`/api/admin/orders?status=paid&q=${REGULAR.slice(0, 20)}`);
    const paid = adminOrdersPageSchema.parse(await paidRes.json()).orders;
    expect(paid.every((o) => o.status === 'paid' && o.payer === REGULAR)).toBe(true);
  });

  it('exports the whole year once, oldest first, across its batches and a tie at a batch boundary, formulas neutralised', async () => {
    // Orders and transfers at one instant, around the first batch's end (1,000 rows).
    const tie = '2026-02-27T12:00:00.123456Z';
    await db()('orders')
      .whereIn(
        'id',
        db()('orders')
          .orderBy([{ column: 'paid_at' }, { column: 'id' }])
          .offset(940)
          .limit(80)
          .select('id'),
      )
      .update({ paid_at: tie });
    await db().raw(
      `update chain_transfers set created_at = ? where id in (select id from chain_transfers where status in ('unmatched', 'underpaid') order by id limit 3)`,
      [tie],
    );
    const formulas = [' =1+1', '\t@SUM(A1)', '-2'];
    const named: Array<{ id: string }> = await db()('orders').orderBy('id').limit(formulas.length).select('id');
    for (const [i, { id }] of named.entries()) await db()('orders').where({ id }).update({ shopify_order_name: formulas[i] });

    const res = await asAdmin(`/api/admin/payments/export.csv?from=${SEEDED_FROM}&to=${SEEDED_TO}`);
    expect(res.status).toBe(200);
    const text = await res.text();
    const lines = text.slice(0, -2).split('\r\n');
    const rows = lines.slice(1).map((l) => l.split(','));
    const orderRows = rows.filter((r) => !['unmatched', 'underpaid', 'extra-payment', 'refunded'].includes(r[2]!));
    const transferRows = rows.filter((r) => ['unmatched', 'underpaid', 'extra-payment', 'refunded'].includes(r[2]!));
    // Every order once; every transfer that made no order once (a removed one carried no money).
    expect(orderRows.map((r) => r[1]).sort()).toEqual(
      ((await db()('orders').select('id')) as Array<{ id: string }>).map((o) => o.id).sort(),
    );
    const loose: Array<{ tx_hash: string; status: string }> = await db()('chain_transfers')
      .whereNull('order_id')
      .whereIn('status', ['unmatched', 'underpaid', 'extra-payment', 'refunded']);
    expect(transferRows.map((r) => r[3]).sort()).toEqual(loose.map((t) => t.tx_hash).sort());
    expect(new Set(rows.map((r) => `${r[1]}|${r[3]}`)).size).toBe(rows.length);
    // Oldest first; at one instant orders before transfers, orders by id.
    for (let i = 1; i < rows.length; i++) {
      const [a, b] = [rows[i - 1]!, rows[i]!];
      expect(a[0]! <= b[0]!, `${a.join(',')} / ${b.join(',')}`).toBe(true);
    }
    const tied = rows.filter((r) => r[0] === '2026-02-27T12:00:00.123Z');
    expect(tied).toHaveLength(83);
    const tiedOrders = tied.slice(0, 80).map((r) => r[1]!);
    expect(tiedOrders).toEqual([...tiedOrders].sort());
    expect(tied.slice(80).every((r) => ['unmatched', 'underpaid'].includes(r[2]!))).toBe(true);
    // What went back is on the refunded transfers' rows.
    for (const r of transferRows.filter((t) => t[2] === 'refunded')) expect(r[6], r[3]).toBe(r[5]);
    // A Shopify order name a spreadsheet would run is text.
    expect(lines.filter((l) => named.some(({ id }) => l.includes(id))).map((l) => l.split(',').slice(7, 8).join(','))).toEqual(
      expect.arrayContaining([`' =1+1`, `'\t@SUM(A1)`, `'-2`]),
    );
  });

  it('writes the books of the whole year once, oldest first, across their batches and a tie at a batch boundary', async () => {
    // Transfers and a refund at one instant, around Koinly's first batch's end (1,000 transfers).
    const tie = '2026-03-03T12:00:00.123456Z';
    await db().raw(
      `update chain_transfers set created_at = ? where id in (select id from chain_transfers order by created_at, id offset 970 limit 60)`,
      [tie],
    );
    await db().raw(`update refunds set created_at = ? where id = (select min(id) from refunds)`, [tie]);
    const csvRows = async (file: string) => {
      const res = await asAdmin(`/api/admin/books/${file}.csv?from=${SEEDED_FROM}&to=${SEEDED_TO}`);
      expect(res.status).toBe(200);
      // Parsed as CSV: a description can hold a comma ("…, which a chain reorganisation failed").
      return parseCsv(await res.text()).slice(1);
    };

    const koinly = await csvRows('koinly');
    const received = koinly.filter((r) => r[3] !== '');
    const sent = koinly.filter((r) => r[1] !== '');
    // Every transfer still on chain once, every refund once (a removed one carried no money).
    const transfers: Array<{ tx_hash: string }> = await db()('chain_transfers').whereNot('status', 'removed').select('tx_hash');
    expect(received.map((r) => r[11]).sort()).toEqual(transfers.map((t) => t.tx_hash).sort());
    const refunds: Array<{ tx_hash: string }> = await db()('refunds').select('tx_hash');
    expect(sent.map((r) => r[11]).sort()).toEqual(refunds.map((t) => t.tx_hash).sort());
    expect(received.length + sent.length).toBe(koinly.length);
    // Oldest first; at one instant what came in before what went out.
    for (let i = 1; i < koinly.length; i++) expect(koinly[i - 1]![0]! <= koinly[i]![0]!, String(i)).toBe(true);
    const tied = koinly.filter((r) => r[0] === '2026-03-03 12:00:00 UTC');
    const inSecond = async (q: ReturnType<Harness['database']['db']>) =>
      Number(
        (await q
          .where('created_at', '>=', '2026-03-03T12:00:00Z')
          .where('created_at', '<', '2026-03-03T12:00:01Z')
          .count({ n: '*' })
          .first())!.n,
      );
    const [ins, outs] = [await inSecond(db()('chain_transfers').whereNot('status', 'removed')), await inSecond(db()('refunds'))];
    expect(ins).toBeGreaterThanOrEqual(50);
    expect(outs).toBeGreaterThanOrEqual(1);
    expect(tied.map((r) => (r[3] ? 'in' : 'out'))).toEqual([...Array<string>(ins).fill('in'), ...Array<string>(outs).fill('out')]);

    const ledger = await csvRows('ledger');
    const orders: Array<{ id: string }> = await db()('orders')
      .orderBy([{ column: 'paid_at' }, { column: 'id' }])
      .select('id');
    expect(ledger.map((r) => r[0])).toEqual(orders.map((o) => o.id));
    // What went back against the orders, in all, is what the refunds against orders carried.
    const back = await db()('refunds').whereNotNull('order_id').sum({ n: 'amount_wei' }).first();
    const refunded = ledger.reduce((sum, r) => sum + parseUnits(r[9]!), 0n);
    expect(refunded).toBe(BigInt(String(back!.n ?? 0).split('.')[0]!));
  });

  it("pages a shopper's orders, those that need them first, newest first in each section, each once", async () => {
    // Some of the regular shopper's older orders still need their shipping details, or wait for shipment.
    const mine: Array<{ id: string }> = await db()('orders').where({ customer_wallet: REGULAR }).orderBy('paid_at').select('id');
    expect(mine.length).toBe(ORDERS / 200);
    await db()('orders').whereIn('id', [mine[0]!.id, mine[3]!.id]).update({ status: 'paid', needs_shipping: true, hold_reason: null });
    await db()('orders').whereIn('id', [mine[1]!.id]).update({ status: 'confirmed', needs_shipping: false });
    await db()('orders').whereIn('id', [mine[2]!.id]).update({ status: 'failed' });

    const s = new Shopper(h);
    await s.signIn(testChain.provider, DEV_ACCOUNTS[2]!);
    const first = await s.request(`/api/orders?wallet=${REGULAR}`);
    expect(first.status).toBe(200);
    const firstPage = z.array(orderSchema).parse(await first.json());
    expect(firstPage).toHaveLength(ORDERS_PAGE_SIZE);
    const link = first.headers.get('link')!;
    expect(link).toBe(`</api/orders?wallet=${REGULAR}&after=${firstPage.at(-1)!.id}>; rel="next"`);
    const second = await s.request(link.slice(1, link.indexOf('>')));
    expect(second.status).toBe(200);
    expect(second.headers.get('link')).toBeNull();
    const listed = [...firstPage, ...z.array(orderSchema).parse(await second.json())];

    const rank = (o: { status: Parameters<typeof orderSection>[0]['status']; needsShipping: boolean }) =>
      ORDER_SECTIONS.findIndex((x) => x.id === orderSection(o));
    expect(listed.map((o) => o.id)).toEqual(
      [...listed]
        .sort((a, b) => rank(a) - rank(b) || b.processed_at.localeCompare(a.processed_at) || b.id.localeCompare(a.id))
        .map((o) => o.id),
    );
    expect(listed.slice(0, 2).map((o) => o.id)).toEqual([mine[3]!.id, mine[0]!.id]);
    expect(listed[2]!.id).toBe(mine[1]!.id);
    expect(new Set(listed.map((o) => o.id)).size).toBe(mine.length - 1); // the failed one is not listed

    // A cursor that is not one of this wallet's listed orders is refused.
    const strangers: Array<{ id: string }> = await db()('orders').whereNot({ customer_wallet: REGULAR }).limit(1).select('id');
    for (const after of [strangers[0]!.id, mine[2]!.id, 'PG0000000000', 'nope', '']) {
      const res = await s.request(`/api/orders?wallet=${REGULAR}&after=${after}`);
      expect({ status: res.status, code: (await res.json()).code }, after).toEqual({ status: 400, code: ErrorCode.badRequest });
    }
    expect((await s.request(`/api/orders?wallet=${REGULAR}&after=${mine[0]!.id}&after=${mine[1]!.id}`)).status).toBe(400);
  });

  it('answers nothing to a stranger: no admin session, another site, or signed in as another wallet', async () => {
    const open = await page('');
    const stranger = new Shopper(h);
    for (const path of [
      `/api/admin/payments/attention?before=${open.nextBefore}`,
      '/api/admin/payments/attention?resolved=true&kind=late',
      `/api/admin/orders?q=${REGULAR.slice(0, 12)}`,
      `/api/admin/payments/export.csv?from=${SEEDED_FROM}&to=${SEEDED_TO}`,
    ]) {
      const res = await stranger.request(path);
      const body = await res.text();
      expect(res.status, path).toBe(401);
      expect(JSON.parse(body).code).toBe(ErrorCode.adminSessionRequired);
      expect(body).not.toContain(open.items[0]!.txHash);
      const crossSite = await h.api(path, { headers: { cookie: admin, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } });
      expect(crossSite.status, path).toBe(403);
    }
    // The shopper's orders: not without signing in as that wallet.
    const [mine] = (await db()('orders').where({ customer_wallet: REGULAR }).orderBy('id').limit(1).select('id')) as Array<{ id: string }>;
    const anonymous = await stranger.request(`/api/orders?wallet=${REGULAR}&after=${mine!.id}`);
    expect({ status: anonymous.status, code: (await anonymous.json()).code }).toEqual({ status: 401, code: ErrorCode.signInRequired });
    const other = new Shopper(h);
    await other.signIn(testChain.provider, DEV_ACCOUNTS[3]!);
    const mismatch = await other.request(`/api/orders?wallet=${REGULAR}&after=${mine!.id}`);
    expect({ status: mismatch.status, code: (await mismatch.json()).code }).toEqual({ status: 403, code: ErrorCode.walletMismatch });
    // Their own wallet with the regular shopper's order as a cursor learns nothing of it either.
    const theirs = await other.request(`/api/orders?wallet=${OTHER}&after=${mine!.id}`);
    const theirsBody = await theirs.text();
    expect(theirs.status).toBe(400);
    expect(theirsBody).not.toContain(REGULAR);
  });
});
