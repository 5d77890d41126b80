// Shop-currency arithmetic for draft orders and orders. Everything is held in integer cents so a
// 100% discount lands on exactly zero; amounts leave the emulator as strings, the way Shopify
// serialises its Decimal/Money scalars.

export interface AppliedDiscount {
  title: string | null;
  description: string | null;
  value: number;
  valueType: 'PERCENTAGE' | 'FIXED_AMOUNT';
}

interface PricedLine {
  unitCents: number;
  quantity: number;
}

export interface Totals {
  /** Sum of unit price × quantity, before the discount. */
  lineItemsCents: number;
  discountsCents: number;
  /** Line items after the order's discount (Shopify's subtotalPrice). */
  subtotalCents: number;
  shippingCents: number;
  taxCents: number;
  totalCents: number;
}

/**
 * "29.99" / "29.9" / "30" / 30 / 0 → cents; null for anything else, including more than two
 * decimals and negative amounts (callers turn that into their own userError).
 */
export function parseMoney(value: unknown): number | null {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return null;
    const cents = Math.round(value * 100);
    return Math.abs(cents - value * 100) < 1e-6 ? cents : null;
  }
  if (typeof value !== 'string') return null;
  const match = /^\s*(\d+)(?:\.(\d{1,2}))?\s*$/.exec(value);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
}

/** REST/webhook money: always two decimals, "0.00". */
export function formatRestMoney(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** Shown to shoppers on the invoice page. */
export function formatUsd(cents: number): string {
  return `${cents < 0 ? '-' : ''}$${(Math.abs(cents) / 100).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
}

/** A discount's value printed like Shopify's REST `value` ("100.0", "12.34"). */
export function formatDiscountValue(value: number): string {
  return Number.isInteger(value) ? `${value}.0` : String(value);
}

export function discountCents(baseCents: number, discount: AppliedDiscount | null): number {
  if (!discount || baseCents <= 0) return 0;
  // Shopify accepts a negative value and simply applies no discount.
  const value = Math.max(0, discount.value);
  const raw = discount.valueType === 'PERCENTAGE' ? Math.round((baseCents * value) / 100) : Math.round(value * 100);
  return Math.min(baseCents, raw);
}

export function computeTotals(lines: readonly PricedLine[], orderDiscount: AppliedDiscount | null, shippingCents: number): Totals {
  const lineItemsCents = lines.reduce((sum, l) => sum + l.unitCents * l.quantity, 0);
  const discountsCents = discountCents(lineItemsCents, orderDiscount);
  const subtotalCents = lineItemsCents - discountsCents;
  // The emulated shop charges no tax, so taxExempt changes nothing in the arithmetic.
  const taxCents = 0;
  return {
    lineItemsCents,
    discountsCents,
    subtotalCents,
    shippingCents,
    taxCents,
    totalCents: subtotalCents + shippingCents + taxCents,
  };
}
