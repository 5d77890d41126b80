import { describe, expect, it } from 'vitest';
import type { Order } from '../../../../common/api';
import { buildReceipt, receiptFileName, receiptHtml, utcTime } from './receipt';

const HASH = `0x${'ab'.repeat(32)}`;
const order: Order = {
  id: 'ord_123',
  status: 'paid',
  total: '35.00',
  amountPaid: '35.000000000000000001',
  items: [
    { id: 'i1', variantId: 'v1', title: 'Slammer <b>gold</b> & "rare"', price: '12.5', quantity: 2 },
    { id: 'i2', variantId: 'v2', title: 'Sticker', price: '0.000000000000000001', quantity: 3 },
  ],
  needsShipping: true,
  shippingUrl: '/orders/ord_123/shipping',
  shippingReady: false,
  hold: null,
  customerWallet: '0x1111111111111111111111111111111111111111',
  transactionHash: HASH,
  refunds: [{ amount: '5.00', txHash: HASH, explorerUrl: `https://basescan.org/tx/${HASH}`, at: '2026-11-29T07:00:00.000Z' }],
  blockchain: { chainId: 8453, transactionHash: HASH, blockNumber: 123456 },
  trackingUrl: 'https://track.example/p/1',
  reference: { usdPerPogs: '0.05', block: 123450, source: 'Uniswap v3 POGS/WETH 30-min average × Chainlink ETH/USD' },
  createdAt: '2026-11-29T06:12:45.123Z',
  processed_at: '',
};
const config = {
  shopName: 'POGS Shop',
  tokenSymbol: 'POG',
  chainName: 'Base',
  explorerUrl: 'https://basescan.org',
  demoWallet: false,
  storeWallet: '0x2222222222222222222222222222222222222222',
};

describe('the receipt', () => {
  it('lists each line exactly (price × quantity in wei), the total, and every fact a shopper keeps', () => {
    const receipt = buildReceipt(order, config);
    expect(receipt.items).toEqual([
      { title: 'Slammer <b>gold</b> & "rare"', quantity: 2, unit: '12.50 POG', line: '25.00 POG' },
      { title: 'Sticker', quantity: 3, unit: '0.00 POG', line: '0.00 POG' },
    ]);
    expect(receipt.total).toBe('35.00 POG');
    expect(Object.fromEntries(receipt.rows.map((r) => [r.label, [r.value, r.href ?? null]]))).toEqual({
      'Order number': ['ord_123', null],
      Placed: ['2026-11-29 06:12 UTC', null],
      Status: ['Paid', null],
      'Amount paid': ['35.000000000000000001 POG', null],
      'Dollar reference at payment': ['≈ $1.75 (at block 123450; Uniswap v3 POGS/WETH 30-min average × Chainlink ETH/USD)', null],
      'Refunded 2026-11-29 07:00 UTC': ['5.00 POG', `https://basescan.org/tx/${HASH}`],
      Transaction: [HASH, `https://basescan.org/tx/${HASH}`],
      Block: ['123456 on Base (chain 8453)', null],
      'Paid from': [order.customerWallet, `https://basescan.org/address/${order.customerWallet}`],
      Tracking: ['https://track.example/p/1', 'https://track.example/p/1'],
      'Paid to (the store)': [config.storeWallet, `https://basescan.org/address/${config.storeWallet}`],
    });
  });

  it('links nothing to an explorer on the local demo chain, and leaves the store out when payments are off', () => {
    const receipt = buildReceipt(
      { ...order, refunds: [], trackingUrl: null, reference: null },
      { ...config, demoWallet: true, storeWallet: null },
    );
    expect(receipt.rows.filter((r) => r.href)).toEqual([]);
    expect(receipt.rows.map((r) => r.label)).not.toContain('Paid to (the store)');
    expect(receipt.rows.map((r) => r.label)).not.toContain('Dollar reference at payment');
  });

  it('writes a file with the facts as text: a title’s markup escaped, no script, nothing loaded from elsewhere', () => {
    const html = receiptHtml(buildReceipt(order, config));
    expect(html).toContain('Slammer &lt;b&gt;gold&lt;/b&gt; &amp; &quot;rare&quot;');
    expect(html).not.toContain('<b>gold');
    expect(html).not.toMatch(/<script|<link|<img|src=/i);
    expect(html).toContain('35.000000000000000001 POG');
    expect(html).toContain(`<a href="https://basescan.org/tx/${HASH}">${HASH}</a>`);
  });

  it('names the file after the order, in characters every system accepts', () => {
    expect(receiptFileName('ord_123')).toBe('receipt-ord_123.html');
    expect(receiptFileName('../a b/c')).toBe('receipt-___a_b_c.html');
  });

  it('says times in UTC, and a dash for none', () => {
    expect(utcTime('2026-01-02T03:04:59Z')).toBe('2026-01-02 03:04 UTC');
    expect(utcTime(null)).toBe('—');
    expect(utcTime('not a time')).toBe('—');
  });
});
