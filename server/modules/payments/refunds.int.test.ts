/**
 * Refunds verified on chain (docs/payments.md, "Refunds"), on a real chain (anvil) and each database: the store
 * wallet (anvil dev account #0, the local store wallet) sends refunds the way the admin's wallet
 * would, and POST /api/admin/payments/:transferId/refund verifies and records them. A full, an
 * excess-only and a partial refund are recorded; every refund that is not what was prepared is
 * refused with its code and recorded nowhere; a refunded transfer never counts again; the order,
 * the shopper's view, the hand-off and the export follow.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractFactory, getAddress } from 'ethers';
import { z } from 'zod';
import { auditPageSchema } from '../../../common/admin';
import { orderSchema, refundLineSchema, type Variant } from '../../../common/api';
import { ErrorCode } from '../../../common/errors';
import { formatUnits } from '../../../common/money';
import { attentionItemSchema, attentionPageSchema, type AttentionItem } from '../../../common/payments-desk';
import artifact from '../../chain/contracts/demo-pogs-token.json';
import { DEV_ACCOUNTS } from '../../chain/local-chain';
import { sendTokenTransfer } from '../../test/chain';
import { testDatabaseKinds } from '../../test/databases';
import type { Harness } from '../../test/harness';
import { startPayingShop, type PayingKit } from '../../test/paying';
import { Shopper } from '../../test/shopper';
import { useTestChain } from '../../test/use-test-chain';
import { decodeStoreTransfer } from './verify';
import { deployed, mined } from '../../chain/mined';

const STORE = DEV_ACCOUNTS[0];
/** Sends two wrong amounts, is refunded one, then signs in. */
const SLIPPER = DEV_ACCOUNTS[1]!;
/** Overpays an order, which is then refunded in three steps. */
const GENEROUS = DEV_ACCOUNTS[2]!;
/** Pays half of a checkout and gets part of it back. */
const SHORT = DEV_ACCOUNTS[3]!;
/** Anvil's account #4 (no POG at first, funded by GENEROUS): its transfer is where every wrong refund is tried. */
const TESTER = '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65';
/** Anvil's account #5: nobody's payment. */
const BYSTANDER = '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc';
const POG = 10n ** 18n;
const codeOf = async (response: Promise<Response>) => {
  const res = await response;
  return { status: res.status, code: ((await res.json()) as { code?: string }).code };
};
const testChain = useTestChain();

