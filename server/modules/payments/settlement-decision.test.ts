import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../common/errors';
import { HTTP_STATUS } from '../../lib/errors';
import {
  ATTACHED,
  attachRefusal,
  decideOrder,
  decidePayment,
  notAttachable,
  onRefundHold,
  type CheckoutFacts,
  type MatchedBy,
  type PaidInFull,
  type PaymentFacts,
  type StockAtSettlement,
} from './settlement-decision';

const POG = 10n ** 18n;
const CENT = POG / 100n;
const TOTAL = 25n * POG;
const SUFFIX = 482_913_775_102n;
const NOW = new Date('2026-11-01T12:00:00Z');
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);
const HOUR_MS = 3_600_000;
const LATE_MS = 24 * HOUR_MS;
const PROVEN = 'matched by the proven sender (not the exact amount)';

function checkout(over: Partial<CheckoutFacts> = {}): CheckoutFacts {
  return {
    id: 'c1',
    sessionId: 's1',
    status: 'open',
    totalWei: TOTAL,
    expiresAt: at(10),
    matchUntil: at(60),
    stockClaimedUntil: null,
    ...over,
  };
}
function facts(
  over: { checkout?: Partial<CheckoutFacts>; by?: MatchedBy; valueWei?: bigint; receivedBeforeWei?: bigint } = {},
): PaymentFacts {
  return {
    now: NOW,
    latePaymentMs: LATE_MS,
    valueWei: over.valueWei ?? TOTAL + SUFFIX,
    match: { checkout: checkout(over.checkout), by: over.by ?? 'amount' },
    receivedBeforeWei: over.receivedBeforeWei ?? 0n,
  };
}

