import { describe, expect, it } from 'vitest';
import type { AttentionItem } from '../../../../common/payments-desk';
import { ADMIN_ORDER_STATUSES, canRetryHandoff, draftStateText, isPositiveAmount, orderFlagsText } from './admin-order-text';
import { attachResultText, candidateItemsText, candidateReasonLabel } from './candidate-text';

describe('attach candidates', () => {
  it('names each reason as a chip says it', () => {
    expect(['same-sender', 'close-amount', 'same-time', 'new-reason'].map(candidateReasonLabel)).toEqual([
      'Same sender',
      'Close amount',
      'Same time',
      'new reason',
    ]);
  });

  it("lists a checkout's items in one line", () => {
    expect(
      candidateItemsText([
        { title: 'Cap A', quantity: 2 },
        { title: 'Slammer', quantity: 1 },
      ]),
    ).toBe('2 × Cap A, 1 × Slammer');
    expect(candidateItemsText([])).toBe('');
  });

  it('says what attaching made: an order, or a checkout still underpaid', () => {
    const item = (due: string | null) => ({ due }) as AttentionItem;
    expect(attachResultText({ orderId: 'o1', item: null })).toEqual({ title: 'Order made', detail: 'The transfer paid order o1.' });
    expect(attachResultText({ orderId: 'o1', item: item(null) }).title).toBe('Order made');
    expect(attachResultText({ orderId: null, item: item('2.50') })).toEqual({
      title: 'Still underpaid',
      detail: 'The checkout still needs 2.50 POG.',
    });
    expect(attachResultText({ orderId: null, item: item(null) }).title).toBe('Attached');
  });
});

describe('the orders view', () => {
  it('filters by the statuses shop orders take', () => {
    expect(ADMIN_ORDER_STATUSES).toEqual(['paid', 'confirmed', 'shipped', 'failed', 'refunded']);
  });

  it("says where the Shopify draft stands, with the Shopify order's name once there is one", () => {
    expect(draftStateText({ draftState: 'completed', shopifyOrderName: '#1001' })).toBe('Shopify order #1001');
    expect(draftStateText({ draftState: 'pending', shopifyOrderName: null })).toBe('Draft order pending');
    expect(draftStateText({ draftState: 'none', shopifyOrderName: null })).toBe('Not handed off');
  });

  it('offers "Retry now" only for a hand-off that failed and is not done', () => {
    const handoff = { attempts: 3, lastError: 'Shopify answered 502', nextAttemptAt: null, done: false };
    expect(canRetryHandoff({ handoff })).toBe(true);
    expect(canRetryHandoff({ handoff: { ...handoff, done: true } })).toBe(false);
    expect(canRetryHandoff({ handoff: { ...handoff, lastError: null } })).toBe(false);
    expect(canRetryHandoff({ handoff: null })).toBe(false);
  });

  it('names the flags and tells a refunded amount from none, exactly', () => {
    expect(orderFlagsText({ overpaid: true, late: true, hold: 'out-of-stock' })).toEqual(['Overpaid', 'Late', 'On hold: out of stock']);
    expect(orderFlagsText({ overpaid: false, late: false, hold: null })).toEqual([]);
    expect(['0.00', '0', '', '0.000000000000000001', 'junk'].map(isPositiveAmount)).toEqual([false, false, false, true, false]);
  });
});
