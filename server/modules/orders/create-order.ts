/**
 * Writing a paid order (docs/payments.md §4 and §6). Payments decides that a checkout is paid and
 * whether its stock is still there; this writes what follows, inside the caller's transaction,
 * so the order, its items, the stock it takes and its Shopify hand-off job exist together with the
 * transfers that paid it or not at all.
 */
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { OrderStatus } from '../../../common/api';
import { bumpCatalogueVersion, takeSoldUnits } from '../catalogue';
import { OUT_OF_STOCK_HOLD } from './service';
import { queueOrderNews } from './outbox';
import { nextStatus } from './status';

/** The outbox kind of the job that hands a paid order to Shopify (handoff.ts runs it). */
export const HANDOFF_JOB = 'shopify-draft-order';

/** A line of the paid checkout, with its variant's stock as locked by the caller. */
export interface PaidLine {
  variant_id: string;
  product_id: string;
  title: string;
  unit_price: string;
  quantity: number;
  available_stock: number | null;
  is_sold_out: boolean;
}

export interface PaidCheckout {
  intentId: string;
  sessionId: string | null;
  totalWei: string;
  /** The transfer that completed the payment. */
  payment: { from: string; chainId: number; txHash: string; logIndex: number; blockNumber: number };
  amountPaidWei: bigint;
  overpaid: boolean;
  /** Paid after the checkout expired or was underpaid first. */
  late: boolean;
  lines: readonly PaidLine[];
  /** The line that was short when the stock was gone (the order is then held), else null. */
  outOfStock: string | null;
}

/**
 * Writes the order of `paid` and returns its id. An order either takes its stock and is queued
 * for Shopify, or, paid after the stock was gone, is held for the admin (restock or refund)
 * rather than sold twice.
 */
export async function createOrder(trx: Knex.Transaction, paid: PaidCheckout, now: Date): Promise<string> {
  const { payment, lines, outOfStock: short } = paid;
  const orderId = newOrderId();
  const status = nextStatus('pending', 'payment-verified')!;
  await trx('orders').insert({
    id: orderId,
    intent_id: paid.intentId,
    session_id: paid.sessionId,
    customer_wallet: payment.from,
    status,
    total_wei: paid.totalWei,
    amount_paid_wei: paid.amountPaidWei.toString(),
    overpaid: paid.overpaid,
    late: paid.late,
    chain_id: payment.chainId,
    tx_hash: payment.txHash,
    log_index: payment.logIndex,
    block_number: payment.blockNumber,
    needs_shipping: true,
    stock_taken: !short,
    hold_reason: short ? OUT_OF_STOCK_HOLD : null,
    status_reason: short ? `paid after the stock was gone: ${short}` : null,
    paid_at: now,
    created_at: now,
    updated_at: now,
  });
  await trx('order_items').insert(
    lines.map((i) => ({
      order_id: orderId,
      variant_id: i.variant_id,
      product_id: i.product_id,
      title: i.title,
      unit_price: i.unit_price,
      quantity: i.quantity,
    })),
  );
  if (!short) {
    // Sold units leave the admin's stock number; the last one marks the variant sold out
    // (common/availability). Shopify's inventory drops by itself when Shopify gets the order.
    await takeSoldUnits(trx, lines, now);
    await trx('outbox').insert({ kind: HANDOFF_JOB, order_id: orderId, next_attempt_at: now, created_at: now, updated_at: now });
  }
  // The shopper's devices hear of it (held or not: the payment is the news).
  await queueOrderNews(trx, orderId, status, now);
  return orderId;
}

/** The id of the order checkout `intentId` made, or null while it has none (payments' answer to the shopper). */
export async function orderIdOfCheckout(db: Knex | Knex.Transaction, intentId: string): Promise<string | null> {
  const row = (await db('orders').where({ intent_id: intentId }).first('id')) as { id: string } | undefined;
  return row?.id ?? null;
}

/** The statuses in which an order that took its stock holds it as sold until Shopify has the order. */
const SOLD_STATUSES: readonly OrderStatus[] = ['paid', 'confirmed'];

/** An order's facts that decide whether its units count as sold (unsyncedSalesByVariant). */
export interface SoldFacts {
  status: OrderStatus;
  shopify_order_id: string | null;
  stock_taken: boolean;
}

const holdsSold = (o: SoldFacts) => o.stock_taken && SOLD_STATUSES.includes(o.status) && !o.shopify_order_id;

/**
 * After order `orderId` went from `before` to `after`, in the caller's transaction: when its units
 * stopped (or began again) counting as sold, the stock shoppers see of its variants moved, so the
 * catalogue's next version names them (without this the shown stock would wait for another change
 * of those products).
 */
export async function noteSoldChange(trx: Knex.Transaction, orderId: string, before: SoldFacts, after: SoldFacts): Promise<void> {
  if (holdsSold(before) === holdsSold(after)) return;
  const items = (await trx('order_items').where({ order_id: orderId }).select('variant_id')) as Array<{ variant_id: string }>;
  await bumpCatalogueVersion(trx, { variantIds: items.map((i) => i.variant_id) });
}

/**
 * The units per variant (only `variantIds` when given) that orders took from Shopify-tracked stock
 * Shopify has no order for yet (paid or confirmed, stock taken, not handed off), in the caller's
 * connection or transaction: the stock module's unsynced sales (its StockService, built in
 * server/wiring.ts).
 */
export async function unsyncedSalesByVariant(
  db: Knex | Knex.Transaction,
  query: { variantIds?: readonly string[] },
): Promise<Map<string, number>> {
  const sold = db('order_items as i')
    .join('orders as o', 'o.id', 'i.order_id')
    .where('o.stock_taken', true)
    .whereIn('o.status', SOLD_STATUSES)
    .whereNull('o.shopify_order_id')
    .groupBy('i.variant_id')
    .select('i.variant_id', db.raw('sum(i.quantity) as n'));
  if (query.variantIds) sold.whereIn('i.variant_id', query.variantIds);
  const rows = (await sold) as Array<{ variant_id: string; n: unknown }>;
  return new Map(rows.map((r) => [r.variant_id, Number(r.n)]));
}

/** Order ids: "PG" and 10 random Crockford base-32 characters (50 bits): short, unguessable. */
function newOrderId(): string {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  const bytes = randomBytes(10);
  let id = 'PG';
  for (const b of bytes) id += alphabet[b & 31];
  return id;
}
