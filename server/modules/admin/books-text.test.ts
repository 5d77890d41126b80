import { describe, expect, it } from 'vitest';
import { itemsText, koinlyDate, plainDecimal, receivedDescription, sentDescription } from './books-text';

const HASH = `0x${'ab'.repeat(32)}`;

describe('koinlyDate', () => {
  it('writes the instant in UTC, to the second, whatever the input', () => {
    expect(koinlyDate(new Date('2026-03-01T00:00:00.999Z'))).toBe('2026-03-01 00:00:00 UTC');
    expect(koinlyDate('2026-12-31T23:59:59+00:00')).toBe('2026-12-31 23:59:59 UTC');
    expect(koinlyDate('2026-06-30T23:30:00-02:00')).toBe('2026-07-01 01:30:00 UTC');
  });
});

describe('receivedDescription', () => {
  const none = { order_id: null, order_reorged: null, checkout_order_id: null, status_before_refund: null };
  it('names the order a transfer paid, whatever its status says', () => {
    expect(receivedDescription({ ...none, order_id: 'PG1A2B000001', order_reorged: false, status: 'matched' })).toBe(
      'Order PG1A2B000001 paid',
    );
    // The rest of an order a reorganisation failed (the transfer that paid it is gone): not a sale.
    expect(receivedDescription({ ...none, order_id: 'PG1A2B000001', order_reorged: true, status: 'matched' })).toBe(
      'Payment towards order PG1A2B000001, which a chain reorganisation failed',
    );
  });
  it('says what a transfer that made no order was, and that it went back', () => {
    // [status, status before refund, checkout's order, description]
    const table: Array<[string, string | null, string | null, string]> = [
      ['unmatched', null, null, 'Transfer that matched no order'],
      ['underpaid', null, null, 'Part payment of a checkout not yet paid in full (no order)'],
      ['extra-payment', null, 'PG9', 'Extra payment after order PG9 was paid'],
      ['refunded', 'unmatched', null, 'Transfer that matched no order; sent back'],
      ['refunded', null, null, 'Transfer that matched no order; sent back'],
      ['refunded', 'extra-payment', 'PG9', 'Extra payment after order PG9 was paid; sent back'],
      ['refunded', 'underpaid', null, 'Part payment of a checkout not yet paid in full (no order); sent back'],
    ];
    for (const [status, before, order, text] of table)
      expect(receivedDescription({ ...none, status, status_before_refund: before, checkout_order_id: order }), status).toBe(text);
  });
});

describe('sentDescription', () => {
  it('names the order, the extra payment or the transfer a refund gave back', () => {
    expect(sentDescription({ order_id: 'PG1', refunded_tx_hash: HASH, checkout_order_id: 'PG1' })).toBe('Refund of order PG1');
    expect(sentDescription({ order_id: null, refunded_tx_hash: HASH, checkout_order_id: 'PG2' })).toBe(
      `Refund of extra payment ${HASH} after order PG2`,
    );
    expect(sentDescription({ order_id: null, refunded_tx_hash: HASH, checkout_order_id: null })).toBe(
      `Refund of transfer ${HASH} (no order)`,
    );
  });
});

describe('itemsText', () => {
  it('lists each line as quantity × title, in order', () => {
    expect(
      itemsText([
        { title: 'Cap (Black)', quantity: 2 },
        { title: 'Tee (M)', quantity: 1 },
      ]),
    ).toBe('2 × Cap (Black); 1 × Tee (M)');
    expect(itemsText([])).toBe('');
  });
});

describe('plainDecimal', () => {
  it('drops the trailing zeros a numeric column keeps, and nothing else', () => {
    expect(plainDecimal('0.050000000000000000')).toBe('0.05');
    expect(plainDecimal('12.000000000000000000')).toBe('12');
    expect(plainDecimal('100')).toBe('100');
    expect(plainDecimal('0.000000000000000001')).toBe('0.000000000000000001');
    expect(plainDecimal(null)).toBe('');
  });
});
