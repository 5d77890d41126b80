import { describe, expect, it } from 'vitest';
import { attentionKindSchema, type AttentionItem, type AttentionKind } from '../../../common/payments-desk';
import { attentionKindOf, EXPORTED_TRANSFER_STATUSES, itemKindOf, exportStatusSql, judgedStatusOf, type TransferFacts } from './desk-kinds';

const NONE: TransferFacts = {
  status: 'matched',
  statusBeforeRefund: null,
  orderReorged: false,
  paying: false,
  onHold: false,
  overpaid: false,
  late: false,
};

describe('attentionKindOf', () => {
  // [what, facts, kind]
  const table: Array<[string, Partial<TransferFacts>, AttentionKind | null]> = [
    ['a plain payment', { paying: true }, null],
    ['an earlier part of a finished payment', { paying: false }, null],
    ['removed by a reorganisation', { status: 'removed' }, 'reorged'],
    ['removed, whatever its order says', { status: 'removed', paying: true, overpaid: true, late: true }, 'reorged'],
    ['unmatched', { status: 'unmatched' }, 'unmatched'],
    ['underpaid', { status: 'underpaid' }, 'underpaid'],
    ['a second payment of a paid checkout', { status: 'extra-payment' }, 'overpaid'],
    ['a second payment of a late order', { status: 'extra-payment', late: true }, 'overpaid'],
    ['the paying transfer of an order failed by a reorganisation', { paying: true, orderReorged: true }, 'reorged'],
    ['an earlier part of an order failed by a reorganisation', { orderReorged: true }, 'reorged'],
    [
      'reorged before on hold, overpaid and late',
      { paying: true, orderReorged: true, onHold: true, overpaid: true, late: true },
      'reorged',
    ],
    ['reorged before on hold', { paying: true, orderReorged: true, onHold: true }, 'reorged'],
    ['reorged before overpaid', { paying: true, orderReorged: true, overpaid: true }, 'reorged'],
    ['reorged before late', { paying: true, orderReorged: true, late: true }, 'reorged'],
    ['the paying transfer of an order on hold', { paying: true, onHold: true }, 'out-of-stock'],
    ['on hold before overpaid', { paying: true, onHold: true, overpaid: true }, 'out-of-stock'],
    ['on hold before late', { paying: true, onHold: true, late: true }, 'out-of-stock'],
    ['on hold before overpaid and late', { paying: true, onHold: true, overpaid: true, late: true }, 'out-of-stock'],
    ['overpaid', { paying: true, overpaid: true }, 'overpaid'],
    ['both overpaid and late: overpaid', { paying: true, overpaid: true, late: true }, 'overpaid'],
    ['late', { paying: true, late: true }, 'late'],
    ['an earlier part of an overpaid order', { overpaid: true }, null],
    ['an earlier part of an order overpaid and late', { overpaid: true, late: true }, null],
    ['an earlier part of a late order on hold', { onHold: true, late: true }, null],
    ['refunded, unmatched before', { status: 'refunded', statusBeforeRefund: 'unmatched' }, 'unmatched'],
    ['refunded, underpaid before', { status: 'refunded', statusBeforeRefund: 'underpaid' }, 'underpaid'],
    ['refunded, a second payment before', { status: 'refunded', statusBeforeRefund: 'extra-payment' }, 'overpaid'],
    ['refunded, removed before', { status: 'refunded', statusBeforeRefund: 'removed' }, 'reorged'],
    ['refunded, nothing known before', { status: 'refunded' }, 'unmatched'],
    ['a status the desk does not know', { status: 'pending', paying: true, overpaid: true }, null],
  ];
  it.each(table)('%s', (_what, facts, kind) => {
    expect(attentionKindOf({ ...NONE, ...facts })).toBe(kind);
  });

  it('has a case of every kind, and of every overlap of two of the order’s facts on the paying transfer', () => {
    expect(new Set(table.map(([, , kind]) => kind))).toEqual(new Set([...attentionKindSchema.options, null]));
    const own = ['orderReorged', 'onHold', 'overpaid', 'late'] as const;
    for (const [i, a] of own.entries())
      for (const b of own.slice(i + 1))
        expect(
          table.some(([, facts]) => facts.paying && facts[a] && facts[b]),
          `${a} + ${b}`,
        ).toBe(true);
  });
});

