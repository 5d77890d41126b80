import { describe, expect, it } from 'vitest';
import { parseUnits } from '../../../../common/money';
import { checkRefundAmount, refundPresets } from './refund-amount';

const wei = (pog: string) => parseUnits(pog).toString();

describe('refundPresets', () => {
  it('offers the whole refundable amount, and Partial', () => {
    expect(refundPresets({ refundableWei: wei('25.000000482913775102'), excess: null })).toEqual([
      { preset: 'full', label: 'Full', amount: '25.000000482913775102' },
      { preset: 'partial', label: 'Partial', amount: null },
    ]);
  });

  it('offers the excess alone when the item has one, capped at what is still refundable', () => {
    expect(refundPresets({ refundableWei: wei('30'), excess: '5.000000000000000001' }).map((p) => [p.preset, p.amount])).toEqual([
      ['full', '30.00'],
      ['excess', '5.000000000000000001'],
      ['partial', null],
    ]);
    // 3 of the 5 excess already went back: 2 are left of the transfer, so 'Excess only' would equal 'Full'.
    expect(refundPresets({ refundableWei: wei('2'), excess: '5.00' }).map((p) => p.preset)).toEqual(['full', 'partial']);
    expect(refundPresets({ refundableWei: wei('10'), excess: '0.00' }).map((p) => p.preset)).toEqual(['full', 'partial']);
  });

  it('offers nothing but Partial once everything went back (the check then says why)', () => {
    expect(refundPresets({ refundableWei: '0', excess: '5.00' })).toEqual([{ preset: 'partial', label: 'Partial', amount: null }]);
  });
});

describe('checkRefundAmount', () => {
  const refundable = parseUnits('12.5');

  it('accepts an amount up to what is refundable, exactly, and sends its canonical form', () => {
    expect(checkRefundAmount('12.5', refundable)).toEqual({ ok: true, amount: '12.50', wei: refundable });
    expect(checkRefundAmount(' 3 ', refundable)).toEqual({ ok: true, amount: '3.00', wei: parseUnits('3') });
    expect(checkRefundAmount('.5', refundable)).toMatchObject({ ok: true, amount: '0.50' });
    expect(checkRefundAmount('0.000000000000000001', refundable)).toMatchObject({ ok: true, wei: 1n });
    expect(checkRefundAmount('12.500000000000000000', refundable)).toMatchObject({ ok: true, amount: '12.50' });
  });

  it('refuses one wei more than refundable (no float could tell)', () => {
    expect(checkRefundAmount('12.500000000000000001', refundable)).toEqual({ ok: false, message: 'At most 12.50 POG can be refunded' });
  });

  it('refuses what is not an amount of POG', () => {
    expect(checkRefundAmount('', refundable)).toEqual({ ok: false, message: 'Enter an amount of POG' });
    for (const text of ['abc', '1,5', '-1', '1e3', '0x10', '1.', '1.2.3'])
      expect(checkRefundAmount(text, refundable), text).toEqual({ ok: false, message: 'Enter a number of POG, e.g. 12.50' });
    expect(checkRefundAmount('0', refundable)).toEqual({ ok: false, message: 'The amount must be more than 0' });
    expect(checkRefundAmount('0.0000000000000000001', refundable)).toEqual({ ok: false, message: 'Use at most 18 decimals' });
  });
});
