/**
 * A checkout's lines from the session's cart: each variant's current price and stock facts (the
 * availability rule's), and whether a checkout made earlier holds the same lines, so a repeated
 * request (a double tap, the dialog opened again) reuses it.
 */
import type { Knex } from 'knex';
import type { LineFacts } from '../../../common/availability';
import { parseUnits } from '../../../common/money';
import { cartLineRows, lineForSale, lineTitle } from '../cart';
import type { IntentItemRow } from './checkout-record';

export interface CartLine extends LineFacts {
  variant_id: string;
  product_id: string;
  title: string;
}

/** The session's cart lines with their variants' current prices and stock facts (the availability rule's). */
export async function readCartLines(trx: Knex.Transaction, sessionId: string): Promise<CartLine[]> {
  const rows = await cartLineRows(trx, sessionId, 'variant');
  return rows.map((r) => ({
    variant_id: r.variant_id,
    product_id: r.product_id,
    title: lineTitle(r),
    quantity: r.quantity,
    pog_price: r.pog_price,
    is_sold_out: r.is_sold_out,
    available_for_sale: r.available_for_sale,
    available_stock: r.available_stock,
    inventory_quantity: r.inventory_quantity,
    for_sale: lineForSale(r),
  }));
}

export function sameLines(items: IntentItemRow[], lines: CartLine[], samePrices: boolean): boolean {
  const key = (v: string, q: number, p: string) => (samePrices ? `${v}:${q}:${parseUnits(p)}` : `${v}:${q}`);
  const a = items.map((i) => key(i.variant_id, i.quantity, i.unit_price)).sort();
  const b = lines.map((l) => key(l.variant_id, l.quantity, l.pog_price ?? '0')).sort();
  return a.length === b.length && a.every((k, i) => k === b[i]);
}
