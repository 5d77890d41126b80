/**
 * What the books' files say in words and in Koinly's formats (docs/books.md): the description of
 * each transfer in or refund out, an order's lines, Koinly's date. Pure, so the rules are tested
 * by themselves (books-text.test.ts); books-export.ts writes them.
 */
import type { ReceivedRow, SentRow } from './desk/books-reads';

/** The token as the shop and the accountant name it (the ERC-20's own symbol). */
export const BOOKS_CURRENCY = 'POGS';
/** The dollar value's currency. */
export const NET_WORTH_CURRENCY = 'USD';
/** Koinly's tag for a deposit that is income (a sale paid to the store wallet). */
export const KOINLY_INCOME = 'income';

/** Koinly's date: "YYYY-MM-DD HH:mm:ss UTC" (always UTC). */
export function koinlyDate(at: Date | string): string {
  return `${new Date(at).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** What a transfer the store wallet received was, in words. */
export function receivedDescription(
  t: Pick<ReceivedRow, 'order_id' | 'order_reorged' | 'status' | 'status_before_refund' | 'checkout_order_id'>,
): string {
  if (t.order_id && t.order_reorged) return `Payment towards order ${t.order_id}, which a chain reorganisation failed`;
  if (t.order_id) return `Order ${t.order_id} paid`;
  const refunded = t.status === 'refunded';
  const judged = refunded ? (t.status_before_refund ?? 'unmatched') : t.status;
  const what =
    judged === 'extra-payment'
      ? `Extra payment after order ${t.checkout_order_id ?? '(unknown)'} was paid`
      : judged === 'underpaid'
        ? 'Part payment of a checkout not yet paid in full (no order)'
        : 'Transfer that matched no order';
  return refunded ? `${what}; sent back` : what;
}

/** What a refund the store wallet sent gave back, in words. */
export function sentDescription(r: Pick<SentRow, 'order_id' | 'refunded_tx_hash' | 'checkout_order_id'>): string {
  if (r.order_id) return `Refund of order ${r.order_id}`;
  if (r.checkout_order_id) return `Refund of extra payment ${r.refunded_tx_hash} after order ${r.checkout_order_id}`;
  return `Refund of transfer ${r.refunded_tx_hash} (no order)`;
}

/** An order's lines: "2 × Cap (Black); 1 × Tee (M)". */
export function itemsText(items: ReadonlyArray<{ title: string; quantity: number }>): string {
  return items.map((i) => `${i.quantity} × ${i.title}`).join('; ');
}

/** A decimal as stored (numeric text, "0.050000000000000000") without its trailing zeros ("0.05"); "" for none. */
export function plainDecimal(v: string | null): string {
  if (v === null) return '';
  return v.includes('.') ? v.replace(/0+$/, '').replace(/\.$/, '') : v;
}
