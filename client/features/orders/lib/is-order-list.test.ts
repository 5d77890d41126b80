import { describe, expect, it } from 'vitest';
import { isOrderList, isRefundList } from './is-order-list';

const order = {
  id: '6f1c3a52-8d0e-4a59-9a3f-1b2c3d4e5f60',
  status: 'paid',
  total: '25.00',
  amountPaid: '25.000000000000012345',
  items: [{ id: 'i1', variantId: '1', title: 'Cap', price: '25.00', quantity: 1 }],
  needsShipping: true,
  shippingUrl: '/orders/6f1c3a52-8d0e-4a59-9a3f-1b2c3d4e5f60/shipping',
  shippingReady: false,
  customerWallet: '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc',
  transactionHash: '0x' + 'ab'.repeat(32),
  blockchain: { chainId: 8453, transactionHash: '0x' + 'ab'.repeat(32), blockNumber: 12 },
  createdAt: '2024-06-01T00:00:00Z',
  processed_at: '2024-06-01T00:00:00Z',
};

describe('isOrderList', () => {
  it('accepts a list of orders, and the empty list', () => {
    expect(isOrderList([order, { ...order, id: 'o2', status: 'shipped', needsShipping: false }])).toBe(true);
    expect(isOrderList([])).toBe(true);
  });

  it('refuses what the page could not render', () => {
    expect(isOrderList(null)).toBe(false);
    expect(isOrderList({ orders: [order] })).toBe(false);
    expect(isOrderList([{ ...order, items: null }])).toBe(false);
    expect(isOrderList([{ ...order, items: [{ title: 'Cap', price: 25, quantity: 1 }] }])).toBe(false);
    expect(isOrderList([{ ...order, total: 25 }])).toBe(false);
    expect(isOrderList([{ ...order, blockchain: 'x' }])).toBe(false);
  });
});

describe('isRefundList', () => {
  const refund = { amount: '7.50', txHash: `0x${'ab'.repeat(32)}`, explorerUrl: null, at: '2026-11-23T10:00:00.000Z' };

  it('accepts a list of refunds, and the empty list', () => {
    expect(isRefundList([refund, { ...refund, explorerUrl: 'https://basescan.org/tx/0x1' }])).toBe(true);
    expect(isRefundList([])).toBe(true);
  });

  it('refuses what the page could not render', () => {
    expect(isRefundList({ refunds: [refund] })).toBe(false);
    expect(isRefundList([{ ...refund, amount: 7.5 }])).toBe(false);
    expect(isRefundList([null])).toBe(false);
  });
});
