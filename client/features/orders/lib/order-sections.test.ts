import { describe, expect, it } from 'vitest';
import type { OrderStatus } from '../../../../common/api';
import { groupOrders, orderPlacedAt } from './order-sections';

const order = (id: string, status: OrderStatus, needsShipping = status === 'paid') => ({ id, status, needsShipping });

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
      order('9', 'refunded'),
    ];
    expect(groupOrders(orders).map((g) => [g.title, g.orders.map((o) => o.id)])).toEqual([
      ['Orders Needing Shipping Information', ['2', '5']],
      ['Pending Shipment', ['4', '6']],
      ['Order History', ['1', '9']],
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
