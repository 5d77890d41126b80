/**
 * Exact token amounts. A token amount travels as a decimal string ("12.50") and is computed
 * as bigint base units (wei, 18 decimals for $POGS). Never a JS float.
 */
export const TOKEN_DECIMALS = 18;

const DECIMAL_RE = /^(\d{1,60})(?:\.(\d{1,60}))?$/;

/** True when `s` is a plain non-negative decimal such as "0", "12", "12.5" or "0.000001". */
export function isDecimalString(s: unknown): s is string {
  return typeof s === 'string' && DECIMAL_RE.test(s);
}

/**
 * "12.5" → 12500000000000000000n. Throws on anything that is not a plain non-negative decimal or
 * that has more fraction digits than the token has decimals (that would silently lose value).
 */
export function parseUnits(s: string, decimals = TOKEN_DECIMALS): bigint {
  const m = DECIMAL_RE.exec(s.trim());
  if (!m) throw new RangeError(`not a decimal amount: ${JSON.stringify(s)}`);
  const whole = m[1];
  const frac = (m[2] ?? '').replace(/0+$/, '');
  if (frac.length > decimals) throw new RangeError(`more than ${decimals} decimals: ${s}`);
  return BigInt(whole) * 10n ** BigInt(decimals) + BigInt(frac.padEnd(decimals, '0') || '0');
}

/**
 * 12500000000000000000n → "12.50". Keeps every significant digit, with at least `minFraction`
 * fraction digits, so formatting then parsing returns the same amount.
 */
export function formatUnits(value: bigint, decimals = TOKEN_DECIMALS, minFraction = 2): string {
  const neg = value < 0n;
  const abs = neg ? -value : value;
  const base = 10n ** BigInt(decimals);
  const whole = abs / base;
  let frac = (abs % base).toString().padStart(decimals, '0').replace(/0+$/, '');
  if (frac.length < minFraction) frac = frac.padEnd(minFraction, '0');
  return `${neg ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

/** Canonical form of a decimal string: "12.5000" → "12.50", "007" → "7.00". */
export function normalizeDecimal(s: string, decimals = TOKEN_DECIMALS): string {
  return formatUnits(parseUnits(s, decimals), decimals);
}