describe('decidePayment: what the money does to the checkout it identifies', () => {
  it('keeps a transfer that identifies no checkout as unmatched, for the admin', () => {
    expect(decidePayment({ ...facts(), match: null })).toEqual({
      kind: 'unmatched',
      transfer: {
        status: 'unmatched',
        intentId: null,
        note: 'no payable checkout has this exact amount, and the sender is no proven wallet of one',
      },
      settlement: { kind: 'unmatched' },
    });
  });

  it.each<{ name: string; by: MatchedBy }>([
    { name: 'by its exact amount', by: 'amount' },
    { name: 'by the proven sender', by: 'proven-sender' },
    { name: 'by the admin', by: 'admin' },
  ])('keeps a further payment for an already paid checkout for a refund ($name)', ({ by }) => {
    expect(decidePayment(facts({ by, checkout: { status: 'paid' }, valueWei: 1n }))).toEqual({
      kind: 'extra-payment',
      transfer: { status: 'extra-payment', intentId: 'c1', note: 'a further payment for an already paid checkout (refund it)' },
      settlement: { kind: 'extra-payment', intentId: 'c1', sessionId: 's1' },
    });
  });

  it.each<{
    name: string;
    by: MatchedBy;
    receivedBeforeWei: bigint;
    valueWei: bigint;
    matchUntil: Date;
    note: string;
    dueWei: bigint;
    remainderBaseWei: bigint;
    payableUntil: Date;
  }>([
    {
      name: 'a first part, by its exact amount: payable for the late-payment time from now',
      by: 'amount',
      receivedBeforeWei: 0n,
      valueWei: 10n * POG + SUFFIX,
      matchUntil: at(60),
      note: `received ${10n * POG + SUFFIX} of ${TOTAL} wei`,
      dueWei: 15n * POG - SUFFIX,
      remainderBaseWei: 15n * POG,
      payableUntil: new Date(NOW.getTime() + LATE_MS),
    },
    {
      name: 'a part that leaves a fraction of a cent: the remainder is rounded up to the cent',
      by: 'amount',
      receivedBeforeWei: 0n,
      valueWei: TOTAL - CENT / 2n,
      matchUntil: at(60),
      note: `received ${TOTAL - CENT / 2n} of ${TOTAL} wei`,
      dueWei: CENT / 2n,
      remainderBaseWei: CENT,
      payableUntil: new Date(NOW.getTime() + LATE_MS),
    },
    {
      name: 'a second part that is still short, its checkout payable longer than that: kept',
      by: 'amount',
      receivedBeforeWei: 10n * POG,
      valueWei: 5n * POG,
      matchUntil: at(48 * 60),
      note: `received ${15n * POG} of ${TOTAL} wei`,
      dueWei: 10n * POG,
      remainderBaseWei: 10n * POG,
      payableUntil: at(48 * 60),
    },
    {
      name: 'a wrong amount from the proven sender',
      by: 'proven-sender',
      receivedBeforeWei: 0n,
      valueWei: 20n * POG,
      matchUntil: at(60),
      note: `${PROVEN}; received ${20n * POG} of ${TOTAL} wei`,
      dueWei: 5n * POG,
      remainderBaseWei: 5n * POG,
      payableUntil: new Date(NOW.getTime() + LATE_MS),
    },
    {
      name: 'a transfer the admin attached',
      by: 'admin',
      receivedBeforeWei: 0n,
      valueWei: 20n * POG,
      matchUntil: at(60),
      note: `${ATTACHED}; received ${20n * POG} of ${TOTAL} wei`,
      dueWei: 5n * POG,
      remainderBaseWei: 5n * POG,
      payableUntil: new Date(NOW.getTime() + LATE_MS),
    },
  ])('counts an underpayment towards the checkout: $name', (row) => {
    const { by, receivedBeforeWei, valueWei, matchUntil } = row;
    expect(decidePayment(facts({ by, receivedBeforeWei, valueWei, checkout: { matchUntil } }))).toEqual({
      kind: 'underpaid',
      transfer: { status: 'underpaid', intentId: 'c1', note: row.note },
      checkout: { id: 'c1', matchUntil: row.payableUntil },
      remainderBaseWei: row.remainderBaseWei,
      settlement: { kind: 'underpaid', intentId: 'c1', sessionId: 's1', receivedWei: receivedBeforeWei + valueWei, dueWei: row.dueWei },
    });
  });

  it.each<{
    name: string;
    checkout: Partial<CheckoutFacts>;
    receivedBeforeWei?: bigint;
    valueWei: bigint;
    receivedWei: bigint;
    late: boolean;
    claimed: boolean;
  }>([
    { name: 'the exact amount in time', checkout: {}, valueWei: TOTAL + SUFFIX, receivedWei: TOTAL + SUFFIX, late: false, claimed: false },
    { name: 'exactly the total (no suffix)', checkout: {}, valueWei: TOTAL, receivedWei: TOTAL, late: false, claimed: false },
    { name: 'more than the total', checkout: {}, valueWei: TOTAL + 3n * POG, receivedWei: TOTAL + 3n * POG, late: false, claimed: false },
    {
      name: 'the rest after a partial payment (late: it was underpaid first)',
      checkout: { status: 'underpaid' },
      receivedBeforeWei: 10n * POG,
      valueWei: 15n * POG + SUFFIX,
      receivedWei: TOTAL + SUFFIX,
      late: true,
      claimed: false,
    },
    {
      name: 'after its time, still open',
      checkout: { expiresAt: at(-1) },
      valueWei: TOTAL + SUFFIX,
      receivedWei: TOTAL + SUFFIX,
      late: true,
      claimed: false,
    },
    {
      name: 'at the very moment its time ends',
      checkout: { expiresAt: NOW },
      valueWei: TOTAL + SUFFIX,
      receivedWei: TOTAL + SUFFIX,
      late: true,
      claimed: false,
    },
    {
      name: 'after the sweep marked it expired',
      checkout: { status: 'expired', expiresAt: at(-30) },
      valueWei: TOTAL + SUFFIX,
      receivedWei: TOTAL + SUFFIX,
      late: true,
      claimed: false,
    },
    {
      name: 'with its stock claimed while the payment was on its way',
      checkout: { stockClaimedUntil: at(5) },
      valueWei: TOTAL + SUFFIX,
      receivedWei: TOTAL + SUFFIX,
      late: false,
      claimed: true,
    },
    {
      name: 'with a claim that lapsed (just now)',
      checkout: { stockClaimedUntil: NOW },
      valueWei: TOTAL + SUFFIX,
      receivedWei: TOTAL + SUFFIX,
      late: false,
      claimed: false,
    },
  ])('is paid in full: $name', (row) => {
    const decided = decidePayment(facts({ checkout: row.checkout, receivedBeforeWei: row.receivedBeforeWei, valueWei: row.valueWei }));
    expect(decided).toEqual({
      kind: 'paid-in-full',
      checkout: checkout(row.checkout),
      by: 'amount',
      receivedWei: row.receivedWei,
      late: row.late,
      claimed: row.claimed,
    });
  });

  it('judges by what the checkout received, whoever sent the rest', () => {
    expect(decidePayment(facts({ receivedBeforeWei: TOTAL, valueWei: 1n })).kind).toBe('paid-in-full');
    expect(decidePayment(facts({ receivedBeforeWei: TOTAL - 2n, valueWei: 1n })).kind).toBe('underpaid');
  });
});

