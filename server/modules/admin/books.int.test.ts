/**
 * The books (docs/books.md) on a real chain (anvil) and each database: orders paid, an unmatched
 * transfer and refunds made through the real payment and refund flows, then both files read over
 * HTTP and checked column by column: Koinly's universal file (a row per transfer in, a row per
 * refund out) and the order ledger (a row per order paid). The range's edges are UTC midnights; a
 * bad range is a 400 with its code; a stranger, or another site, gets nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Variant } from '../../../common/api';
import { KOINLY_COLUMNS, LEDGER_COLUMNS } from '../../../common/books';
import { ErrorCode } from '../../../common/errors';
import { formatUnits } from '../../../common/money';
import { usdReference } from '../../../common/usd-reference';
import { DEV_ACCOUNTS } from '../../chain/local-chain';
import { testDatabaseKinds } from '../../test/databases';
import { parseCsv } from '../../test/csv';
import type { Harness } from '../../test/harness';
import { startPayingShop, type PayingKit } from '../../test/paying';
import { Shopper } from '../../test/shopper';
import { useTestChain } from '../../test/use-test-chain';

const STORE = DEV_ACCOUNTS[0]!;
const BUYER = DEV_ACCOUNTS[1]!;
const GENEROUS = DEV_ACCOUNTS[2]!;
const STRANGER = DEV_ACCOUNTS[3]!;
const POG = 10n ** 18n;
const SOURCE = 'Uniswap v3 POGS/WETH 30-min average × Chainlink ETH/USD';
/** The past day the rows are placed on. */
const DAY = '2025-03-10';
const NAME = '=HYPERLINK("http://evil.example","#1001")';
const testChain = useTestChain();

