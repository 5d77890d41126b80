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

  it('needs shipping only while paid', () => {
    expect(needsShipping('paid')).toBe(true);
    expect(needsShipping('confirmed')).toBe(false);
  });
});
