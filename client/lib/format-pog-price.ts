/** Suffix the spec puts after every displayed price. */
export const POG_CURRENCY_LABEL = '$POGS';

const PLAIN_DECIMAL = /^([+-])?(\d*)(?:\.(\d*))?$/;

/**
 * Formats a POG price for display: two decimals, thousands separators, then ' $POGS'
 * (spec §5). Missing or non-numeric input shows '0 $POGS'.
 *
 * Prices arrive as decimal strings that may exceed what a float holds exactly, so plain decimal
 * strings are grouped and rounded by string arithmetic (half away from zero), never via Number.
 */
export function formatPogPrice(value: string | number | null | undefined): string {
  return `${formatPogAmount(value)} ${POG_CURRENCY_LABEL}`;
}

/**
 * The number part of {@link formatPogPrice} alone ('1,234.50'; '0' when missing or
 * non-numeric), for places that put their own unit after it (the cart drawer's 'POG').
 */
export function formatPogAmount(value: string | number | null | undefined): string {
  const normalized = normalizeDecimal(value);
  return normalized === null ? '0' : roundAndGroup(normalized);
}

interface Decimal {
  negative: boolean;
  integer: string;
  fraction: string;
}

function normalizeDecimal(value: string | number | null | undefined): Decimal | null {
  if (value === null || value === undefined) return null;
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    // Numbers are already floats; their shortest round-trip form is the best string we have.
    // (String() would switch to exponent notation outside 1e-7..1e21.)
    if (Math.abs(value) >= 1e21) text = BigInt(value).toString();
    else if (value !== 0 && Math.abs(value) < 1e-6) text = value.toFixed(20);
    else text = String(value);
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return null;
  }
  if (text === '') return null;

  const match = PLAIN_DECIMAL.exec(text);
  if (match && (match[2] || match[3])) {
    return { negative: match[1] === '-', integer: match[2] ?? '', fraction: match[3] ?? '' };
  }
  // Other spellings a number parser accepts ('1e3', '0x10'): parse, then format the result.
  const parsed = Number(text);
  if (!Number.isFinite(parsed)) return null;
  if (typeof value === 'number') return null; // unreachable: numbers always stringify as plain decimals
  return normalizeDecimal(parsed);
}

function roundAndGroup({ negative, integer, fraction }: Decimal): string {
  let digits = (integer.replace(/^0+/, '') || '0') + (fraction + '00').slice(0, 2);
  const roundUp = (fraction[2] ?? '0') >= '5';
  if (roundUp) digits = incrementDigits(digits);
  const intPart = digits.slice(0, -2).replace(/^0+/, '') || '0';
  const fracPart = digits.slice(-2);
  const isZero = /^0+$/.test(intPart + fracPart);
  const grouped = intPart.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative && !isZero ? '-' : ''}${grouped}.${fracPart}`;
}

function incrementDigits(digits: string): string {
  const chars = digits.split('');
  for (let i = chars.length - 1; i >= 0; i--) {
    if (chars[i] === '9') {
      chars[i] = '0';
    } else {
      chars[i] = String(Number(chars[i]) + 1);
      return chars.join('');
    }
  }
  return '1' + chars.join('');
}
