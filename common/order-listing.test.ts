import { describe, expect, it } from 'vitest';
import { orderStatusSchema, type OrderStatus } from './api';
import { LISTED_STATUSES, orderSection } from './order-listing';

const order = (id: string, status: OrderStatus, needsShipping = status === 'paid') => ({ id, status, needsShipping });

describe('orderSection', () => {
  it('puts each order in its section by status and whether it needs shipping details', () => {
    expect(orderSection(order('a', 'paid', true))).toBe('needs-shipping');
    expect(orderSection(order('b', 'paid', false))).toBe('pending-shipment');
    expect(orderSection(order('c', 'confirmed', false))).toBe('pending-shipment');
    expect(orderSection(order('d', 'shipped', false))).toBe('history');
    expect(orderSection(order('r', 'refunded', false))).toBe('history');
  });

  it('does not list pending, failed and draft orders, nor a status it does not know', () => {
    expect(orderSection(order('e', 'pending'))).toBeNull();
    expect(orderSection(order('f', 'failed', true))).toBeNull();
    expect(orderSection(order('g', 'draft'))).toBeNull();
    expect(orderSection({ status: 'returned' as OrderStatus, needsShipping: false })).toBeNull();
    const listed = orderStatusSchema.options.filter((status) => orderSection(order('x', status)) !== null);
    expect(listed).toEqual(['paid', 'confirmed', 'shipped', 'refunded']);
  });

  it('keeps a shipped order in the history even if it still says it needs shipping', () => {
    expect(orderSection(order('h', 'shipped', true))).toBe('history');
    expect(orderSection(order('i', 'confirmed', true))).toBe('pending-shipment');
  });
});

describe('LISTED_STATUSES', () => {
  it('lists only paid, confirmed, shipped and refunded orders (those with a section)', () => {
    expect(LISTED_STATUSES).toEqual(['paid', 'confirmed', 'shipped', 'refunded']);
  });
});
