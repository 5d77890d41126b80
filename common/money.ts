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

/** A signed decimal exactly, at any length: `units` × 10^-`scale` ("-1.50" → { units: -150n, scale: 2 }). */
export interface Decimal {
  units: bigint;
  scale: number;
}

const SIGNED_DECIMAL_RE = /^([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,3}))?$/;

/**
 * Reads a decimal as people write it ("12.5", "-3", "+4", ".5", "5.", " 7 ", "1.5e3"), exactly and
 * at any length, or null when it is not one ("", ".", "1,000", "0x10", an exponent past ±999).
 * For display and comparison; an amount to pay or store goes through parseUnits, which refuses
 * what it cannot hold exactly.
 */
export function parseDecimal(s: string): Decimal | null {
  const m = SIGNED_DECIMAL_RE.exec(s.trim());
  if (!m || !(m[2] || m[3])) return null;
  const fraction = m[3] ?? '';
  let units = BigInt((m[2] || '0') + fraction);
  if (m[1] === '-') units = -units;
  // An exponent moves the decimal point: "1.5e3" is 15 × 10^-1 × 10^3.
  const scale = fraction.length - Number(m[4] ?? 0);
  return scale >= 0 ? { units, scale } : { units: units * 10n ** BigInt(-scale), scale: 0 };
}

/** `d` in units of 10^-digits, rounded half away from zero ({ units: 1005n, scale: 3 } at 2 digits → 101n). */
export function roundDecimal(d: Decimal, digits: number): bigint {
  if (d.scale <= digits) return d.units * 10n ** BigInt(digits - d.scale);
  const step = 10n ** BigInt(d.scale - digits);
  const abs = d.units < 0n ? -d.units : d.units;
  const rounded = (abs + step / 2n) / step;
  return d.units < 0n ? -rounded : rounded;
}

/** Orders two decimal strings by value, exactly (for sorting prices): negative, 0 or positive. Throws on a non-decimal. */
export function compareDecimal(a: string, b: string): number {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  if (!x || !y) throw new RangeError(`not a decimal amount: ${JSON.stringify(x ? b : a)}`);
  const scale = Math.max(x.scale, y.scale);
  const diff = roundDecimal(x, scale) - roundDecimal(y, scale);
  return diff < 0n ? -1 : diff > 0n ? 1 : 0;
}
