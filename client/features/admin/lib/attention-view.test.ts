import { describe, expect, it } from 'vitest';
import { attentionKindSchema } from '../../../../common/payments-desk';
import {
  ATTENTION_FILTERS,
  attentionKindClass,
  attentionKindLabel,
  attentionPath,
  attentionViewParams,
  canAttach,
  canRefund,
  readAttentionView,
  refundByHand,
} from './attention-view';

describe('the kinds of the queue', () => {
  it('offers All, then a chip for every kind the contract has, in sentence case', () => {
    expect(ATTENTION_FILTERS.map((f) => f.label)).toEqual(['All', 'Unmatched', 'Underpaid', 'Overpaid', 'Late', 'Out of stock', 'Reorged']);
    expect(ATTENTION_FILTERS.slice(1).map((f) => f.kind)).toEqual(attentionKindSchema.options);
    expect(ATTENTION_FILTERS[0]!.kind).toBeNull();
  });

  it('labels a kind a newer server may send in its own words', () => {
    expect(attentionKindLabel('out-of-stock')).toBe('Out of stock');
    expect(attentionKindLabel('double-spent')).toBe('Double spent');
    expect(attentionKindLabel('')).toBe('Unknown');
    expect(attentionKindLabel('toString')).toBe('ToString');
  });

  it('colours missing money red, extra money blue, and an unknown kind neutral', () => {
    expect(attentionKindClass('underpaid')).toMatch(/red/);
    expect(attentionKindClass('overpaid')).toMatch(/blue/);
    expect(attentionKindClass('late')).toMatch(/yellow/);
    expect(attentionKindClass('something-new')).toMatch(/bg-muted/);
  });
});

describe('the view in the address', () => {
  it('reads the kind and the history, ignoring what it does not know', () => {
    expect(readAttentionView(new URLSearchParams('kind=underpaid&history=1'))).toEqual({ kind: 'underpaid', history: true });
    expect(readAttentionView(new URLSearchParams('kind=bogus&history=yes'))).toEqual({ kind: null, history: false });
    expect(readAttentionView(new URLSearchParams(''))).toEqual({ kind: null, history: false });
  });

  it('writes a view back, keeping other parameters, and reads the same view again', () => {
    const params = attentionViewParams({ kind: 'out-of-stock', history: true }, new URLSearchParams('x=1&kind=late'));
    expect(params.get('x')).toBe('1');
    expect(readAttentionView(params)).toEqual({ kind: 'out-of-stock', history: true });
    const cleared = attentionViewParams({ kind: null, history: false }, params);
    expect(cleared.toString()).toBe('x=1');
  });

  it('asks the server for the view: resolved only for the history, nothing for all open items', () => {
    expect(attentionPath({ kind: null, history: false })).toBe('/api/admin/payments/attention');
    expect(attentionPath({ kind: 'reorged', history: false })).toBe('/api/admin/payments/attention?kind=reorged');
    expect(attentionPath({ kind: 'late', history: true })).toBe('/api/admin/payments/attention?kind=late&resolved=true');
    expect(attentionPath({ kind: null, history: false }, '1234')).toBe('/api/admin/payments/attention?before=1234');
    expect(attentionPath({ kind: 'late', history: true }, '77')).toBe('/api/admin/payments/attention?kind=late&resolved=true&before=77');
  });
});

describe('the actions offered', () => {
  const base = { kind: 'unmatched', orderId: null, resolved: null, refundableWei: '1' };

  it('offers Attach only for an open transfer that counts towards no order', () => {
    expect(canAttach(base)).toBe(true);
    expect(canAttach({ ...base, kind: 'overpaid' })).toBe(true);
    expect(canAttach({ ...base, orderId: 'o1' })).toBe(false);
    expect(canAttach({ ...base, kind: 'underpaid' })).toBe(false);
    expect(canAttach({ ...base, kind: 'reorged' })).toBe(false);
    expect(canAttach({ ...base, resolved: { at: 'x', note: 'y' } })).toBe(false);
  });

  it('offers Refund while anything is refundable', () => {
    const to = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
    expect(canRefund({ refundableWei: '1', refundTo: to })).toBe(true);
    expect(canRefund({ refundableWei: '0', refundTo: to })).toBe(false);
    expect(canRefund({ refundableWei: 'junk', refundTo: to })).toBe(false);
    // A swap whose payer the chain does not prove: nobody to send it to from the desk.
    expect(canRefund({ refundableWei: '1', refundTo: null })).toBe(false);
    expect(refundByHand({ refundableWei: '1', refundTo: null })).toBe(true);
    expect(refundByHand({ refundableWei: '0', refundTo: null })).toBe(false);
    expect(refundByHand({ refundableWei: 'junk', refundTo: null })).toBe(false);
    expect(refundByHand({ refundableWei: '1', refundTo: to })).toBe(false);
  });
});
