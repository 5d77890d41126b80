import { describe, expect, it } from 'vitest';
import type { CartItem } from '../../../../common/api';
import { canReuseCheckout, cartSignature, checkoutPollInterval, formatCountdown } from './pay-elsewhere';

const line = (variantId: string, quantity: number, problem: string | null = null): CartItem => ({
  id: `line-${variantId}`,
  variantId,
  productId: 'p',
  title: 'Cap',
  image: null,
  price: '25.00',
  quantity,
  lineTotal: '25.00',
  problem,
});

describe('checkoutPollInterval', () => {
  it('polls every 3 s while open or partly paid, and while paid without an order yet', () => {
    expect(checkoutPollInterval({ status: 'open', orderId: null })).toBe(3000);
    expect(checkoutPollInterval({ status: 'underpaid', orderId: null })).toBe(3000);
    expect(checkoutPollInterval({ status: 'paid', orderId: null })).toBe(3000);
  });

  it('stops once the outcome is known', () => {
    expect(checkoutPollInterval({ status: 'paid', orderId: 'o1' })).toBe(false);
    expect(checkoutPollInterval({ status: 'expired', orderId: null })).toBe(false);
    expect(checkoutPollInterval(undefined)).toBe(false);
  });
});

describe('cartSignature', () => {
  it('ignores line order and lines with a problem', () => {
    const a = cartSignature({ items: [line('1', 2), line('2', 1)], total: '75.00' });
    expect(cartSignature({ items: [line('2', 1), line('1', 2), line('3', 1, 'This item is sold out')], total: '75.00' })).toBe(a);
  });

  it('changes with a quantity, a line or the total', () => {
    const a = cartSignature({ items: [line('1', 2)], total: '50.00' });
    expect(cartSignature({ items: [line('1', 3)], total: '75.00' })).not.toBe(a);
    expect(cartSignature({ items: [line('1', 2), line('2', 1)], total: '75.00' })).not.toBe(a);
    expect(cartSignature({ items: [line('1', 2)], total: '52.00' })).not.toBe(a);
  });
});

describe('canReuseCheckout', () => {
  const now = Date.parse('2026-01-01T12:00:00Z');
  const open = { status: 'open' as const, expiresAt: '2026-01-01T12:20:00Z' };

  it('reuses an open checkout for the same cart with time left', () => {
    expect(canReuseCheckout({ checkout: open, signature: 's' }, 's', now)).toBe(true);
  });

  it('reuses a partly paid checkout for the same cart even past its time: the money sent belongs to it', () => {
    const partly = { status: 'underpaid' as const, expiresAt: '2026-01-01T11:00:00Z' };
    expect(canReuseCheckout({ checkout: partly, signature: 's' }, 's', now)).toBe(true);
    expect(canReuseCheckout({ checkout: partly, signature: 's' }, 'other', now)).toBe(false);
  });

  it('makes a new one otherwise', () => {
    expect(canReuseCheckout(null, 's', now)).toBe(false);
    expect(canReuseCheckout({ checkout: open, signature: 's' }, 'other', now)).toBe(false);
    expect(canReuseCheckout({ checkout: { ...open, status: 'expired' }, signature: 's' }, 's', now)).toBe(false);
    expect(canReuseCheckout({ checkout: { ...open, status: 'paid' }, signature: 's' }, 's', now)).toBe(false);
    expect(canReuseCheckout({ checkout: { ...open, expiresAt: '2026-01-01T12:01:30Z' }, signature: 's' }, 's', now)).toBe(false);
    expect(canReuseCheckout({ checkout: { ...open, expiresAt: 'soon' }, signature: 's' }, 's', now)).toBe(false);
  });
});

describe('formatCountdown', () => {
  it('shows minutes and seconds, hours when needed, never below zero', () => {
    expect(formatCountdown(30 * 60_000)).toBe('30:00');
    expect(formatCountdown(29 * 60_000 + 41_000)).toBe('29:41');
    expect(formatCountdown(9_000)).toBe('0:09');
    expect(formatCountdown(8_001)).toBe('0:09');
    expect(formatCountdown(3_723_000)).toBe('1:02:03');
    expect(formatCountdown(0)).toBe('0:00');
    expect(formatCountdown(-5_000)).toBe('0:00');
  });
});
