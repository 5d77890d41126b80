/**
 * The dollar reference shown beside a POGS price ("≈ $12.40"): a secondary figure for orientation,
 * never what is paid. The server derives the dollars one POGS is worth (`usdPerPogs`, a decimal
 * string with up to 18 places, GET /api/price-reference); both sides turn an amount of wei into
 * dollars with these functions, exactly (bigint fixed point), rounded to the cent only at the end.
 */
import { parseDecimal, roundDecimal, TOKEN_DECIMALS } from './money';

const WEI_RE = /^\d{1,78}$/;

/**
 * The dollars `amountWei` of POGS is worth at `usdPerPogs`, rounded to the cent (half away from
 * zero) as a plain decimal string ("12.40"); null when either is not a non-negative amount (a
 * reference that cannot be computed is not shown).
 */
export function usdReference(amountWei: string | bigint, usdPerPogs: string): string | null {
  const wei = typeof amountWei === 'bigint' ? amountWei : WEI_RE.test(amountWei) ? BigInt(amountWei) : null;
  const rate = /^\d{1,40}(\.\d{1,18})?$/.test(usdPerPogs) ? parseDecimal(usdPerPogs) : null;
  if (wei === null || wei < 0n || !rate) return null;
  const cents = roundDecimal({ units: wei * rate.units, scale: TOKEN_DECIMALS + rate.scale }, 2);
  return `${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`;
}

/**
 * The reference as a shopper reads it: "≈ $12.40" (thousands grouped: "≈ $1,234.50"), "< $0.01"
 * for a positive amount worth less than a cent, null when there is no reference to show.
 */
export function formatUsdReference(amountWei: string | bigint, usdPerPogs: string): string | null {
  const usd = usdReference(amountWei, usdPerPogs);
  if (usd === null) return null;
  if (usd === '0.00') {
    const positive = BigInt(amountWei) > 0n && /[1-9]/.test(usdPerPogs);
    return positive ? '< $0.01' : '≈ $0.00';
  }
  const [whole, cents] = usd.split('.') as [string, string];
  return `≈ $${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents}`;
}
