/**
 * Attaching a transfer to the checkout it evidently belongs to (the payments desk) on a real
 * chain (anvil) and each database: the candidates and their reasons, best first; an attach makes
 * the order through settlement exactly as a payment would (late flag, stock, cart), or leaves the
 * checkout underpaid with a remainder; two admins at once make one order; a repeat is safe and
 * audited once; what cannot be attached is refused with its code; and nobody without the admin
 * session (or from another site) gets anything.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditPageSchema } from '../../../common/admin';
import type { Variant } from '../../../common/api';
import { ErrorCode } from '../../../common/errors';
import { formatUnits, parseUnits } from '../../../common/money';
import { attachCandidatesSchema, attachResultSchema, attentionItemSchema, type AttachCandidate } from '../../../common/payments-desk';
import { DEV_ACCOUNTS } from '../../chain/local-chain';
import { testDatabaseKinds } from '../../test/databases';
import { adminSession, startHarness, type Harness } from '../../test/harness';
import { payingKit, type PayingKit } from '../../test/paying';
import { Shopper } from '../../test/shopper';
import { useTestChain } from '../../test/use-test-chain';
import { bumpCatalogueVersion } from '../catalogue';
import { z } from 'zod';

/** Never signs in: its transfers identify a checkout only by an exact amount. */
const STRANGER = DEV_ACCOUNTS[1]!;
/** Signs in for one checkout and pays half of it (an underpayment settlement matched by the sender). */
const SHORT_PAYER = DEV_ACCOUNTS[2]!;
/** Proven by several sessions with payable checkouts: its transfers match none of them by the sender alone. */
const SENDER = DEV_ACCOUNTS[3]!;
const POG = 10n ** 18n;
const testChain = useTestChain();

// The refund fields of an item are filled by the refunds slice; this file is about attaching.
const itemSchema = attentionItemSchema.partial({ refundable: true, refundableWei: true, refunds: true, refundTo: true });
const pageSchema = z.object({ items: z.array(itemSchema), unresolved: z.number() });