describe.each(testDatabaseKinds)('the books on %s', (kind) => {
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
  const pogText = (wei: bigint) => formatUnits(wei, 18, 2);
  const today = () => new Date().toISOString().slice(0, 10);
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const file = async (name: 'koinly' | 'ledger', from: string, to: string) => {
    const res = await asAdmin(`/api/admin/books/${name}.csv?from=${from}&to=${to}`);
    expect(res.status, await res.clone().text()).toBe(200);
    return { res, rows: parseCsv(await res.text()) };
  };
  /** Records a refund the store wallet sent of `value` to `to` against transfer `txHash`, through the desk's route. */
  const refund = async (txHash: string, to: string, value: bigint) => {
    const refundTx = await pay.send(STORE, { value, to });
    const transfer = (await pay.transferRow(txHash))!;
    const res = await asAdmin(`/api/admin/payments/${transfer.id}/refund`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ transactionHash: refundTx, amount: pogText(value) }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    return refundTx.toLowerCase();
  };

  const made = {} as {
    withRef: { id: string; hash: string; paid: bigint; block: string };
    noRef: { id: string; hash: string; paid: bigint; refundHash: string; refunded: bigint };
    loose: { hash: string; value: bigint; refundHash: string };
  };

  beforeAll(async () => {
    // An order of two, with a dollar reference (as settlement keeps it at the payment's block:
    // reading it from a pool is price-reference.int.test.ts's), its line named with a comma.
    const buyer = new Shopper(h);
    await buyer.signIn(testChain.provider, BUYER);
    const a = await pay.checkout(buyer, unlimited.id, BUYER, 2);
    const aHash = (await pay.send(BUYER, { value: BigInt(a.amountWei) })).toLowerCase();
    await h.payments!.watcher.tick();
    const [aOrder] = await pay.ordersFor(aHash);
    await db()('orders')
      .where({ id: aOrder!.id })
      .update({ reference_usd_per_pogs: '0.05', reference_block: aOrder!.block_number, reference_source: SOURCE });
    await db()('order_items').where({ order_id: aOrder!.id }).update({ title: 'Cap, "Pogs" (Black)' });
    made.withRef = {
      id: aOrder!.id as string,
      hash: aHash,
      paid: BigInt(a.amountWei),
      block: String(aOrder!.block_number),
    };

    // An order overpaid by one POG, without a reference, its Shopify name a formula; the excess refunded.
    const generous = new Shopper(h);
    await generous.signIn(testChain.provider, GENEROUS);
    const b = await pay.checkout(generous, unlimited.id, GENEROUS, 1);
    const bPaid = BigInt(b.amountWei) + POG;
    const bHash = (await pay.send(GENEROUS, { value: bPaid })).toLowerCase();
    await h.payments!.watcher.tick();
    const [bOrder] = await pay.ordersFor(bHash);
    await db()('orders').where({ id: bOrder!.id }).update({ shopify_order_name: NAME });
    const bRefund = await refund(bHash, GENEROUS, POG);
    made.noRef = {
      id: bOrder!.id as string,
      hash: bHash,
      paid: bPaid,
      refundHash: bRefund,
      refunded: POG,
    };

    // A transfer that identifies no checkout, sent back in full.
    const odd = 123_456_789_000_000_000n;
    const looseHash = (await pay.send(STRANGER, { value: odd })).toLowerCase();
    await h.payments!.watcher.tick();
    expect(await pay.transferRow(looseHash)).toMatchObject({ status: 'unmatched', order_id: null });
    made.loose = { hash: looseHash, value: odd, refundHash: await refund(looseHash, STRANGER, odd) };

    // Each at an instant of its own on one past day (the server's clock and the database's differ in tests).
    const at = (second: number) => `${DAY}T09:00:0${second}.250Z`;
    await db()('orders')
      .where({ id: made.withRef.id })
      .update({ paid_at: at(0) });
    await db()('chain_transfers')
      .where({ tx_hash: made.withRef.hash })
      .update({ created_at: at(0) });
    await db()('orders')
      .where({ id: made.noRef.id })
      .update({ paid_at: at(1) });
    await db()('chain_transfers')
      .where({ tx_hash: made.noRef.hash })
      .update({ created_at: at(1) });
    await db()('refunds')
      .where({ tx_hash: made.noRef.refundHash })
      .update({ created_at: at(2) });
    await db()('chain_transfers')
      .where({ tx_hash: made.loose.hash })
      .update({ created_at: at(3) });
    await db()('refunds')
      .where({ tx_hash: made.loose.refundHash })
      .update({ created_at: at(4) });
  });

  it("writes Koinly's universal file: each transfer in and refund out, oldest first, sales tagged income and worth their dollars", async () => {
    const { res, rows } = await file('koinly', DAY, DAY);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="koinly-${DAY}-to-${DAY}.csv"`);
    expect(rows[0]).toEqual([...KOINLY_COLUMNS]);
    const { withRef, noRef, loose } = made;
    const usd = usdReference(withRef.paid, '0.05')!;
    expect(usd).toMatch(/^\d+\.\d\d$/);
    expect(rows.slice(1)).toEqual([
      [
        `${DAY} 09:00:00 UTC`,
        '',
        '',
        pogText(withRef.paid),
        'POGS',
        '',
        '',
        usd,
        'USD',
        'income',
        `Order ${withRef.id} paid`,
        withRef.hash,
      ],
      [`${DAY} 09:00:01 UTC`, '', '', pogText(noRef.paid), 'POGS', '', '', '', '', 'income', `Order ${noRef.id} paid`, noRef.hash],
      [`${DAY} 09:00:02 UTC`, '1.00', 'POGS', '', '', '', '', '', '', '', `Refund of order ${noRef.id}`, noRef.refundHash],
      [`${DAY} 09:00:03 UTC`, '', '', '0.123456789', 'POGS', '', '', '', '', '', 'Transfer that matched no order; sent back', loose.hash],
      [
        `${DAY} 09:00:04 UTC`,
        '0.123456789',
        'POGS',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        `Refund of transfer ${loose.hash} (no order)`,
        loose.refundHash,
      ],
    ]);
  });

  it('writes the order ledger: each order paid, its lines, reference, refunds and hashes, a formula in a Shopify name made text', async () => {
    const { res, rows } = await file('ledger', DAY, DAY);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="ledger-${DAY}-to-${DAY}.csv"`);
    expect(rows[0]).toEqual([...LEDGER_COLUMNS]);
    const { withRef, noRef } = made;
    const title = (await db()('order_items').where({ order_id: noRef.id }).first()).title as string;
    expect(rows.slice(1)).toEqual([
      [
        withRef.id,
        `${DAY}T09:00:00.250Z`,
        'paid',
        '2 × Cap, "Pogs" (Black)',
        pogText(withRef.paid),
        '0.05',
        usdReference(withRef.paid, '0.05'),
        SOURCE,
        withRef.block,
        '0.00',
        '',
        pogText(withRef.paid),
        '',
        withRef.hash,
      ],
      [
        noRef.id,
        `${DAY}T09:00:01.250Z`,
        'paid',
        `1 × ${title}`,
        pogText(noRef.paid),
        '',
        '',
        '',
        '',
        '1.00',
        noRef.refundHash,
        pogText(noRef.paid - noRef.refunded),
        `'${NAME}`,
        noRef.hash,
      ],
    ]);
  });

  it('takes whole UTC days: a row at midnight is in its day, one a millisecond before is not', async () => {
    const { withRef, noRef, loose } = made;
    // Moved to one past day: the first order at its midnight, the loose transfer the instant
    // before, its refund at the day's last millisecond, the second order and its refund at the next midnight.
    await db()('orders').where({ id: withRef.id }).update({ paid_at: '2025-06-01T00:00:00.000Z' });
    await db()('chain_transfers').where({ tx_hash: withRef.hash }).update({ created_at: '2025-06-01T00:00:00.000Z' });
    await db()('chain_transfers').where({ tx_hash: loose.hash }).update({ created_at: '2025-05-31T23:59:59.999Z' });
    await db()('refunds').where({ tx_hash: loose.refundHash }).update({ created_at: '2025-06-01T23:59:59.999Z' });
    await db()('orders').where({ id: noRef.id }).update({ paid_at: '2025-06-02T00:00:00.000Z' });
    await db()('chain_transfers').where({ tx_hash: noRef.hash }).update({ created_at: '2025-06-02T00:00:00.000Z' });
    await db()('refunds').where({ tx_hash: noRef.refundHash }).update({ created_at: '2025-06-02T00:00:00.000Z' });

    const koinly = (await file('koinly', '2025-06-01', '2025-06-01')).rows.slice(1);
    expect(koinly.map((r) => [r[0], r[11]])).toEqual([
      ['2025-06-01 00:00:00 UTC', withRef.hash],
      ['2025-06-01 23:59:59 UTC', loose.refundHash],
    ]);
    expect((await file('ledger', '2025-06-01', '2025-06-01')).rows.slice(1).map((r) => r[0])).toEqual([withRef.id]);
    expect((await file('ledger', '2025-06-02', '2025-06-02')).rows.slice(1).map((r) => r[0])).toEqual([noRef.id]);
    expect((await file('koinly', '2025-05-31', '2025-05-31')).rows.slice(1).map((r) => r[11])).toEqual([loose.hash]);
    // Today holds none of them now: a header and nothing else.
    expect((await file('koinly', today(), today())).rows).toEqual([[...KOINLY_COLUMNS]]);
  });

  it('refuses a range it cannot read with 400 and its code, before writing anything', async () => {
    for (const name of ['koinly', 'ledger'])
      for (const query of [
        '',
        `?from=${today()}`,
        `?from=${day(1)}&to=${today()}`,
        '?from=2025-01-01&to=2026-01-02',
        '?from=2025-02-30&to=2025-03-01',
        '?from=yesterday&to=today',
      ]) {
        const res = await asAdmin(`/api/admin/books/${name}.csv${query}`);
        expect(res.status, `${name} ${query}`).toBe(400);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        const body = await res.json();
        expect(body.code).toBe(ErrorCode.badRequest);
        expect(body.message).toContain('?from=2026-01-01&to=2026-12-31');
      }
  });

  it('answers nothing to a stranger without the admin session, nor to another site', async () => {
    const range = '?from=2025-01-01&to=2025-12-31';
    const stranger = new Shopper(h);
    await stranger.signIn(testChain.provider, STRANGER);
    for (const name of ['koinly', 'ledger']) {
      for (const res of [
        await stranger.request(`/api/admin/books/${name}.csv${range}`),
        await h.api(`/api/admin/books/${name}.csv${range}`, { headers: { cookie: 'pogs_admin=forged-session-token' } }),
      ]) {
        expect(res.status).toBe(401);
        expect(res.headers.get('content-disposition')).toBeNull();
        const body = await res.text();
        expect(JSON.parse(body).code).toBe(ErrorCode.adminSessionRequired);
        expect(body).not.toContain(made.withRef.hash);
      }
      const crossSite = await asAdmin(`/api/admin/books/${name}.csv${range}`, {
        headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      });
      expect(crossSite.status).toBe(403);
      expect((await crossSite.json()).code).toBe(ErrorCode.crossSiteRequest);
    }
  });
});