describe('decideOrder: the order of a payment in full, given the stock', () => {
  const LIMITED = { variant_id: 'v1', available_stock: 3, inventory_quantity: null };
  const UNLIMITED = { variant_id: 'v2', available_stock: null, inventory_quantity: null };
  type PaidOver = Omit<Partial<PaidInFull>, 'checkout'> & { checkout?: Partial<CheckoutFacts> };
  const paid = (over: PaidOver = {}): PaidInFull => ({
    kind: 'paid-in-full',
    by: 'amount',
    receivedWei: TOTAL + SUFFIX,
    late: false,
    claimed: false,
    ...over,
    checkout: checkout(over.checkout),
  });
  const stock = (over: Partial<StockAtSettlement> = {}): StockAtSettlement => ({ lines: [LIMITED, UNLIMITED], short: null, ...over });

  it('makes the order, empties the bought lines from the cart and matches the transfer', () => {
    expect(decideOrder(paid(), stock())).toEqual({
      transfer: { status: 'matched', intentId: 'c1', note: null },
      order: { amountPaidWei: TOTAL + SUFFIX, overpaid: false, late: false, outOfStock: null },
      bumpCatalogue: true,
      emptyCart: { sessionId: 's1', variantIds: ['v1', 'v2'] },
      settlement: { kind: 'order', intentId: 'c1', sessionId: 's1', created: true, overpaid: false, late: false },
    });
  });

  it.each<{ name: string; paid: PaidOver; stock: Partial<StockAtSettlement>; expected: object }>([
    {
      name: 'an excess below a cent is the identifying suffix, not an overpayment',
      paid: { receivedWei: TOTAL + CENT - 1n },
      stock: {},
      expected: { order: expect.objectContaining({ overpaid: false }), transfer: expect.objectContaining({ note: null }) },
    },
    {
      name: 'an excess of a cent is an overpayment, noted with the excess',
      paid: { receivedWei: TOTAL + CENT },
      stock: {},
      expected: {
        order: { amountPaidWei: TOTAL + CENT, overpaid: true, late: false, outOfStock: null },
        transfer: { status: 'matched', intentId: 'c1', note: `overpaid by ${CENT} wei` },
        settlement: expect.objectContaining({ overpaid: true }),
      },
    },
    {
      name: 'late is carried to the order and the answer',
      paid: { late: true },
      stock: {},
      expected: { order: expect.objectContaining({ late: true }), settlement: expect.objectContaining({ late: true }) },
    },
    {
      name: 'the stock gone: the order is held, the line named',
      paid: {},
      stock: { short: 'Only 1 items available' },
      expected: {
        order: { amountPaidWei: TOTAL + SUFFIX, overpaid: false, late: false, outOfStock: 'Only 1 items available' },
        transfer: { status: 'matched', intentId: 'c1', note: 'paid after the stock was gone' },
      },
    },
    {
      name: 'claimed stock is the checkout’s: never judged short',
      paid: { claimed: true },
      stock: { short: 'Only 1 items available' },
      expected: { order: expect.objectContaining({ outOfStock: null }), transfer: expect.objectContaining({ note: null }) },
    },
    {
      name: 'a claim that became an order moves held stock, even of lines without a known limit',
      paid: { claimed: true },
      stock: { lines: [UNLIMITED] },
      expected: { bumpCatalogue: true },
    },
    {
      name: 'lines without a known limit, nothing claimed: the product list does not change',
      paid: {},
      stock: { lines: [UNLIMITED] },
      expected: { bumpCatalogue: false, emptyCart: { sessionId: 's1', variantIds: ['v2'] } },
    },
    {
      name: 'a checkout without a session has no cart to empty',
      paid: { checkout: { sessionId: null } },
      stock: {},
      expected: { emptyCart: null, settlement: expect.objectContaining({ sessionId: null }) },
    },
    {
      name: 'everything at once, matched by the proven sender: every note, in order',
      paid: { by: 'proven-sender', receivedWei: TOTAL + 2n * POG, late: true },
      stock: { short: 'Sold out' },
      expected: {
        transfer: { status: 'matched', intentId: 'c1', note: `${PROVEN}; overpaid by ${2n * POG} wei; paid after the stock was gone` },
        order: { amountPaidWei: TOTAL + 2n * POG, overpaid: true, late: true, outOfStock: 'Sold out' },
      },
    },
    {
      name: 'attached by the admin: the note starts with it (attaching again recognises it)',
      paid: { by: 'admin' },
      stock: {},
      expected: { transfer: { status: 'matched', intentId: 'c1', note: ATTACHED } },
    },
  ])('$name', (row) => {
    expect(decideOrder(paid(row.paid), stock(row.stock))).toMatchObject(row.expected);
  });
});

