import { describe, expect, it } from 'vitest';
import { orderStatusSchema, type OrderStatus } from '../../../../common/api';
import { groupOrders, orderPlacedAt, orderSection } from './order-sections';

const order = (id: string, status: OrderStatus, needsShipping = status === 'paid') => ({ id, status, needsShipping });

describe('orderSection', () => {
  it("sorts by the spec's rules", () => {
    expect(orderSection(order('a', 'paid', true))).toBe('needs-shipping');
    expect(orderSection(order('b', 'paid', false))).toBe('pending-shipment');
    expect(orderSection(order('c', 'confirmed', false))).toBe('pending-shipment');
    expect(orderSection(order('d', 'shipped', false))).toBe('history');
  });

  it('does not list pending, failed and draft orders, nor a status it does not know', () => {
    expect(orderSection(order('e', 'pending'))).toBeNull();
    expect(orderSection(order('f', 'failed', true))).toBeNull();
    expect(orderSection(order('g', 'draft'))).toBeNull();
    expect(orderSection({ status: 'refunded' as OrderStatus, needsShipping: false })).toBeNull();
    const listed = orderStatusSchema.options.filter((status) => orderSection(order('x', status)) !== null);
    expect(listed).toEqual(['paid', 'confirmed', 'shipped']);
  });

  it('keeps a shipped order in the history even if it still says it needs shipping', () => {
    expect(orderSection(order('h', 'shipped', true))).toBe('history');
    expect(orderSection(order('i', 'confirmed', true))).toBe('pending-shipment');
  });
});

describe('groupOrders', () => {
  it('groups the listed orders into the three sections, in order, keeping the given order within each', () => {
    const orders = [
      order('1', 'shipped'),
      order('2', 'paid', true),
      order('3', 'pending'),
      order('4', 'confirmed'),
      order('5', 'paid', true),
      order('6', 'paid', false),
      order('7', 'failed'),
      order('8', 'draft'),
    ];
    expect(groupOrders(orders).map((g) => [g.title, g.orders.map((o) => o.id)])).toEqual([
      ['Orders Needing Shipping Information', ['2', '5']],
      ['Pending Shipment', ['4', '6']],
      ['Order History', ['1']],
    ]);
  });

  it('leaves out empty sections, and has none when nothing is listed', () => {
    expect(groupOrders([order('1', 'shipped')]).map((g) => g.id)).toEqual(['history']);
    expect(groupOrders([order('1', 'pending'), order('2', 'failed')])).toEqual([]);
    expect(groupOrders([])).toEqual([]);
  });
});

describe('orderPlacedAt', () => {
  it('prefers processed_at, else createdAt', () => {
    expect(orderPlacedAt({ processed_at: '2024-06-02T00:00:00Z', createdAt: '2024-06-01T00:00:00Z' })).toBe('2024-06-02T00:00:00Z');
    expect(orderPlacedAt({ processed_at: '', createdAt: '2024-06-01T00:00:00Z' })).toBe('2024-06-01T00:00:00Z');
    expect(orderPlacedAt({})).toBeNull();
  });
});