describe.each(testDatabaseKinds)('refunds verified on chain, on %s', (kind) => {
  let h: Harness;
  let pay: PayingKit;
  let unlimited: Variant;
  let admin: string;

  beforeAll(async () => {
    ({ h, pay, unlimited, admin } = await startPayingShop(kind, testChain));
    // The tester gets POG to pay with; the store gets a float to refund from (an unmatched transfer).
    await pay.send(GENEROUS, { value: 100_000n * POG, to: TESTER });
    await pay.send(TESTER, { value: 50_000n * POG });
  });
  afterAll(async () => {
    await h?.close();
  });

  const db = () => h.database.db;
  const asAdmin = (path: string, init: RequestInit = {}) => h.api(path, { ...init, headers: { cookie: admin, ...init.headers } });
  const refund = async (transferId: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await asAdmin(`/api/admin/payments/${transferId}/refund`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
  const queue = async (query = '') => {
    const res = await asAdmin(`/api/admin/payments/attention${query}`);
    expect(res.status).toBe(200);
    return attentionPageSchema.parse(await res.json());
  };
  /** The desk's item of a transfer, resolved or not. */
  const itemOf = async (txHash: string): Promise<AttentionItem> => {
    const all = [...(await queue()).items, ...(await queue('?resolved=true')).items];
    const item = all.find((i) => i.txHash === txHash.toLowerCase());
    expect(item, `desk item of ${txHash}`).toBeDefined();
    return item!;
  };
  const refundRows = (where: Record<string, unknown>) => db()('refunds').where(where).orderBy('id');
  const auditsOf = async (transferId: string) =>
    auditPageSchema
      .parse(await (await asAdmin('/api/admin/audit?limit=200')).json())
      .entries.filter((e) => e.action === 'payment-refunded' && e.target === transferId);
  /** Sends `value` POG from the store wallet to `to` (what the admin's wallet does); resolves once mined. */
  const sendRefund = (to: string, value: bigint) => pay.send(STORE, { value, to });
  const pogText = (wei: bigint) => formatUnits(wei, 18, 2);

  const made: { slip?: string; slip2?: string; slipRefund?: string; over?: string; overOrderId?: string; overShopper?: Shopper } = {};

  it('records a full refund of an unmatched transfer: the item is resolved, the transfer refunded, and it never counts again', async () => {
    // The slipper opens a checkout, then sends two amounts that identify nothing.
    const slipper = new Shopper(h);
    const c = await pay.checkout(slipper, unlimited.id, SLIPPER, 1);
    const a = 7n * POG + POG / 2n;
    const b = 3n * POG;
    made.slip = await pay.send(SLIPPER, { value: a });
    made.slip2 = await pay.send(SLIPPER, { value: b });
    await h.payments!.watcher.tick();
    const item = await itemOf(made.slip);
    expect(item).toMatchObject({
      kind: 'unmatched',
      refundable: pogText(a),
      refundableWei: a.toString(),
      refunds: [],
      refundTo: getAddress(SLIPPER),
      resolved: null,
    });

    made.slipRefund = await sendRefund(SLIPPER, a);
    const res = await refund(item.transferId, { transactionHash: made.slipRefund, amount: '7.5' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = attentionItemSchema.parse(res.body);
    expect(after).toEqual({
      ...item,
      confirmations: expect.any(Number),
      refundable: '0.00',
      refundableWei: '0',
      refunds: [
        {
          id: expect.any(String),
          transferId: item.transferId,
          orderId: null,
          to: SLIPPER.toLowerCase(),
          amount: '7.50',
          amountWei: a.toString(),
          txHash: made.slipRefund.toLowerCase(),
          explorerUrl: null, // the local demo chain
          at: expect.any(String),
          by: expect.any(String),
        },
      ],
      resolved: { at: expect.any(String), note: 'Refunded 7.50 POG' },
    });
    expect(await pay.transferRow(made.slip)).toMatchObject({ status: 'refunded', status_before_refund: 'unmatched' });
    // In the history, with its kind; no longer in the queue.
    expect((await queue()).items.find((i) => i.transferId === item.transferId)).toBeUndefined();
    expect((await queue('?resolved=true&kind=unmatched')).items.find((i) => i.transferId === item.transferId)).toEqual(after);
    const audit = await auditsOf(item.transferId);
    expect(audit).toHaveLength(1);
    expect(audit[0]!.changes).toEqual(
      expect.arrayContaining([
        { field: 'refundable', from: '7.50', to: '0.00' },
        { field: 'resolved', from: null, to: 'Refunded 7.50 POG' },
      ]),
    );

    // The same refund transaction for the slipper's other transfer: already recorded.
    const other = await itemOf(made.slip2);
    expect(await refund(other.transferId, { transactionHash: made.slipRefund, amount: '7.5' })).toMatchObject({
      status: 409,
      body: { code: ErrorCode.refundAlreadyRecorded },
    });
    expect(await refundRows({ transfer_id: Number(other.transferId) })).toHaveLength(0);

    // Presented again by the slipper: no order, still refunded.
    const again = await pay.createOrder(slipper, { checkoutId: c.id, transactionHash: made.slip });
    expect({ status: again.status, code: again.body.code }).toEqual({ status: 422, code: ErrorCode.paymentUnmatched });
    // Seen again as the watcher sees it: the same.
    const log = (await testChain.provider.getTransactionReceipt(made.slip))!.logs[0]!;
    const { chainId, tokenAddress, storeWallet } = h.payments!.target;
    const raw = { ...log.toJSON(), topics: [...log.topics], logIndex: log.index, removed: false };
    const seen = decodeStoreTransfer(raw, chainId, tokenAddress, storeWallet)!;
    expect(seen).toMatchObject({ txHash: made.slip.toLowerCase(), from: SLIPPER.toLowerCase() });
    expect(await h.payments!.settlement.settle(seen)).toEqual({ kind: 'unmatched' });
    expect(await pay.ordersFor(made.slip)).toHaveLength(0);

    // The slipper signs in: the transfer not refunded counts towards the checkout, the refunded one never does.
    await slipper.signIn(testChain.provider, SLIPPER);
    expect(await pay.transferRow(made.slip2)).toMatchObject({ status: 'underpaid', intent_id: c.id });
    expect(await pay.transferRow(made.slip)).toMatchObject({ status: 'refunded', intent_id: null, order_id: null });
    expect(await pay.checkoutOf(slipper, c.id)).toMatchObject({ status: 'underpaid', amountReceived: pogText(b) });
    expect(await refundRows({ transfer_id: Number(item.transferId) })).toHaveLength(1);

    // The slipper, signed in, sees the refund of a payment that made no order; nobody else does.
    const own = await slipper.request(`/api/refunds?wallet=${SLIPPER}`);
    expect(own.status).toBe(200);
    expect(own.headers.get('cache-control')).toBe('no-store');
    expect(z.array(refundLineSchema).parse(await own.json())).toEqual([
      { amount: '7.50', txHash: made.slipRefund.toLowerCase(), explorerUrl: null, at: after.refunds[0]!.at },
    ]);
    const stranger = new Shopper(h);
    expect(await codeOf(stranger.request(`/api/refunds?wallet=${SLIPPER}`))).toEqual({ status: 401, code: ErrorCode.signInRequired });
    await stranger.signIn(testChain.provider, BYSTANDER);
    expect(await codeOf(stranger.request(`/api/refunds?wallet=${SLIPPER}`))).toEqual({ status: 403, code: ErrorCode.walletMismatch });
    expect(await (await stranger.request(`/api/refunds?wallet=${BYSTANDER}`)).json()).toEqual([]);
    expect(await codeOf(stranger.request('/api/refunds?wallet=0x12'))).toEqual({ status: 400, code: ErrorCode.badRequest });
  });

  it('prepares a refund before the store wallet sends it: refused as recording would be, else the transfer is held from sign-in and attach', async () => {
    const bystander = new Shopper(h);
    const c = await pay.checkout(bystander, unlimited.id, BYSTANDER, 1);
    await pay.send(GENEROUS, { value: 50n * POG, to: BYSTANDER });
    const hash = await pay.send(BYSTANDER, { value: 3n * POG });
    await h.payments!.watcher.tick();
    const item = await itemOf(hash);
    expect(item).toMatchObject({ kind: 'unmatched' });
    const prepare = (body: unknown, init: RequestInit = {}) =>
      asAdmin(`/api/admin/payments/${item.transferId}/prepare-refund`, {
        method: 'POST',
        ...init,
        headers: { 'content-type': 'application/json', ...init.headers },
        body: JSON.stringify(body),
      });

    // More than it carried: refused, nothing held.
    const over = await prepare({ amount: '3.01' });
    expect({ status: over.status, code: (await over.json()).code }).toEqual({ status: 409, code: ErrorCode.refundExceedsRefundable });
    expect(await pay.transferRow(hash)).toMatchObject({ status: 'unmatched', refund_hold_until: null });
    expect((await prepare({ amount: '0' })).status).toBe(400);
    expect((await h.api(`/api/admin/payments/${item.transferId}/prepare-refund`, { method: 'POST' })).status).toBe(401);
    expect((await prepare({ amount: '3' }, { headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(403);

    // Prepared: held, so the payer's sign-in does not adopt it and no admin attaches it.
    const ready = await prepare({ amount: '3' });
    expect(ready.status).toBe(200);
    expect(attentionItemSchema.parse(await ready.json())).toMatchObject({
      transferId: item.transferId,
      refundableWei: (3n * POG).toString(),
    });
    // Held for 30 minutes of the shop's clock (the harness runs its own).
    const held = (await pay.transferRow(hash))!;
    expect(new Date(held.refund_hold_until as string).getTime() - new Date(held.created_at as string).getTime()).toBeGreaterThan(
      29 * 60_000,
    );
    await bystander.signIn(testChain.provider, BYSTANDER);
    expect(await pay.transferRow(hash)).toMatchObject({ status: 'unmatched', intent_id: null });
    const attach = await asAdmin(`/api/admin/payments/${item.transferId}/attach`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ checkoutId: c.id }),
    });
    expect({ status: attach.status, code: (await attach.json()).code }).toEqual({ status: 409, code: ErrorCode.transferNotAttachable });

    // The refund arrives and is recorded: the hold ends with it.
    const tx = await sendRefund(BYSTANDER, 3n * POG);
    expect((await refund(item.transferId, { transactionHash: tx, amount: '3' })).status).toBe(200);
    expect(await pay.transferRow(hash)).toMatchObject({ status: 'refunded', refund_hold_until: null });
    expect(await pay.checkoutOf(bystander, c.id)).toMatchObject({ amountReceived: '0.00' });
  });

  it('refunds an overpaid order: the excess resolves the item, a partial refund changes no status, the rest makes it refunded', async () => {
    const generous = new Shopper(h);
    await generous.signIn(testChain.provider, GENEROUS);
    const c = await pay.checkout(generous, unlimited.id, GENEROUS, 1);
    const value = BigInt(c.amountWei) + POG;
    made.over = await pay.send(GENEROUS, { value });
    await h.payments!.watcher.tick();
    const [order] = await pay.ordersFor(made.over);
    expect(order).toMatchObject({ status: 'paid', overpaid: true });
    const orderId = order!.id as string;
    made.overOrderId = orderId;
    made.overShopper = generous;
    const item = await itemOf(made.over);
    const excessWei = value - BigInt(order!.total_wei as string);
    expect(item).toMatchObject({ kind: 'overpaid', orderId, excess: pogText(excessWei), refundableWei: value.toString() });

    // Excess only.
    const excessTx = await sendRefund(GENEROUS, excessWei);
    const body = { transactionHash: excessTx, amount: item.excess };
    const first = await refund(item.transferId, body);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({
      refundableWei: (value - excessWei).toString(),
      resolved: { note: `Refunded ${item.excess} POG` },
      refunds: [{ orderId, amountWei: excessWei.toString() }],
    });
    // Asked again (a double tap, a retry): the same answer, one row, one audit entry.
    const repeat = await refund(item.transferId, body);
    expect(repeat).toEqual({ status: 200, body: { ...first.body, confirmations: expect.any(Number) } });
    expect(await refundRows({ transfer_id: Number(item.transferId) })).toHaveLength(1);
    expect(await auditsOf(item.transferId)).toHaveLength(1);
    expect(await pay.ordersFor(made.over)).toMatchObject([{ status: 'paid' }]);

    // A partial refund: recorded, and the order stays paid.
    const partTx = await sendRefund(GENEROUS, 5n * POG);
    expect((await refund(item.transferId, { transactionHash: partTx, amount: '5.00' })).status).toBe(200);
    expect(await pay.ordersFor(made.over)).toMatchObject([{ status: 'paid' }]);

    // The rest: everything paid went back, so the order is refunded.
    const rest = value - excessWei - 5n * POG;
    const restTx = await sendRefund(GENEROUS, rest);
    const last = await refund(item.transferId, { transactionHash: restTx, amount: formatUnits(rest, 18, 2) });
    expect(last.status).toBe(200);
    expect(last.body).toMatchObject({ refundable: '0.00', refundableWei: '0' });
    expect(last.body.refunds.map((r: { amountWei: string }) => BigInt(r.amountWei))).toEqual([excessWei, 5n * POG, rest]);
    expect(await pay.ordersFor(made.over)).toMatchObject([{ status: 'refunded', needs_shipping: false }]);
    expect(await pay.transferRow(made.over)).toMatchObject({ status: 'matched', status_before_refund: null });
    const audit = await auditsOf(item.transferId);
    expect(audit).toHaveLength(3);
    expect(audit[0]!.changes).toContainEqual({ field: `order ${orderId} status`, from: 'paid', to: 'refunded' });

    // The shopper sees each refund, on the order and in the wallet's list.
    const res = await generous.request(`/api/orders/${orderId}`);
    expect(res.status).toBe(200);
    const seen = orderSchema.parse(await res.json());
    expect(seen.status).toBe('refunded');
    expect(seen.refunds).toEqual(
      [
        [excessTx, excessWei],
        [partTx, 5n * POG],
        [restTx, rest],
      ].map(([hash, wei]) => ({
        amount: formatUnits(wei as bigint, 18, 2),
        txHash: (hash as string).toLowerCase(),
        explorerUrl: null,
        at: expect.any(String),
      })),
    );
    const list = await generous.request(`/api/orders?wallet=${GENEROUS}`);
    expect(list.status).toBe(200);
    expect(((await list.json()) as Array<{ id: string; refunds: unknown[] }>).find((o) => o.id === orderId)?.refunds).toHaveLength(3);

    // Refunded before its hand-off ran: Shopify never gets a draft order for it.
    await h.payments!.handoff.runDue();
    expect(await db()('orders').where({ id: orderId }).first()).toMatchObject({ shopify_draft_order_id: null, status: 'refunded' });
    expect(await db()('outbox').where({ kind: 'shopify-draft-order', order_id: orderId }).first()).toMatchObject({
      done_at: expect.anything(),
      last_error: expect.stringContaining('refunded before its hand-off'),
    });
  });

  it('refunds a plain payment from the orders view: looked up by id (kind paid, never queued), it makes the order refunded', async () => {
    const buyer = new Shopper(h);
    const c = await pay.checkout(buyer, unlimited.id, GENEROUS, 1);
    const paid = BigInt(c.amountWei);
    const hash = await pay.send(GENEROUS, { value: paid });
    await h.payments!.watcher.tick();
    const [order] = await pay.ordersFor(hash);
    expect(order).toMatchObject({ status: 'paid', overpaid: false, late: false });
    const orderId = order!.id as string;
    const transferId = String((await pay.transferRow(hash))!.id);
    // Nothing is wrong with it: in neither the queue nor the history, and it cannot be resolved.
    const listed = [...(await queue()).items, ...(await queue('?resolved=true')).items];
    expect(listed.find((i) => i.transferId === transferId)).toBeUndefined();
    const resolve = await asAdmin(`/api/admin/payments/${transferId}/resolve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ note: 'nothing to do' }),
    });
    expect(resolve.status).toBe(404);
    // Looked up by id, it is a plain payment of the order.
    const looked = await asAdmin(`/api/admin/payments/${transferId}`);
    expect(looked.status).toBe(200);
    expect(attentionItemSchema.parse(await looked.json())).toMatchObject({
      kind: 'paid',
      orderId,
      refundableWei: paid.toString(),
      refunds: [],
    });

    const tx = await sendRefund(GENEROUS, paid);
    const done = await refund(transferId, { transactionHash: tx, amount: formatUnits(paid, 18, 18) });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(attentionItemSchema.parse(done.body)).toMatchObject({ kind: 'paid', refundableWei: '0' });
    expect((await db()('orders').where({ id: orderId }).first()).status).toBe('refunded');
    const seen = orderSchema.parse(await (await buyer.request(`/api/orders/${orderId}`)).json());
    expect(seen).toMatchObject({
      status: 'refunded',
      needsShipping: false,
      shippingReady: false,
      refunds: [{ amount: pogText(paid), txHash: tx.toLowerCase() }],
    });
    expect(await auditsOf(transferId)).toHaveLength(1);
    // Its shipping link never forwards to Shopify's form again, even once the form exists.
    await db()('orders').where({ id: orderId }).update({ shopify_invoice_url: 'https://shop.example/invoices/secret' });
    const link = await buyer.request(`/orders/${orderId}/shipping`, { redirect: 'manual' });
    expect(link.headers.get('location')).toBeNull();
    expect(orderSchema.parse(await (await buyer.request(`/api/orders/${orderId}`)).json()).shippingReady).toBe(false);

    // Strangers look nothing up; a transfer that does not exist is 404.
    expect((await h.api(`/api/admin/payments/${transferId}`)).status).toBe(401);
    expect((await asAdmin(`/api/admin/payments/${transferId}`, { headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(403);
    expect((await asAdmin('/api/admin/payments/99999999')).status).toBe(404);
    expect((await asAdmin('/api/admin/payments/not-a-number')).status).toBe(404);
  });

  it('records a partial refund of an underpaid transfer, which then no longer counts towards its checkout', async () => {
    const short = new Shopper(h);
    await short.signIn(testChain.provider, SHORT);
    const c = await pay.checkout(short, unlimited.id, SHORT, 2);
    const half = BigInt(c.amountWei) / 2n;
    const hash = await pay.send(SHORT, { value: half });
    await h.payments!.watcher.tick();
    expect(await pay.checkoutOf(short, c.id)).toMatchObject({ status: 'underpaid', amountReceived: pogText(half) });
    const item = await itemOf(hash);
    const tx = await sendRefund(SHORT, POG);
    const res = await refund(item.transferId, { transactionHash: tx, amount: '1' });
    expect(res.status).toBe(200);
    // Money is still refundable: the item stays in the queue.
    expect(res.body).toMatchObject({ kind: 'underpaid', refundableWei: (half - POG).toString(), resolved: null });
    expect((await queue('?kind=underpaid')).items.map((i) => i.transferId)).toContain(item.transferId);
    expect(await pay.transferRow(hash)).toMatchObject({ status: 'refunded', status_before_refund: 'underpaid' });
    expect(await pay.checkoutOf(short, c.id)).toMatchObject({ amountReceived: '0.00' });
  });

  it('refuses a refund that is not what was prepared, with its code, and records it nowhere', async () => {
    const paid = await pay.send(TESTER, { value: 10n * POG });
    await h.payments!.watcher.tick();
    const item = await itemOf(paid);
    expect(item).toMatchObject({ kind: 'unmatched', refundTo: TESTER });
    const before = { audit: (await auditsOf(item.transferId)).length, refunds: (await db()('refunds').count({ n: '*' }))[0]!.n };

    const otherToken = await new ContractFactory(artifact.abi, artifact.bytecode, await testChain.provider.getSigner(STORE)).deploy(
      [STORE],
      1_000n * POG,
    );
    await deployed(otherToken);
    const refusals: Array<[string, () => Promise<string>, string, number]> = [
      // Another token (same name, same decimals: not the shop's).
      [
        'another token',
        async () => pay.send(STORE, { value: 2n * POG, to: TESTER, tokenAddress: await otherToken.getAddress() }),
        ErrorCode.refundWrongToken,
        422,
      ],
      // A transaction that moves no token at all.
      [
        'no transfer',
        async () => {
          const tx = await (await testChain.provider.getSigner(STORE)).sendTransaction({ to: TESTER, value: 1n });
          await mined(tx);
          return tx.hash;
        },
        ErrorCode.refundWrongToken,
        422,
      ],
      ['another wallet', () => pay.send(GENEROUS, { value: 2n * POG, to: TESTER }), ErrorCode.refundNotFromStoreWallet, 422],
      ['another recipient', () => pay.send(STORE, { value: 2n * POG, to: BYSTANDER }), ErrorCode.refundWrongRecipient, 422],
      ['another amount', () => sendRefund(TESTER, 3n * POG), ErrorCode.refundWrongAmount, 422],
      ['more than it paid', () => sendRefund(TESTER, 11n * POG), ErrorCode.refundExceedsRefundable, 409],
    ];
    for (const [what, send, code, status] of refusals) {
      const hash = await send();
      const amount = what === 'more than it paid' ? '11' : '2';
      const res = await refund(item.transferId, { transactionHash: hash, amount });
      expect({ what, status: res.status, code: res.body.code }).toEqual({ what, status, code });
      expect(typeof res.body.message).toBe('string');
      expect(await refundRows({ tx_hash: hash.toLowerCase() })).toHaveLength(0);
    }

    // Reverted (more than the store holds): nothing was sent.
    const reverted = await sendRefund(TESTER, 10n ** 12n * POG);
    expect((await testChain.provider.getTransactionReceipt(reverted))?.status).toBe(0);
    expect(await refund(item.transferId, { transactionHash: reverted, amount: '1000000000000' })).toMatchObject({
      status: 422,
      body: { code: ErrorCode.transactionFailed },
    });
    // No such transaction.
    expect(await refund(item.transferId, { transactionHash: '0x' + '12'.repeat(32), amount: '1' })).toMatchObject({
      status: 404,
      body: { code: ErrorCode.transactionNotFound },
    });
    // Malformed requests, and transfers the desk does not have.
    for (const bad of [{}, { transactionHash: paid }, { transactionHash: paid, amount: '0' }, { transactionHash: 'x', amount: '1' }]) {
      expect((await refund(item.transferId, { ...bad })).status).toBe(400);
    }
    for (const id of ['999999', 'abc']) {
      expect(await refund(id, { transactionHash: paid, amount: '1' })).toMatchObject({
        status: 404,
        body: { code: ErrorCode.attentionItemNotFound },
      });
    }

    expect(await pay.transferRow(paid)).toMatchObject({ status: 'unmatched', status_before_refund: null });
    expect(await itemOf(paid)).toEqual({ ...item, confirmations: expect.any(Number) });
    expect((await auditsOf(item.transferId)).length).toBe(before.audit);
    expect((await db()('refunds').count({ n: '*' }))[0]!.n).toBe(before.refunds);
  });

  it('refuses a refund mined before the payment, one of a transfer a reorganisation removed, and ids no transfer can have', async () => {
    const amount = 4n * POG + 7n;
    // An earlier transfer from the store to the tester (a payout, say) cannot be the refund of a later payment.
    const earlier = await sendRefund(TESTER, amount);
    const later = await pay.send(TESTER, { value: amount });
    await h.payments!.watcher.tick();
    const item = await itemOf(later);
    expect(await refund(item.transferId, { transactionHash: earlier, amount: '4.000000000000000007' })).toMatchObject({
      status: 422,
      body: { code: ErrorCode.refundBeforePayment },
    });
    expect(await refundRows({ transfer_id: Number(item.transferId) })).toHaveLength(0);

    // Taken off the chain by a reorganisation: the store kept nothing of it, so nothing is refundable.
    await db()('chain_transfers')
      .where({ id: Number(item.transferId) })
      .update({ status: 'removed' });
    try {
      expect(await itemOf(later)).toMatchObject({ kind: 'reorged', refundableWei: '0', refundable: '0.00' });
      const tx = await sendRefund(TESTER, amount);
      expect(await refund(item.transferId, { transactionHash: tx, amount: '4.000000000000000007' })).toMatchObject({
        status: 409,
        body: { code: ErrorCode.transferNotRefundable },
      });
      expect(await refundRows({ transfer_id: Number(item.transferId) })).toHaveLength(0);
      expect(await pay.transferRow(later)).toMatchObject({ status: 'removed' });
    } finally {
      await db()('chain_transfers')
        .where({ id: Number(item.transferId) })
        .update({ status: 'unmatched' });
    }

    // Past what a transfer id can be (a positive int4): 404, never a 500.
    const json = (body: unknown): RequestInit => ({
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    for (const id of ['2147483648', '999999999999', '0', '-1', '1.5']) {
      const answers = await Promise.all([
        asAdmin(`/api/admin/payments/${id}`),
        asAdmin(`/api/admin/payments/${id}/candidates`),
        asAdmin(`/api/admin/payments/${id}/resolve`, json({ note: 'x' })),
        asAdmin(`/api/admin/payments/${id}/attach`, json({ checkoutId: '3b241101-e2bb-4255-8caf-4136c566a962' })),
        asAdmin(`/api/admin/payments/${id}/refund`, json({ transactionHash: earlier, amount: '1' })),
      ]);
      expect(
        answers.map((a) => a.status),
        id,
      ).toEqual([404, 404, 404, 404, 404]);
    }
  });

  it('records a refund racing the payment that finishes its checkout against the order it was counted in (Postgres)', async () => {
    // PGlite runs one transaction at a time, so only Postgres can interleave them.
    if (kind !== 'postgres') return;
    const buyer = new Shopper(h);
    await buyer.signIn(testChain.provider, GENEROUS);
    const c = await pay.checkout(buyer, unlimited.id, GENEROUS, 2);
    const half = BigInt(c.amountWei) / 2n;
    const hashA = await pay.send(GENEROUS, { value: half });
    await h.payments!.watcher.tick();
    const underpaid = await pay.checkoutOf(buyer, c.id);
    expect(underpaid.status).toBe('underpaid');
    const a = (await pay.transferRow(hashA))!;
    const refundTx = await sendRefund(GENEROUS, half);
    const hashB = await pay.send(GENEROUS, { value: BigInt(underpaid.amountWei) });
    // The order's insert waits 2 s, inside the settlement's transaction, while the refund is posted.
    await db().raw(
      'create or replace function refund_race_slow() returns trigger as $$ begin perform pg_sleep(2); return new; end $$ language plpgsql',
    );
    await db().raw('create trigger refund_race_slow before insert on orders for each row execute function refund_race_slow()');
    let res: Awaited<ReturnType<typeof refund>>;
    try {
      const settling = h.payments!.watcher.tick();
      await new Promise((r) => setTimeout(r, 700));
      res = await refund(String(a.id), { transactionHash: refundTx, amount: formatUnits(half, 18, 18) });
      await settling;
    } finally {
      await db().raw('drop trigger if exists refund_race_slow on orders');
    }
    const [order] = await pay.ordersFor(hashB);
    expect(order).toMatchObject({ status: 'paid', amount_paid_wei: String(BigInt(underpaid.amountWei) + half) });
    // The payment came first and counted A; the refund waited for it and is recorded against that
    // order (the admin sees it there), never as money that went back and still paid for the order.
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await pay.transferRow(hashA)).toMatchObject({ status: 'matched', order_id: order!.id });
    expect(await refundRows({ transfer_id: Number(a.id) })).toEqual([expect.objectContaining({ order_id: order!.id })]);
  });

  it('answers 202 while the refund is not mined, then records it', async () => {
    const item = (await queue('?kind=unmatched')).items.find((i) => i.sender === TESTER.toLowerCase() && i.amount === '10.00')!;
    const { tokenAddress } = h.payments!.target;
    await testChain.provider.send('evm_setAutomine', [false]);
    let hash: string;
    try {
      hash = (await sendTokenTransfer(testChain.provider, STORE, { token: tokenAddress, to: TESTER, value: POG })).hash;
      const waiting = await refund(item.transferId, { transactionHash: hash, amount: '1' });
      expect({ status: waiting.status, code: waiting.body.code }).toEqual({ status: 202, code: ErrorCode.awaitingConfirmations });
      expect(await refundRows({ tx_hash: hash.toLowerCase() })).toHaveLength(0);
      await pay.mine();
    } finally {
      await testChain.provider.send('evm_setAutomine', [true]);
    }
    const done = await refund(item.transferId, { transactionHash: hash, amount: '1' });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ refundable: '9.00', resolved: null });
  });

  it('records only one of two refunds sent at once whose sum exceeds what is refundable', async () => {
    const item = (await queue('?kind=unmatched')).items.find((i) => i.sender === TESTER.toLowerCase() && i.amount === '10.00')!;
    expect(item.refundable).toBe('9.00');
    const one = await sendRefund(TESTER, 6n * POG);
    const two = await sendRefund(TESTER, 6n * POG);
    const answers = await Promise.all([one, two].map((hash) => refund(item.transferId, { transactionHash: hash, amount: '6' })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)!.body.code).toBe(ErrorCode.refundExceedsRefundable);
    const rows = await refundRows({ transfer_id: Number(item.transferId) });
    expect(rows.map((r) => BigInt(r.amount_wei))).toEqual([POG, 6n * POG]);
    expect((await itemOf(item.txHash)).refundable).toBe('3.00');
    expect(await auditsOf(item.transferId)).toHaveLength(2);
  });

  it('exports what each order and each transfer that made none was paid and refunded', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const text = await (await asAdmin(`/api/admin/payments/export.csv?from=${today}&to=${today}`)).text();
    const rows = text
      .trim()
      .split('\r\n')
      .map((r) => r.split(','));
    const [order] = await pay.ordersFor(made.over!);
    expect(rows.find((r) => r[1] === made.overOrderId)).toEqual([
      new Date(order!.paid_at as string).toISOString(),
      made.overOrderId,
      'refunded',
      made.over!.toLowerCase(),
      GENEROUS.toLowerCase(),
      formatUnits(BigInt(order!.amount_paid_wei as string), 18, 2),
      formatUnits(BigInt(order!.amount_paid_wei as string), 18, 2),
      '',
      '', // usd_at_payment: this shop has no dollar reference
    ]);
    // The slipper's two wrong amounts made no order: one went back in full, the other still waits
    // (it counts towards the slipper's checkout, which the rest has not reached).
    const slip = await pay.transferRow(made.slip!);
    const slip2 = await pay.transferRow(made.slip2!);
    expect(rows.find((r) => r[3] === made.slip!.toLowerCase())).toEqual([
      new Date(slip!.created_at as string).toISOString(),
      '',
      'refunded',
      made.slip!.toLowerCase(),
      SLIPPER.toLowerCase(),
      '7.50',
      '7.50',
      '',
      '', // usd_at_payment: this shop has no dollar reference
    ]);
    expect(rows.find((r) => r[3] === made.slip2!.toLowerCase())).toEqual([
      new Date(slip2!.created_at as string).toISOString(),
      '',
      'underpaid',
      made.slip2!.toLowerCase(),
      SLIPPER.toLowerCase(),
      '3.00',
      '0.00',
      '',
      '', // usd_at_payment: this shop has no dollar reference
    ]);
    // Oldest first, every row once.
    const dates = rows.slice(1).map((r) => r[0]!);
    expect(dates).toEqual([...dates].sort());
    expect(new Set(rows.slice(1).map((r) => r[3])).size).toBe(rows.length - 1);
  });

  it('answers nothing to a stranger without the admin session, nor to another site', async () => {
    const item = (await queue('?kind=unmatched')).items.find((i) => i.sender === TESTER.toLowerCase() && i.amount === '10.00')!;
    const tx = await sendRefund(TESTER, POG);
    const stranger = new Shopper(h);
    const res = await stranger.post(`/api/admin/payments/${item.transferId}/refund`, { transactionHash: tx, amount: '1' });
    expect(res.status).toBe(401);
    expect((await res.json()).code).toBe(ErrorCode.adminSessionRequired);
    for (const headers of [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }] as Array<Record<string, string>>) {
      expect(await refund(item.transferId, { transactionHash: tx, amount: '1' }, headers)).toMatchObject({
        status: 403,
        body: { code: ErrorCode.crossSiteRequest },
      });
    }
    expect(await refundRows({ tx_hash: tx.toLowerCase() })).toHaveLength(0);
    expect((await itemOf(item.txHash)).refundable).toBe('3.00');
  });
});
