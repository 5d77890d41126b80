import { describe, expect, it } from 'vitest';
import { needsShipping, nextStatus } from './status';

describe('order status machine', () => {
  it('follows the happy path paid → confirmed → shipped', () => {
    expect(nextStatus('pending', 'payment-verified')).toBe('paid');
    expect(nextStatus('paid', 'shipping-received')).toBe('confirmed');
    expect(nextStatus('confirmed', 'fulfilled')).toBe('shipped');
  });

  it('lets a fulfilment that arrives before the shipping webhook ship the order', () => {
    expect(nextStatus('paid', 'fulfilled')).toBe('shipped');
  });

  it('never moves backwards on late or repeated events', () => {
    expect(nextStatus('shipped', 'shipping-received')).toBeNull();
    expect(nextStatus('confirmed', 'shipping-received')).toBeNull();
    expect(nextStatus('shipped', 'payment-verified')).toBeNull();
    expect(nextStatus('paid', 'payment-verified')).toBeNull();
    expect(nextStatus('failed', 'payment-verified')).toBeNull();
  });

  it('fails an order whose payment was reverted, unless it already shipped', () => {
    expect(nextStatus('paid', 'payment-reverted')).toBe('failed');
    expect(nextStatus('confirmed', 'payment-reverted')).toBe('failed');
    expect(nextStatus('shipped', 'payment-reverted')).toBeNull();
  });

  it('restores an order whose reorganised payment was included again', () => {
    expect(nextStatus('failed', 'payment-restored')).toBe('paid');
    expect(nextStatus('paid', 'payment-restored')).toBeNull();
  });

  it('refunds a paid, confirmed or shipped order fully, and nothing moves a refunded one', () => {
    expect(nextStatus('paid', 'fully-refunded')).toBe('refunded');
    expect(nextStatus('confirmed', 'fully-refunded')).toBe('refunded');
    expect(nextStatus('shipped', 'fully-refunded')).toBe('refunded');
    expect(nextStatus('pending', 'fully-refunded')).toBeNull();
    expect(nextStatus('failed', 'fully-refunded')).toBeNull();
    for (const event of ['payment-verified', 'shipping-received', 'fulfilled', 'payment-reverted', 'payment-restored'] as const)
      expect(nextStatus('refunded', event)).toBeNull();
  });

  it('needs shipping only while paid', () => {
    expect(needsShipping('paid')).toBe(true);
    expect(needsShipping('confirmed')).toBe(false);
  });
});
