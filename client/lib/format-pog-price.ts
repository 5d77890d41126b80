import { formatUnits, parseDecimal, roundDecimal, type Decimal } from '../../common/money';

/** Suffix put after every displayed price. */
export const POG_CURRENCY_LABEL = '$POGS';

/**
 * Formats a POG price for display: two decimals, thousands separators, then ' $POGS'.
 * Missing or non-numeric input shows '0 $POGS'.
 *
 * Prices arrive as decimal strings that may exceed what a float holds exactly, so they are read
 * and rounded (half away from zero) exactly, by common/money, never via Number.
 */
export function formatPogPrice(value: string | number | null | undefined): string {
  return `${formatPogAmount(value)} ${POG_CURRENCY_LABEL}`;
}

/**
 * The number part of {@link formatPogPrice} alone ('1,234.50'; '0' when missing or
 * non-numeric), for places that put their own unit after it (the cart drawer's 'POG').
 */
export function formatPogAmount(value: string | number | null | undefined): string {
  const decimal = toDecimal(value);
  return decimal === null ? '0' : roundAndGroup(decimal);
}

/** The amount to show, or null when missing or non-numeric. */
function toDecimal(value: string | number | null | undefined): Decimal | null {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    // Numbers are already floats; their shortest round-trip form is the best string we have.
    // (String() would switch to exponent notation outside 1e-7..1e21.)
    if (Math.abs(value) >= 1e21) return parseDecimal(BigInt(value).toString());
    if (value !== 0 && Math.abs(value) < 1e-6) return parseDecimal(value.toFixed(20));
    return parseDecimal(String(value));
  }
  if (typeof value !== 'string') return null;
  return parseDecimal(value);
}

/** Two decimals (half away from zero) with thousands separators: '1,234.50'; never '-0.00'. */
function roundAndGroup(decimal: Decimal): string {
  const [whole, fraction] = formatUnits(roundDecimal(decimal, 2), 2).split('.');
  return `${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction}`;
}
