import { describe, expect, it } from 'vitest';
import type { Cart } from '../../../../common/api';
import {
  checkoutReducer,
  initialCheckoutState,
  isPaying,
  PAY_BUTTON_LABELS,
  type CheckoutEvent,
  type CheckoutState,
} from './checkout-machine';

const HASH = '0x' + '1'.repeat(64);
const PAID_CART: Cart = { items: [], total: '25.00' };

function run(events: CheckoutEvent[], from: CheckoutState = initialCheckoutState): CheckoutState {
  return events.reduce(checkoutReducer, from);
}

const HAPPY: CheckoutEvent[] = [
  { type: 'start' },
  { type: 'balance-ok' },
  { type: 'transaction-sent', transactionHash: HASH },
  { type: 'server-notified' },
  { type: 'receipt-confirmed' },
  { type: 'order-created', paidCart: PAID_CART },
];

describe('checkoutReducer', () => {
  it('walks idle → checking-balance → awaiting-wallet → sent → confirming → creating-order → done', () => {
    const phases = [initialCheckoutState.phase];
    let state = initialCheckoutState;
    for (const event of HAPPY) {
      state = checkoutReducer(state, event);
      phases.push(state.phase);
    }
    expect(phases).toEqual(['idle', 'checking-balance', 'awaiting-wallet', 'sent', 'confirming', 'creating-order', 'done']);
    expect(state.transactionHash).toBe(HASH);
  });

  it('holds the hash from "sent" on', () => {
    expect(run(HAPPY.slice(0, 2)).transactionHash).toBeNull();
    expect(run(HAPPY.slice(0, 3))).toEqual({ phase: 'sent', transactionHash: HASH });
    expect(run(HAPPY.slice(0, 5))).toEqual({ phase: 'creating-order', transactionHash: HASH });
  });

  it('any failure before the order returns to idle and clears the hash', () => {
    for (let n = 1; n < HAPPY.length; n++) {
      const state = run([...HAPPY.slice(0, n), { type: 'failed' }]);
      expect(state, `after ${n} steps`).toEqual(initialCheckoutState);
    }
  });

  it('a second start while paying is ignored (no double payment)', () => {
    for (let n = 1; n <= HAPPY.length; n++) {
      const before = run(HAPPY.slice(0, n));
      expect(checkoutReducer(before, { type: 'start' })).toBe(before);
    }
  });

  it('ignores events that do not fit the phase', () => {
    expect(checkoutReducer(initialCheckoutState, { type: 'balance-ok' })).toBe(initialCheckoutState);
    expect(checkoutReducer(initialCheckoutState, { type: 'transaction-sent', transactionHash: HASH })).toBe(initialCheckoutState);
    expect(checkoutReducer(initialCheckoutState, { type: 'failed' })).toBe(initialCheckoutState);
    const checking = run([{ type: 'start' }]);
    expect(checkoutReducer(checking, { type: 'receipt-confirmed' })).toBe(checking);
    expect(checkoutReducer(checking, { type: 'order-created', paidCart: PAID_CART })).toBe(checking);
    const awaiting = run(HAPPY.slice(0, 2));
    expect(checkoutReducer(awaiting, { type: 'server-notified' })).toBe(awaiting);
  });

  it('short of POGS: choosing a coin, then the wallet; back to choosing when the price moved, never once sent', () => {
    const choosing = run([{ type: 'start' }, { type: 'short' }]);
    expect(choosing).toEqual({ phase: 'choosing-coin', transactionHash: null });
    const awaiting = checkoutReducer(choosing, { type: 'balance-ok' });
    expect(awaiting.phase).toBe('awaiting-wallet');
    expect(checkoutReducer(awaiting, { type: 'short' }).phase).toBe('choosing-coin');
    const sent = checkoutReducer(awaiting, { type: 'transaction-sent', transactionHash: HASH });
    expect(checkoutReducer(sent, { type: 'short' })).toBe(sent);
    expect(checkoutReducer(initialCheckoutState, { type: 'short' })).toBe(initialCheckoutState);
    expect(checkoutReducer(choosing, { type: 'failed' })).toEqual(initialCheckoutState);
    expect(checkoutReducer(choosing, { type: 'start' })).toBe(choosing);
  });

  it('"done" holds the cart as it was paid, until a reset', () => {
    const done = run(HAPPY);
    expect(done).toEqual({ phase: 'done', transactionHash: HASH, paidCart: PAID_CART });
    expect(run(HAPPY.slice(0, 5)).paidCart).toBeUndefined();
    expect(checkoutReducer(done, { type: 'reset' }).paidCart).toBeUndefined();
  });

  it('once the order exists, only a reset leaves "done"', () => {
    const done = run(HAPPY);
    expect(checkoutReducer(done, { type: 'failed' })).toBe(done);
    expect(checkoutReducer(done, { type: 'reset' })).toEqual(initialCheckoutState);
    const sent = run(HAPPY.slice(0, 3));
    expect(checkoutReducer(sent, { type: 'reset' })).toBe(sent);
  });
});

describe('isPaying / PAY_BUTTON_LABELS', () => {
  it('is busy in every phase but idle, each with its own label', () => {
    expect(isPaying('idle')).toBe(false);
    const phases = Object.keys(PAY_BUTTON_LABELS) as (keyof typeof PAY_BUTTON_LABELS)[];
    expect(phases.filter(isPaying)).toHaveLength(7);
    expect(new Set(Object.values(PAY_BUTTON_LABELS)).size).toBe(8);
    expect(PAY_BUTTON_LABELS.idle).toBe('Pay with POG');
  });
});
