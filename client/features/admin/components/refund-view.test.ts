import { describe, expect, it } from 'vitest';
import type { AttentionItem } from '../../../../common/payments-desk';
import type { SentRefund } from '../lib/sent-refunds';
import { refundView } from './refund-view';

const sent: SentRefund = {
  transferId: 't1',
  txHash: '0x' + 'cd'.repeat(32),
  amount: '5.00',
  to: '0xBuyer',
  sentAt: '2026-01-01T00:00:00.000Z',
};
const kept: SentRefund = { ...sent, txHash: '0x' + 'ef'.repeat(32) };
const item = { transferId: 't1', refunds: [] } as unknown as AttentionItem;
const idle = { status: 'idle', data: undefined, error: null } as const;
const success = (data: Parameters<typeof refundView>[0]['data']) => ({ status: 'success', data, error: null }) as const;

describe('the refund dialog’s screen, from its one mutation', () => {
  it('idle: the form, or "Check again" for a refund this browser sent and the server has not recorded', () => {
    expect(refundView(idle, null)).toEqual({ kind: 'form', message: null });
    expect(refundView(idle, kept)).toEqual({ kind: 'unrecorded', sent: kept, message: null });
  });

  it('pending: the step in flight, whatever is kept', () => {
    expect(refundView({ status: 'pending', data: undefined, error: null }, kept)).toEqual({ kind: 'in-flight' });
  });

  it('success: the result once recorded; "Check again" with the reason when sent but not recorded; the form with the reason when nothing was sent', () => {
    expect(refundView(success({ kind: 'recorded', item, sent }), null)).toEqual({ kind: 'recorded', item, sent });
    expect(refundView(success({ kind: 'sent-not-recorded', sent, message: 'not yet' }), sent)).toEqual({
      kind: 'unrecorded',
      sent,
      message: 'not yet',
    });
    expect(refundView(success({ kind: 'not-sent', message: 'Transaction was rejected by user' }), null)).toEqual({
      kind: 'form',
      message: 'Transaction was rejected by user',
    });
  });

  it('a refund still kept wins over a failure that sent nothing: it is shown without that failure’s text', () => {
    expect(refundView(success({ kind: 'not-sent', message: 'no' }), kept)).toEqual({ kind: 'unrecorded', sent: kept, message: null });
    expect(refundView({ status: 'error', data: undefined, error: new Error('boom') }, kept)).toEqual({
      kind: 'unrecorded',
      sent: kept,
      message: null,
    });
  });

  it('error: the form with the error’s message, or a generic one', () => {
    expect(refundView({ status: 'error', data: undefined, error: new Error('boom') }, null)).toEqual({ kind: 'form', message: 'boom' });
    expect(refundView({ status: 'error', data: undefined, error: 'odd' }, null)).toEqual({
      kind: 'form',
      message: 'Something went wrong. Try again.',
    });
  });
});