describe('attaching a transfer', () => {
  const transfer = {
    id: 7,
    chain_id: 8453,
    token_address: '0xtoken',
    to_address: '0xstore',
    created_at: at(-10),
    refund_hold_until: null as Date | null,
  };
  const intent = { id: 'c1', status: 'open', chain_id: 8453, token_address: '0xtoken', store_wallet: '0xstore', created_at: at(-20) };
  const refusal = (t: Partial<typeof transfer>, c: Partial<typeof intent>) => {
    const err = attachRefusal({ ...transfer, ...t }, { ...intent, ...c }, NOW);
    return err && `${HTTP_STATUS[err.code]} ${err.code}: ${err.message}`;
  };

  it.each<{ name: string; transfer?: Partial<typeof transfer>; checkout?: Partial<typeof intent>; refused: string | null }>([
    { name: 'an unpaid checkout of the same chain, token and wallet, opened before', refused: null },
    { name: 'an underpaid or expired checkout', checkout: { status: 'underpaid' }, refused: null },
    { name: 'a refund hold that has lapsed', transfer: { refund_hold_until: NOW }, refused: null },
    { name: 'a checkout opened the moment the transfer was seen', checkout: { created_at: at(-10) }, refused: null },
    {
      name: 'a refund of it that may be on its way',
      transfer: { refund_hold_until: at(30) },
      refused: `409 transfer-not-attachable: Transfer 7 cannot be attached: a refund of it was prepared and may be on its way back to the sender (until ${at(30).toISOString()}). Record that refund, or attach it after then.`,
    },
    {
      name: 'a paid checkout',
      checkout: { status: 'paid' },
      refused: '409 checkout-not-attachable: Checkout c1 is already paid: this transfer would only be an excess (refund it instead).',
    },
    {
      name: 'another chain',
      checkout: { chain_id: 1 },
      refused: '409 checkout-not-attachable: Checkout c1 was for another chain, token or store wallet than this transfer.',
    },
    {
      name: 'another token',
      checkout: { token_address: '0xother' },
      refused: '409 checkout-not-attachable: Checkout c1 was for another chain, token or store wallet than this transfer.',
    },
    {
      name: 'another store wallet',
      checkout: { store_wallet: '0xother' },
      refused: '409 checkout-not-attachable: Checkout c1 was for another chain, token or store wallet than this transfer.',
    },
    {
      name: 'a checkout opened after the transfer was seen',
      checkout: { created_at: at(-5) },
      refused: '409 checkout-not-attachable: Checkout c1 was opened after this transfer was seen, so the transfer cannot have been for it.',
    },
    {
      name: 'the refund hold first, whatever else is wrong',
      transfer: { refund_hold_until: at(1) },
      checkout: { status: 'paid' },
      refused: expect.stringMatching(/^409 transfer-not-attachable: Transfer 7 cannot be attached: a refund/),
    },
  ])('$name', (row) => {
    expect(refusal(row.transfer ?? {}, row.checkout ?? {})).toEqual(row.refused);
  });

  it.each([
    { status: 'matched', why: 'it already made order o1' },
    { status: 'underpaid', why: 'it already counts towards checkout c1, which waits for the rest' },
    { status: 'extra-payment', why: 'it already counts towards checkout c1, which was already paid (refund it instead)' },
    { status: 'refunded', why: 'its money went back to the sender (refunded)' },
    { status: 'removed', why: 'a chain reorganisation removed it: it is not on chain now' },
    { status: 'something-new', why: 'it is something-new' },
  ])('says why a $status transfer cannot be attached', ({ status, why }) => {
    const err = notAttachable({ id: 7, status, intent_id: 'c1', order_id: 'o1' });
    expect(err.code).toBe(ErrorCode.transferNotAttachable);
    expect(err.message).toBe(`Transfer 7 cannot be attached: ${why}. Only an unmatched transfer can be attached to a checkout.`);
  });

  it.each([
    { until: null, held: false },
    { until: at(-1), held: false },
    { until: NOW, held: false },
    { until: at(1), held: true },
  ])('a refund hold until $until holds the transfer: $held', ({ until, held }) => {
    expect(onRefundHold({ refund_hold_until: until }, NOW)).toBe(held);
  });
});