describe.each(testDatabaseKinds)('attaching a transfer on %s', (kind) => {
  let h: Harness;
  let pay: PayingKit;
  let unlimited: Variant;
  let scarce: Variant;
  let admin1: string;
  let admin2: string;

  const login = async () => {
    return await adminSession(h);
  };

  beforeAll(async () => {
    // Each shopper speaks from its own address (the candidates list one checkout per source).
    h = await startHarness(kind, { chain: testChain.chain, env: { TRUSTED_PROXY_HOPS: '1' } });
    await h.catalogue.sync();
    await h.catalogue.seedDemoPrices();
    const variants = (await h.catalogue.list()).products.flatMap((p) => p.variants).filter((v) => !v.isSoldOut);
    [unlimited, scarce] = [variants[0]!, variants[1]!];
    // Round prices, so that amounts read plainly: 10 POG without a stock limit, 4 POG with 5 left.
    await db()('variants').where({ shopify_id: unlimited.id }).update({ pog_price: '10', available_stock: null, inventory_quantity: null });
    await db()('variants').where({ shopify_id: scarce.id }).update({ pog_price: '4', available_stock: 5, is_sold_out: false });
    await bumpCatalogueVersion(db());
    pay = payingKit(h, testChain);
    admin1 = await login();
    admin2 = await login();
  });
  afterAll(async () => {
    await h?.close();
  });

  const db = () => h.database.db;
  let shoppers = 0;
  /** A new browser at an address of its own. */
  const shopper = () => new Shopper(h, `198.18.${Math.floor(++shoppers / 250)}.${shoppers % 250}`);
  const as = (cookie: string, path: string, init: RequestInit = {}) => h.api(path, { ...init, headers: { cookie, ...init.headers } });
  /** A page of the candidates (the first, unless `query` names a cursor). */
  const candidatePage = async (transferId: string, query: Record<string, string> = {}) => {
    const res = await as(admin1, `/api/admin/payments/${transferId}/candidates?${new URLSearchParams(query)}`);
    expect(res.status, await res.clone().text()).toBe(200);
    return attachCandidatesSchema.parse(await res.json());
  };
  const candidates = async (transferId: string) => (await candidatePage(transferId)).candidates;
  /** Every candidate, page after page (`limit` a page), checking that the pages agree with `matching`. */
  const allCandidates = async (transferId: string, query: Record<string, string> = {}, limit = 7) => {
    const all: AttachCandidate[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 100; pages++) {
      const page = await candidatePage(transferId, { ...query, limit: String(limit), ...(cursor ? { cursor } : {}) });
      expect(page.candidates.length).toBeLessThanOrEqual(limit);
      all.push(...page.candidates);
      cursor = page.nextCursor;
      if (!cursor) {
        expect(all).toHaveLength(page.matching);
        break;
      }
    }
    expect(new Set(all.map((c) => c.checkoutId)).size).toBe(all.length);
    return all;
  };
  const attach = (transferId: string, body: unknown, cookie = admin1, headers: Record<string, string> = {}) =>
    as(cookie, `/api/admin/payments/${transferId}/attach`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const attached = async (res: Response) => {
    expect(res.status, await res.clone().text()).toBe(200);
    return attachResultSchema.extend({ item: itemSchema.nullable() }).parse(await res.json());
  };
  const refused = async (res: Response) => ({ status: res.status, code: ((await res.json()) as { code: string }).code });
  const queue = async () => {
    const res = await as(admin1, '/api/admin/payments/attention');
    expect(res.status).toBe(200);
    return pageSchema.parse(await res.json());
  };
  const audits = async (transferId: string) => {
    const res = await as(admin1, '/api/admin/audit?limit=200');
    return auditPageSchema.parse(await res.json()).entries.filter((e) => e.action === 'payment-attached' && e.target === transferId);
  };
  const checkoutRow = (id: string) => db()('checkout_intents').where({ id }).first();
  const backdate = (id: string, ms: number) =>
    db()('checkout_intents')
      .where({ id })
      .update({ created_at: new Date(Date.now() - ms) });
  /** Sends `value` from `from` and lets the watcher record it; answers its hash and transfer id. */
  const transfer = async (from: string, value: bigint) => {
    const hash = await pay.send(from, { value });
    await h.payments!.watcher.tick();
    const row = (await pay.transferRow(hash))!;
    return { hash, id: String(row.id), status: row.status as string };
  };
  const hour = 3_600_000;

  it('lists the checkouts a transfer may be for, with their reasons, best first', async () => {
    // Three sessions proved SENDER's wallet, each with a payable checkout: its transfers match none by the sender.
    const proven = async (quantity: number) => {
      const s = shopper();
      await s.signIn(testChain.provider, SENDER);
      return pay.checkout(s, unlimited.id, SENDER, quantity);
    };
    const anonymous = (quantity: number) => pay.checkout(shopper(), unlimited.id, null, quantity);
    const a = await proven(1); // same sender, close amount (10 of 10.5), same time
    const b = await proven(3); // same sender only (opened 3 hours before)
    const b2 = await proven(2); // same sender only (2 hours before), closer than b
    const close = await anonymous(1); // close amount only (2 hours before)
    const closed = await anonymous(1); // close amount only (2.5 hours before), closed: shown as expired
    const now = await anonymous(3); // same time only
    const none = await anonymous(3); // no reason (2 hours before)
    const old = await anonymous(1); // close amount, but 8 days before
    const paid = await anonymous(1); // paid: never a candidate
    await pay.send(STRANGER, { value: BigInt(paid.amountWei) });
    await db()('checkout_intents')
      .where({ id: closed.id })
      .update({ match_until: new Date(Date.now() - 1000) });
    await h.payments!.watcher.tick(); // the paid one becomes an order, the closed one closes
    expect(await checkoutRow(paid.id)).toMatchObject({ status: 'paid' });
    expect(await checkoutRow(closed.id)).toMatchObject({ status: 'closed' });

    const t = await transfer(SENDER, (105n * POG) / 10n);
    expect(t.status).toBe('unmatched');
    const after = await anonymous(1); // opened after the transfer was seen: never a candidate
    await backdate(b.id, 3 * hour);
    await backdate(b2.id, 2 * hour);
    await backdate(close.id, 2 * hour);
    await backdate(closed.id, 2.5 * hour);
    await backdate(none.id, 2 * hour);
    await backdate(old.id, 8 * 24 * hour);

    const list = await candidates(t.id);
    // A proven sender first (then by amount), then the closest amounts, newest first.
    expect(list.map((c) => [c.checkoutId, c.reasons])).toEqual([
      [a.id, ['same-sender', 'close-amount', 'same-time']],
      [b2.id, ['same-sender']],
      [b.id, ['same-sender']],
      [close.id, ['close-amount']],
      [closed.id, ['close-amount']],
      [now.id, ['same-time']],
    ]);
    for (const excluded of [none, old, paid, after]) expect(list.map((c) => c.checkoutId)).not.toContain(excluded.id);
    const title = (await db()('checkout_intent_items').where({ intent_id: a.id }).first()).title;
    expect(list[0]).toEqual({
      checkoutId: a.id,
      status: 'open',
      total: '10.00',
      due: '10.00',
      createdAt: new Date((await checkoutRow(a.id)).created_at).toISOString(),
      provenWallet: SENDER.toLowerCase(),
      items: [{ title, quantity: 1 }],
      reasons: ['same-sender', 'close-amount', 'same-time'],
      hashReportedAt: null,
      difference: '0.50',
      sameSource: 0,
      openedAfterTransfer: false,
    });
    expect(list[1]).toMatchObject({ total: '20.00', due: '20.00', difference: '-9.50', provenWallet: SENDER.toLowerCase() });
    expect(list[3]).toMatchObject({ provenWallet: null, status: 'open', items: [{ title, quantity: 1 }] });
    expect(list[4]).toMatchObject({ status: 'expired', provenWallet: null });

    // Only an unmatched transfer has candidates.
    const paidTransfer = (await db()('chain_transfers').where({ intent_id: paid.id }).first()).id;
    expect(await refused(await as(admin1, `/api/admin/payments/${paidTransfer}/candidates`))).toEqual({
      status: 409,
      code: ErrorCode.transferNotAttachable,
    });
    for (const id of ['999999', 'abc']) {
      expect(await refused(await as(admin1, `/api/admin/payments/${id}/candidates`))).toEqual({
        status: 404,
        code: ErrorCode.attentionItemNotFound,
      });
    }
  });

  it('attaches a transfer that covers an expired checkout: one order, late, with a payment’s stock and cart effects, even when two admins click at once', async () => {
    const s = shopper();
    const c = await pay.checkout(s, scarce.id, null, 2); // 8 POG
    expect((await s.add({ variantId: unlimited.id, quantity: 1 })).status).toBe(200); // added after the checkout began
    await db()('checkout_intents')
      .where({ id: c.id })
      .update({ expires_at: new Date(Date.now() - 60_000), created_at: new Date(Date.now() - 31 * 60_000) });
    await h.payments!.watcher.tick();
    expect(await checkoutRow(c.id)).toMatchObject({ status: 'expired' });

    // The shopper sent the total without the identifying suffix, from a wallet nobody proved.
    const t = await transfer(STRANGER, 8n * POG);
    expect(t.status).toBe('unmatched');
    expect((await candidates(t.id)).find((x) => x.checkoutId === c.id)?.reasons).toEqual(['close-amount', 'same-time']);

    const [first, second] = await Promise.all([attach(t.id, { checkoutId: c.id }, admin1), attach(t.id, { checkoutId: c.id }, admin2)]);
    const one = await attached(first);
    expect(await attached(second)).toEqual(one);
    const orders = await pay.ordersFor(t.hash);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ intent_id: c.id, late: true, overpaid: false, hold_reason: null, stock_taken: true });
    expect(one.orderId).toBe(orders[0]!.id);
    expect(one.item).toMatchObject({
      transferId: t.id,
      kind: 'late',
      orderId: orders[0]!.id,
      note: expect.stringContaining('attached by the admin'),
    });
    expect(await checkoutRow(c.id)).toMatchObject({ status: 'paid' });
    expect(await pay.transferRow(t.hash)).toMatchObject({ status: 'matched', intent_id: c.id, order_id: orders[0]!.id });

    // As a payment: the stock is taken, the bought line leaves the cart (the later one stays), the hand-off is queued.
    expect(await db()('variants').where({ shopify_id: scarce.id }).first()).toMatchObject({ available_stock: 3 });
    expect((await s.cart()).items.map((i) => [i.variantId, i.quantity])).toEqual([[unlimited.id, 1]]);
    expect(await db()('outbox').where({ kind: 'shopify-draft-order', order_id: orders[0]!.id })).toHaveLength(1);

    // Audited once; a repeat answers the same and is not audited again.
    expect(await attached(await attach(t.id, { checkoutId: c.id }, admin2))).toEqual(one);
    const entries = await audits(t.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.changes).toEqual([
      { field: 'checkout', from: null, to: c.id },
      { field: 'order', from: null, to: orders[0]!.id },
    ]);

    // To another checkout: refused, nothing changes.
    const other = await pay.checkout(shopper(), unlimited.id, null, 1);
    expect(await refused(await attach(t.id, { checkoutId: other.id }))).toEqual({ status: 409, code: ErrorCode.transferNotAttachable });
    expect(await pay.ordersFor(t.hash)).toHaveLength(1);
    expect(await checkoutRow(other.id)).toMatchObject({ status: 'open' });

    // On the desk it now shows its new kind.
    expect((await queue()).items.find((i) => i.transferId === t.id)).toMatchObject({ kind: 'late', orderId: orders[0]!.id });
  });

  it('makes one order when two admins attach the same transfer to two checkouts at once', async () => {
    const x = await pay.checkout(shopper(), unlimited.id, null, 1);
    const y = await pay.checkout(shopper(), unlimited.id, null, 1);
    const t = await transfer(STRANGER, 10n * POG);
    expect(t.status).toBe('unmatched');

    const responses = await Promise.all([attach(t.id, { checkoutId: x.id }, admin1), attach(t.id, { checkoutId: y.id }, admin2)]);
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409]);
    const winner = responses.find((r) => r.status === 200)!;
    const loser = responses.find((r) => r.status === 409)!;
    expect((await loser.json()).code).toBe(ErrorCode.transferNotAttachable);
    const result = await attached(winner);

    const orders = await pay.ordersFor(t.hash);
    expect(orders).toHaveLength(1);
    const paidId = orders[0]!.intent_id as string;
    const unpaidId = paidId === x.id ? y.id : x.id;
    expect(await checkoutRow(paidId)).toMatchObject({ status: 'paid' });
    expect(await checkoutRow(unpaidId)).toMatchObject({ status: 'open' });
    expect(await db()('orders').whereIn('intent_id', [x.id, y.id])).toHaveLength(1);
    // The exact total of an open checkout: a plain order, which needs nobody: it leaves the queue.
    expect(result).toEqual({ item: null, orderId: orders[0]!.id });
    expect(orders[0]).toMatchObject({ late: false, overpaid: false });
    expect((await queue()).items.find((i) => i.transferId === t.id)).toBeUndefined();
    expect(await audits(t.id)).toHaveLength(1);
  });

  it('leaves a checkout underpaid with a remainder when the transfer is less than its total; the rest finishes it', async () => {
    const s = shopper();
    const c = await pay.checkout(s, unlimited.id, null, 2); // 20 POG
    const t = await transfer(STRANGER, 10n * POG);
    expect(t.status).toBe('unmatched');

    const result = await attached(await attach(t.id, { checkoutId: c.id }));
    expect(result.orderId).toBeNull();
    const total = BigInt((await checkoutRow(c.id)).total_wei);
    expect(result.item).toMatchObject({ transferId: t.id, kind: 'underpaid', orderId: null, due: formatUnits(total - 10n * POG, 18, 2) });
    expect(await pay.ordersFor(t.hash)).toHaveLength(0);
    const owing = await pay.checkoutOf(s, c.id);
    expect(owing).toMatchObject({ status: 'underpaid', amountReceived: '10.00', amountDue: '10.00' });
    // A new exact amount for the remainder: the due rounded up to the cent, plus a suffix below 10^12 wei.
    const remainder = BigInt(owing.amountWei);
    expect(remainder).not.toBe(BigInt(c.amountWei));
    expect(remainder - parseUnits('10') > 0n && remainder - parseUnits('10') < 10n ** 12n).toBe(true);
    expect((await queue()).items.find((i) => i.transferId === t.id)).toMatchObject({ kind: 'underpaid' });

    // A repeat answers the same, not audited again.
    expect(await attached(await attach(t.id, { checkoutId: c.id }))).toEqual(result);
    expect(await audits(t.id)).toHaveLength(1);

    // The shopper pays the remainder: the watcher alone makes the order, with both transfers.
    const rest = await transfer(STRANGER, remainder);
    const [order] = await pay.ordersFor(rest.hash);
    expect(order).toMatchObject({ intent_id: c.id, late: true });
    expect(await pay.transferRow(t.hash)).toMatchObject({ status: 'matched', order_id: order!.id });
    // The attached part needs nobody now; the repeat still answers, with the order.
    expect((await queue()).items.find((i) => i.transferId === t.id)).toBeUndefined();
    expect(await attached(await attach(t.id, { checkoutId: c.id }))).toEqual({ item: null, orderId: order!.id });
    expect(await audits(t.id)).toHaveLength(1);
  });

  it('refuses what cannot be attached with its code, and changes nothing', async () => {
    // A plain payment (matched), and an underpayment a proven sender made (underpaid): they already count.
    const plainCheckout = await pay.checkout(shopper(), unlimited.id, null, 1);
    const plain = await transfer(STRANGER, BigInt(plainCheckout.amountWei));
    expect(plain.status).toBe('matched');
    const short = shopper();
    await short.signIn(testChain.provider, SHORT_PAYER);
    const owing = await pay.checkout(short, unlimited.id, SHORT_PAYER, 1);
    const half = await transfer(SHORT_PAYER, BigInt(owing.amountWei) / 2n);
    expect(half.status).toBe('underpaid');

    const target = await pay.checkout(shopper(), unlimited.id, null, 1);
    const t = await transfer(STRANGER, 777n * 10n ** 16n);
    expect(t.status).toBe('unmatched');
    const later = await pay.checkout(shopper(), unlimited.id, null, 1);

    const cases: Array<[string, unknown, number, string]> = [
      [plain.id, { checkoutId: target.id }, 409, ErrorCode.transferNotAttachable],
      [plain.id, { checkoutId: plainCheckout.id }, 409, ErrorCode.transferNotAttachable],
      [half.id, { checkoutId: owing.id }, 409, ErrorCode.transferNotAttachable],
      [half.id, { checkoutId: target.id }, 409, ErrorCode.transferNotAttachable],
      [t.id, { checkoutId: plainCheckout.id }, 409, ErrorCode.checkoutNotAttachable],
      [t.id, { checkoutId: later.id }, 409, ErrorCode.checkoutNotAttachable],
      [t.id, { checkoutId: randomUUID() }, 404, ErrorCode.checkoutNotFound],
      ['999999', { checkoutId: target.id }, 404, ErrorCode.attentionItemNotFound],
      ['abc', { checkoutId: target.id }, 404, ErrorCode.attentionItemNotFound],
      [t.id, { checkoutId: 'not-a-uuid' }, 400, ErrorCode.badRequest],
      [t.id, { checkoutId: target.id, extra: true }, 400, ErrorCode.badRequest],
      [t.id, 'not json', 400, ErrorCode.invalidJson],
    ];
    for (const [id, body, status, code] of cases) {
      expect(await refused(await attach(id, body)), `${id} ${JSON.stringify(body)}`).toEqual({ status, code });
    }
    const text = await as(admin1, `/api/admin/payments/${t.id}/attach`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: target.id,
    });
    expect(await refused(text)).toEqual({ status: 415, code: ErrorCode.unsupportedMediaType });

    expect(await pay.transferRow(t.hash)).toMatchObject({ status: 'unmatched', intent_id: null, order_id: null });
    expect(await pay.transferRow(half.hash)).toMatchObject({ status: 'underpaid', intent_id: owing.id });
    for (const c of [target, later]) expect(await checkoutRow(c.id)).toMatchObject({ status: 'open' });
    for (const id of [plain.id, half.id, t.id]) expect(await audits(id)).toHaveLength(0);
    expect((await queue()).items.find((i) => i.transferId === t.id)).toMatchObject({ kind: 'unmatched' });
  });

  it('answers nothing to a stranger without the admin session, nor to another site', async () => {
    const target = await pay.checkout(shopper(), unlimited.id, null, 1);
    const t = await transfer(STRANGER, 10n * POG);
    expect(t.status).toBe('unmatched');
    const stranger = shopper();
    for (const res of [
      await stranger.request(`/api/admin/payments/${t.id}/candidates`),
      await stranger.post(`/api/admin/payments/${t.id}/attach`, { checkoutId: target.id }),
    ]) {
      expect(res.status).toBe(401);
      const body = await res.text();
      expect(JSON.parse(body).code).toBe(ErrorCode.adminSessionRequired);
      expect(body).not.toContain(target.id);
    }
    for (const res of [
      await as(admin1, `/api/admin/payments/${t.id}/candidates`, {
        headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      }),
      await attach(t.id, { checkoutId: target.id }, admin1, { origin: 'https://evil.example' }),
      await attach(t.id, { checkoutId: target.id }, admin1, { 'sec-fetch-site': 'cross-site' }),
    ]) {
      expect(res.status).toBe(403);
      expect((await res.json()).code).toBe(ErrorCode.crossSiteRequest);
    }
    expect(await pay.transferRow(t.hash)).toMatchObject({ status: 'unmatched' });
    expect(await checkoutRow(target.id)).toMatchObject({ status: 'open' });
    expect(await audits(t.id)).toHaveLength(0);
  });
  describe('a stranger stuffing the candidates', () => {
    /** Pays the wrong amount from a wallet nobody proved: the victim's mistaken transfer. */
    const PAYER = DEV_ACCOUNTS[1]!;
    const randomWallet = () => `0x${randomUUID().replace(/-/g, '')}${randomUUID().slice(0, 8)}`;
    const at = (id: string, ms: number) =>
      db()('checkout_intents')
        .where({ id })
        .update({ created_at: new Date(ms) });
    /** A product at `price` POG with no stock limit: the popular price strangers open checkouts at. */
    const popular = async (price: string) => {
      const variant = (await h.catalogue.list()).products.flatMap((p) => p.variants).filter((v) => !v.isSoldOut)[2]!;
      await db()('variants')
        .where({ shopify_id: variant.id })
        .update({ pog_price: price, available_stock: null, inventory_quantity: null });
      await bumpCatalogueVersion(db());
      return variant.id;
    };
    /**
     * A stranger's 20 checkouts of one kind, each opened `gapMs` after the last from `start`:
     * - `address`: a fresh browser session each time, from one IPv4 address;
     * - `ipv6`: a fresh session and a fresh address each time, all in one IPv6 /64;
     * - `session`: one browser session hopping addresses, a different wallet each time.
     */
    const stuff = async (style: 'address' | 'ipv6' | 'session', variantId: string, start: number) => {
      const ids: string[] = [];
      let browser = new Shopper(h, '203.0.113.90');
      const hopper = browser;
      if (style === 'session') expect((await hopper.add({ variantId, quantity: 1 })).status).toBe(200);
      for (let i = 0; i < 20; i++) {
        let c;
        if (style === 'session') {
          hopper.from = `192.0.2.${i + 1}`;
          const res = await hopper.post('/api/checkout', { customerWallet: randomWallet() });
          expect(res.status, await res.clone().text()).toBe(201);
          c = (await res.json()) as { id: string };
        } else {
          browser = new Shopper(h, style === 'address' ? '203.0.113.66' : `2001:db8:66:1::${(i + 1).toString(16)}`);
          c = await pay.checkout(browser, variantId, null, 1);
        }
        await at(c.id, start + i * 1000);
        ids.push(c.id);
      }
      /** The checkouts, and the browser that opened the last one. */
      return { ids, browser };
    };

    it("leaves the victim's checkout first when the victim's browser reported the hash, whatever the stranger reports", async () => {
      const variantId = await popular('77');
      const now = Date.now();
      const victim = shopper();
      const vc = await pay.checkout(victim, variantId, PAYER, 1);
      await at(vc.id, now - 120_000);
      // Twenty checkouts at the same price, opened after the victim's and before the payment.
      const { ids: stranger } = await stuff('address', variantId, now - 100_000);
      const strangerBrowser = new Shopper(h, '203.0.113.66');
      const own = await pay.checkout(strangerBrowser, variantId, null, 1);
      await at(own.id, now - 60_000);

      // The victim sends 76.50 instead of 77.00-and-a-bit; the wallet hands the browser the hash at once.
      const hash = await pay.send(PAYER, { value: (765n * POG) / 10n });
      const report = await victim.post(`/api/checkout/${vc.id}/transaction`, { transactionHash: hash });
      expect(report.status, await report.clone().text()).toBe(200);
      // The stranger sees it on chain and reports it too, on a checkout of its own: later, so not first.
      expect((await strangerBrowser.post(`/api/checkout/${own.id}/transaction`, { transactionHash: hash })).status).toBe(200);
      // Nor can it report on the victim's checkout: that checkout is not its session's.
      const onVictims = await strangerBrowser.post(`/api/checkout/${vc.id}/transaction`, { transactionHash: hash });
      expect(onVictims.status).toBe(404);
      expect((await onVictims.json()).code).toBe(ErrorCode.checkoutNotFound);
      await h.payments!.watcher.tick();
      const t = (await pay.transferRow(hash))!;
      expect(t.status).toBe('unmatched');
      expect(await db()('checkout_tx_reports').where({ tx_hash: hash.toLowerCase() }).orderBy('id').pluck('intent_id')).toEqual([
        vc.id,
        own.id,
      ]);

      const list = await allCandidates(String(t.id));
      expect(list[0]).toMatchObject({
        checkoutId: vc.id,
        reasons: ['reported-hash', 'close-amount', 'same-time'],
        difference: '-0.50',
        sameSource: 0,
      });
      expect(Date.parse(list[0]!.hashReportedAt!)).toBeLessThanOrEqual(new Date(t.created_at as string).getTime());
      // The stranger's 21 checkouts are all listed, but take one place among the sources' best: the
      // others come after every other source's best. Its report is shown, and is no reason.
      const strangers = list.filter((c) => [...stranger, own.id].includes(c.checkoutId));
      expect(strangers).toHaveLength(21);
      expect(strangers[0]).toMatchObject({ checkoutId: own.id, reasons: ['close-amount', 'same-time'], sameSource: 20 });
      expect(strangers[0]!.hashReportedAt).not.toBeNull();
      const secondOfStranger = list.findIndex((c) => c.checkoutId === strangers[1]!.checkoutId);
      const others = list.filter((c) => ![...stranger, own.id].includes(c.checkoutId));
      const loneSources = others.filter((c) => c.sameSource === 0);
      expect(loneSources.length).toBeGreaterThan(1);
      for (const c of loneSources) expect(list.indexOf(c)).toBeLessThan(secondOfStranger);

      // A source is kept as a keyed hash, never the address; this machine (or a private network:
      // a proxy not declared in TRUSTED_PROXY_HOPS) is no client's own and groups nobody.
      const local = await pay.checkout(new Shopper(h), variantId, null, 1);
      const keys = await db()('checkout_intents').whereIn('id', [vc.id, stranger[0]!, stranger[1]!, local.id]).select('id', 'source_key');
      const keyOf = (id: string) => keys.find((k) => k.id === id)!.source_key as string | null;
      expect(keyOf(vc.id)).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(keyOf(stranger[0]!)).toBe(keyOf(stranger[1]!));
      expect(keyOf(stranger[0]!)).not.toBe(keyOf(vc.id));
      expect(keyOf(local.id)).toBeNull();
    });

    it("gives a stranger's 20 checkouts at most one place when nobody reported the hash, however they are opened", async () => {
      const variantId = await popular('55');
      const now = Date.now();
      const victim = shopper();
      const vc = await pay.checkout(victim, variantId, PAYER, 1);
      await at(vc.id, now - 300_000);
      const styles = {
        address: await stuff('address', variantId, now - 280_000),
        ipv6: await stuff('ipv6', variantId, now - 250_000),
        session: await stuff('session', variantId, now - 220_000),
      };
      const hash = await pay.send(PAYER, { value: (545n * POG) / 10n });
      await h.payments!.watcher.tick();
      const t = (await pay.transferRow(hash))!;
      expect(t.status).toBe('unmatched');
      // A stranger reads it on chain, but only the shop's sighting is earlier: its report is no reason.
      const late = await styles.session.browser.post(`/api/checkout/${styles.session.ids.at(-1)}/transaction`, { transactionHash: hash });
      expect(late.status).toBe(200);

      const list = await allCandidates(String(t.id));
      const victimAt = list.findIndex((c) => c.checkoutId === vc.id);
      for (const [style, { ids }] of Object.entries(styles)) {
        const placed = list.filter((c) => ids.includes(c.checkoutId));
        expect(placed, style).toHaveLength(20);
        // Its best comes first (the newest: the same amount, opened later than the victim's), and
        // stands for all twenty; the stranger at one address also had the previous test's checkouts.
        expect(placed[0], style).toMatchObject({ reasons: ['close-amount', 'same-time'], checkoutId: ids.at(-1) });
        expect(placed[0]!.sameSource, style).toBe(style === 'address' ? 19 + 21 : 19);
        // Its others come after the victim's: a source's second after every source's best.
        for (const c of placed.slice(1)) expect(list.indexOf(c), style).toBeGreaterThan(victimAt);
      }
      expect(list.find((c) => c.checkoutId === styles.session.ids.at(-1))!.hashReportedAt).not.toBeNull();
      // The victim's checkout is listed right behind the three (same amount, opened earlier).
      expect(victimAt).toBe(3);
      expect(list[victimAt]).toMatchObject({
        reasons: ['close-amount', 'same-time'],
        difference: '-0.50',
        hashReportedAt: null,
        sameSource: 0,
        openedAfterTransfer: false,
      });
    });
    /** `n` checkouts of `variantId`, each from a browser and an address of its own, opened at `times`. */
    const strangers = async (variantId: string, times: number[]) => {
      const ids: string[] = [];
      for (const when of times) {
        const c = await pay.checkout(shopper(), variantId, null, 1);
        await at(c.id, when);
        ids.push(c.id);
      }
      return ids;
    };

    it("finds the victim's checkout among 20 strangers' around it, by paging and by searching its wallet, amount or id", async () => {
      const variantId = await popular('66');
      const now = Date.now();
      // The victim signed in with one wallet and paid from another: the sender proves nothing.
      const victim = shopper();
      const victimWallet = SHORT_PAYER;
      await victim.signIn(testChain.provider, victimWallet);
      const vc = await pay.checkout(victim, variantId, victimWallet, 1);
      await at(vc.id, now - 600_000);
      // Twenty strangers, each from an address and a browser of its own: ten before, ten after.
      const before = await strangers(
        variantId,
        Array.from({ length: 10 }, (_, i) => now - 1_200_000 + i * 1000),
      );
      const after = await strangers(
        variantId,
        Array.from({ length: 10 }, (_, i) => now - 500_000 + i * 1000),
      );
      const hash = await pay.send(PAYER, { value: (655n * POG) / 10n });
      await h.payments!.watcher.tick();
      const t = (await pay.transferRow(hash))!;
      expect(t.status).toBe('unmatched');
      const id = String(t.id);

      // Paging reaches every candidate, the victim's among them, once.
      const all = await allCandidates(id, {}, 4);
      const victimAt = all.findIndex((c) => c.checkoutId === vc.id);
      expect(all.filter((c) => c.checkoutId === vc.id)).toHaveLength(1);
      for (const s of [...before, ...after]) expect(all.map((c) => c.checkoutId)).toContain(s);
      // Nothing the strangers cannot fake tells them apart: the same amount, each a source of its own,
      // all before the transfer. The ten opened closer to it come first; the ten before come after.
      expect(victimAt).toBe(10);
      expect(new Set(all.slice(0, 10).map((c) => c.checkoutId))).toEqual(new Set(after));
      expect(all[victimAt]).toMatchObject({ provenWallet: victimWallet.toLowerCase(), difference: '-0.50', openedAfterTransfer: false });

      // Searched by its proven wallet: the victim's (that wallet's earlier test checkout too), no stranger's.
      const byWallet = await allCandidates(id, { q: victimWallet });
      expect(byWallet.map((c) => c.checkoutId)).toContain(vc.id);
      for (const c of byWallet) expect(c.provenWallet).toBe(victimWallet.toLowerCase());
      // By the amount it showed the victim (the price and its suffix, exact): only the victim's.
      const exact = formatUnits(BigInt(vc.amountWei), 18, 0);
      expect((await allCandidates(id, { q: exact })).map((c) => c.checkoutId)).toEqual([vc.id]);
      // By the price: the victim's and the twenty strangers', every one reachable.
      const byPrice = await allCandidates(id, { q: '66.00' }, 5);
      expect(new Set(byPrice.map((c) => c.checkoutId))).toEqual(new Set([vc.id, ...before, ...after]));
      // By the start of its id, as the victim reads it out.
      expect((await allCandidates(id, { q: vc.id.slice(0, 13).toUpperCase() })).map((c) => c.checkoutId)).toContain(vc.id);
      expect((await allCandidates(id, { q: vc.id })).map((c) => c.checkoutId)).toEqual([vc.id]);
      // A search finds a checkout of the window with no reason at all: the admin knows something the shop does not.
      const far = await pay.checkout(shopper(), unlimited.id, null, 9);
      await at(far.id, now - 5 * hour);
      const t2 = await transfer(STRANGER, (655n * POG) / 10n + 7n);
      expect((await candidates(t2.id)).map((c) => c.checkoutId)).not.toContain(far.id);
      expect(await allCandidates(t2.id, { q: far.id })).toMatchObject([{ checkoutId: far.id, reasons: [] }]);
    });

    it('refuses a bad search, page size or cursor with its code and says what it expects', async () => {
      const variantId = await popular('44');
      await strangers(variantId, [Date.now() - 60_000, Date.now() - 50_000, Date.now() - 40_000]);
      const t = await transfer(STRANGER, (435n * POG) / 10n);
      const ask = async (query: string) => {
        const res = await as(admin1, `/api/admin/payments/${t.id}/candidates?${query}`);
        const body = (await res.json()) as { code: string; message: string };
        return { status: res.status, code: body.code, message: body.message };
      };
      for (const q of ['hoodie', '0', '1.0000000000000000001', '0x1234']) {
        const answer = await ask(`q=${encodeURIComponent(q)}`);
        expect(answer, q).toMatchObject({ status: 400, code: ErrorCode.badRequest });
        expect(answer.message, q).toMatch(/wallet address.*amount of POG.*checkout id/);
      }
      for (const query of ['limit=0', 'limit=51', 'limit=2.5', 'limit=many', 'page=2', 'q=1&q=2']) {
        expect(await ask(query), query).toMatchObject({ status: 400, code: ErrorCode.badRequest });
      }
      const first = await candidatePage(t.id, { limit: '1' });
      expect(first.nextCursor).not.toBeNull();
      expect(first.matching).toBeGreaterThanOrEqual(3);
      for (const query of ['cursor=nonsense', `cursor=${first.nextCursor}&q=44`, `cursor=${first.nextCursor!.slice(0, -2)}`]) {
        expect(await ask(query), query).toMatchObject({ status: 400, code: ErrorCode.invalidCursor });
      }
      // Another transfer's cursor is refused too.
      const other = await transfer(STRANGER, (436n * POG) / 10n);
      expect((await as(admin1, `/api/admin/payments/${other.id}/candidates?cursor=${first.nextCursor}`)).status).toBe(400);
    });

    it("never ranks a stranger's checkouts opened after the transfer above the victim's, however well their amounts fit", async () => {
      const variantId = await popular('88');
      const now = Date.now();
      const victim = shopper();
      const vc = await pay.checkout(victim, variantId, PAYER, 1);
      await at(vc.id, now - 600_000);
      // A stranger's checkout from earlier, to report the transaction on once it sees it on chain.
      const watcher = shopper();
      const wc = await pay.checkout(watcher, unlimited.id, null, 1);
      await at(wc.id, now - 2 * hour);
      // The victim sends 87.50 (its tab then died: no report); the stranger reports it first.
      const hash = await pay.send(PAYER, { value: (875n * POG) / 10n });
      expect((await watcher.post(`/api/checkout/${wc.id}/transaction`, { transactionHash: hash })).status).toBe(200);
      await db()('checkout_tx_reports')
        .where({ tx_hash: hash.toLowerCase() })
        .update({ reported_at: new Date(now - 300_000) });
      // Then twenty checkouts from twenty addresses at exactly the amount sent, before the shop's
      // watcher sees it: each fits better than the victim's, and all were opened after the transfer.
      await db()('variants').where({ shopify_id: scarce.id }).update({ pog_price: '87.5', available_stock: null });
      await bumpCatalogueVersion(db());
      const late = await strangers(
        scarce.id,
        Array.from({ length: 20 }, (_, i) => now - 290_000 + i * 1000),
      );
      await h.payments!.watcher.tick();
      const t = (await pay.transferRow(hash))!;
      expect(t.status).toBe('unmatched');

      const list = await allCandidates(String(t.id), {}, 10);
      const victimAt = list.findIndex((c) => c.checkoutId === vc.id);
      expect(list[victimAt]).toMatchObject({ difference: '-0.50', openedAfterTransfer: false });
      for (const id of late) {
        const c = list.find((x) => x.checkoutId === id)!;
        expect(c).toMatchObject({ difference: '0.00', openedAfterTransfer: true });
        expect(list.indexOf(c)).toBeGreaterThan(victimAt);
      }
      await db()('variants').where({ shopify_id: scarce.id }).update({ pog_price: '4', available_stock: 5 });
      await bumpCatalogueVersion(db());
    });
  });
});