/** Every combination of the order's facts, each as the names of the facts that hold. */
const FACT_NAMES = ['orderReorged', 'paying', 'onHold', 'overpaid', 'late'] as const;
const everyOverlap = Array.from({ length: 2 ** FACT_NAMES.length }, (_, bits) => FACT_NAMES.filter((_, i) => bits & (2 ** i)));
const factsOf = (status: string, names: readonly string[], statusBeforeRefund: string | null = null): TransferFacts => ({
  ...NONE,
  status,
  statusBeforeRefund,
  ...Object.fromEntries(names.map((n) => [n, true])),
});

describe('attentionKindOf, every overlap of a matched transfer’s facts', () => {
  // The precedence, read as a person states it: a reorganisation first (whichever transfer of the
  // order), then, for the transfer that paid the order only, on hold, overpaid, late.
  const expected = (on: ReadonlySet<string>): AttentionKind | null => {
    if (on.has('orderReorged')) return 'reorged';
    if (!on.has('paying')) return null;
    if (on.has('onHold')) return 'out-of-stock';
    if (on.has('overpaid')) return 'overpaid';
    if (on.has('late')) return 'late';
    return null;
  };
  it.each(everyOverlap.map((names) => [names.join(' + ') || 'nothing', names] as const))('%s', (_what, names) => {
    expect(attentionKindOf(factsOf('matched', names))).toBe(expected(new Set(names)));
  });
});

describe('attentionKindOf, a transfer that made no order', () => {
  // [status, status before a refund, kind]: the status alone decides, whatever its checkout's order says.
  const table: Array<[string, string | null, AttentionKind]> = [
    ['removed', null, 'reorged'],
    ['unmatched', null, 'unmatched'],
    ['underpaid', null, 'underpaid'],
    ['extra-payment', null, 'overpaid'],
    ['refunded', 'removed', 'reorged'],
    ['refunded', 'unmatched', 'unmatched'],
    ['refunded', 'underpaid', 'underpaid'],
    ['refunded', 'extra-payment', 'overpaid'],
  ];
  it.each(table)('%s (before a refund: %s) is %s under every overlap', (status, before, kind) => {
    for (const names of everyOverlap) expect(attentionKindOf(factsOf(status, names, before)), names.join(' + ')).toBe(kind);
  });
});

describe('itemKindOf', () => {
  // [what, kind on the desk, status, kind of the item looked up by itself]: a kind on the desk
  // wins; any other matched transfer is a plain payment.
  const table: Array<[string, AttentionKind | null, string, AttentionItem['kind'] | null]> = [
    ...attentionKindSchema.options.map((kind): [string, AttentionKind, string, AttentionKind] => [
      `${kind} on the desk, matched`,
      kind,
      'matched',
      kind,
    ]),
    ['unmatched on the desk', 'unmatched', 'unmatched', 'unmatched'],
    ['removed by a reorganisation', 'reorged', 'removed', 'reorged'],
    ['refunded, underpaid before', 'underpaid', 'refunded', 'underpaid'],
    ['a plain payment, or an earlier part of a finished one', null, 'matched', 'paid'],
    ['a status the desk does not know', null, 'pending', null],
  ];
  it.each(table)('%s', (_what, kind, status, item) => {
    expect(itemKindOf(kind, status)).toBe(item);
  });
});

describe('judgedStatusOf', () => {
  it('is the status, or for a refunded transfer what it was before', () => {
    expect(judgedStatusOf('underpaid', null)).toBe('underpaid');
    expect(judgedStatusOf('matched', 'unmatched')).toBe('matched');
    expect(judgedStatusOf('refunded', 'extra-payment')).toBe('extra-payment');
    expect(judgedStatusOf('refunded', null)).toBe('unmatched');
  });
});

describe('exportStatusSql', () => {
  it('names the transfers that made no order, a second payment as an extra payment', () => {
    expect(EXPORTED_TRANSFER_STATUSES).toEqual(['unmatched', 'underpaid', 'extra-payment', 'refunded']);
    expect(exportStatusSql('ct.status')).toBe(
      "(case ct.status when 'unmatched' then 'unmatched' when 'underpaid' then 'underpaid' when 'extra-payment' then 'extra-payment' when 'refunded' then 'refunded' end)",
    );
  });
});
