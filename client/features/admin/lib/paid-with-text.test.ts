import { describe, expect, it } from 'vitest';
import { paidWithText, shownPayer } from './paid-with-text';

const PAYER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const POOL = '0x' + 'b0'.repeat(20);

describe('paidWithText', () => {
  it('says the coin and the exact amount the payer spent', () => {
    expect(paidWithText({ coin: 'ETH', amountIn: '4200000000000000', payer: PAYER })).toBe('Paid with 0.0042 ETH');
    expect(paidWithText({ coin: 'USDC', amountIn: '12500000', payer: PAYER })).toBe('Paid with 12.5 USDC');
    expect(paidWithText({ coin: 'USDC', amountIn: '7000000', payer: PAYER })).toBe('Paid with 7 USDC');
    expect(paidWithText({ coin: 'ETH', amountIn: '1', payer: PAYER })).toBe('Paid with 0.000000000000000001 ETH');
  });

  it('says a swap whose coin or payer is not proven, and nothing for a plain transfer', () => {
    expect(paidWithText({ coin: 'swap', amountIn: null, payer: null })).toBe('Paid through a swap; payer not proven');
    expect(paidWithText({ coin: 'swap', amountIn: null, payer: PAYER })).toBe('Paid through a swap');
    expect(paidWithText({ coin: 'POGS', amountIn: null, payer: PAYER })).toBeNull();
    expect(paidWithText(null)).toBeNull();
  });
});

describe('shownPayer', () => {
  it("shows a swap's payer, not a plain transfer's (it is the sender)", () => {
    expect(shownPayer({ coin: 'ETH', amountIn: '1', payer: PAYER }, POOL)).toBe(PAYER);
    expect(shownPayer({ coin: 'POGS', amountIn: null, payer: PAYER }, PAYER.toUpperCase())).toBeNull();
    expect(shownPayer({ coin: 'swap', amountIn: null, payer: null }, POOL)).toBeNull();
    expect(shownPayer(null, POOL)).toBeNull();
  });
});
