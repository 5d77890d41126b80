import { describe, expect, it } from 'vitest';
import { exactOutputPath, hopsOf } from './path';
import { withSlippage } from './quote';

const POGS = '0x1111111111111111111111111111111111111111';
const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const WETH = '0x4200000000000000000000000000000000000006';

describe('the route as Uniswap encodes it', () => {
  it('walks an exact-output path backwards: POGS first, then each fee and token back to the coin', () => {
    const path = exactOutputPath({ tokens: [USDC, WETH], fees: [500, 3000] }, POGS);
    expect(path).toBe(
      `0x${POGS.slice(2)}${(3000).toString(16).padStart(6, '0')}${WETH.slice(2)}${(500).toString(16).padStart(6, '0')}${USDC.slice(2)}`.toLowerCase(),
    );
    expect((path.length - 2) / 2).toBe(20 + 3 + 20 + 3 + 20);
  });

  it('names each pool in the order the coin flows, POGS last', () => {
    expect(hopsOf({ tokens: [USDC, WETH], fees: [500, 3000] }, POGS)).toEqual([
      { tokenIn: USDC, tokenOut: WETH, fee: 500 },
      { tokenIn: WETH, tokenOut: POGS, fee: 3000 },
    ]);
  });
});

describe('the most a swap may take', () => {
  it('is the quote plus the bound, rounded up to the smallest unit', () => {
    expect(withSlippage(10_000n, 50)).toBe(10_050n);
    expect(withSlippage(1n, 50)).toBe(2n);
    expect(withSlippage(199n, 50)).toBe(200n); // 199.995 → 200
    expect(withSlippage(200n, 50)).toBe(201n);
    expect(withSlippage(123_456_789_012_345_678n, 500)).toBe(129_629_628_462_962_962n); // ×1.05, 0.9 rounded up
  });
});
