/**
 * A swap quote's amounts as the shopper reads them ("about 0.00421 ETH, at most 0.00423"), from
 * the exact base units (common/money.ts): the estimate rounded to the nearest shown digit, the
 * bound rounded up, never down, so no figure shown is less than the wallet may take. Pure.
 */
import { formatUnits } from '../../../../common/money';
import type { SwapQuote } from '../../../../common/swap-pay';

/** Enough fraction digits to show three significant ones of `units` (at least 2, at most the coin's decimals). */
export function shownDigits(units: bigint, decimals: number): number {
  const one = 10n ** BigInt(decimals);
  if (units >= one || units <= 0n) return Math.min(2, decimals);
  const leadingZeros = decimals - units.toString().length;
  return Math.min(decimals, Math.max(2, leadingZeros + 3));
}

/** `units` with `digits` fraction digits: to the nearest (half up), up or down. */
export function roundUnits(units: bigint, decimals: number, digits: number, mode: 'nearest' | 'up' | 'down'): string {
  const step = 10n ** BigInt(decimals - digits);
  const rounded = ((units + (mode === 'up' ? step - 1n : mode === 'nearest' ? step / 2n : 0n)) / step) * step;
  return formatUnits(rounded, decimals, digits);
}

export interface QuoteFigures {
  /** What the pools ask now, rounded to the nearest shown digit. */
  about: string;
  /** The most the swap may take, rounded up. */
  atMost: string;
  /** The bound, every digit. */
  atMostExact: string;
}

export function quoteFigures(quote: Pick<SwapQuote, 'amountIn' | 'amountInMax' | 'decimals'>): QuoteFigures {
  const amountIn = BigInt(quote.amountIn);
  const amountInMax = BigInt(quote.amountInMax);
  // Both at the bound's precision, so they read alike.
  const digits = shownDigits(amountInMax, quote.decimals);
  return {
    about: roundUnits(amountIn, quote.decimals, digits, 'nearest'),
    atMost: roundUnits(amountInMax, quote.decimals, digits, 'up'),
    atMostExact: formatUnits(amountInMax, quote.decimals, 0),
  };
}
