import { describe, expect, it } from 'vitest';
import { hasPayableTotal, payPrecheck } from './pay-precheck';

describe('payPrecheck', () => {
  it('asks for a wallet first, whatever the total', () => {
    const connect = {
      title: 'Connect Wallet',
      description: "Please connect your wallet and ensure you're on Base Network to proceed with payment",
    };
    expect(payPrecheck({ walletConnected: false, total: '649.90' })).toEqual(connect);
    expect(payPrecheck({ walletConnected: false, total: '0' })).toEqual(connect);
    expect(payPrecheck({ walletConnected: false, total: '' })).toEqual(connect);
  });

  it('refuses an empty or zero total once a wallet is connected', () => {
    const empty = { title: 'Empty Cart', description: 'Please add items to your cart before proceeding with payment' };
    for (const total of ['', '  ', '0', '0.00', '0.0', '.0', '000', null, undefined, 'abc', '-5', '.']) {
      expect(payPrecheck({ walletConnected: true, total }), String(total)).toEqual(empty);
    }
  });

  it('lets a connected wallet pay a positive total', () => {
    for (const total of ['649.90', '0.01', '1', '12.', '.5', ' 3.00 ']) {
      expect(payPrecheck({ walletConnected: true, total }), total).toBeNull();
    }
  });
});

describe('hasPayableTotal', () => {
  it('is true only for plain decimals above zero', () => {
    expect(hasPayableTotal('0.000000000000000001')).toBe(true);
    expect(hasPayableTotal('1e3')).toBe(true); // 1000, read exactly
    expect(hasPayableTotal('0x10')).toBe(false);
  });
});
