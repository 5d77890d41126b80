/**
 * The rows of the books (admin's books-export.ts writes them as CSV, docs/books.md): every
 * transfer the store wallet received, every refund it sent, and every order paid, each in a range
 * of time, oldest first, a batch at a time along an index from exactly where the last row was
 * (compared at the database's own precision), so every batch costs the same however long the range.
 */
import type { Db } from '../../../db';
import { PAYMENT_REORGED } from '../../orders';
import type { TransferStatus } from '../../payments';
import { joinCheckoutOrder } from './order-parts';

/** Rows of each kind read at a time. */
export const BOOKS_BATCH = 1000;
/** A transfer a reorganisation removed: it is not on chain, nothing was received. */
const REMOVED: TransferStatus = 'removed';

/** A transfer the store wallet received. */
export interface ReceivedRow {
  id: number;
  at: Date | string;
  tx_hash: string;
  value_wei: string | number;
  status: string;
  status_before_refund: string | null;
  /** The order it counts towards (it made the order or helped pay it); null if none. */
  order_id: string | null;
  /** Its order was failed by a chain reorganisation (null without an order). */
  order_reorged: boolean | null;
  /** Its order's dollars per POGS at payment (decimal text); null without an order or a reference. */
  usd_per_pogs: string | null;
  /** The order its checkout made, when it made none itself (an extra payment's). */
  checkout_order_id: string | null;
}

/** The next BOOKS_BATCH transfers received from `start` to `end` after transfer `afterId`, oldest first. */
export async function receivedBatch(db: Db, start: Date, end: Date, afterId: number | null): Promise<ReceivedRow[]> {
  const q = db('chain_transfers as ct')
    .leftJoin('orders as o', 'o.id', 'ct.order_id')
    .whereNot('ct.status', REMOVED)
    .where('ct.created_at', '>=', start)
    .where('ct.created_at', '<', end)
    .orderBy([{ column: 'ct.created_at' }, { column: 'ct.id' }])
    .limit(BOOKS_BATCH)
    .select(
      'ct.id',
      'ct.created_at as at',
      'ct.tx_hash',
      'ct.value_wei',
      'ct.status',
      'ct.status_before_refund',
      'ct.order_id',
      db.raw('o.status_reason = ? as order_reorged', [PAYMENT_REORGED]),
      db.raw('o.reference_usd_per_pogs::text as usd_per_pogs'),
      'co.id as checkout_order_id',
    );
  joinCheckoutOrder(q, 'ct.intent_id', 'co');
  if (afterId !== null) q.whereRaw('(ct.created_at, ct.id) > (select created_at, id from chain_transfers where id = ?)', [afterId]);
  return q;
}

/** A refund the store wallet sent. */
export interface SentRow {
  id: number;
  at: Date | string;
  tx_hash: string;
  amount_wei: string | number;
  /** The order it went back against; null for a transfer that made no order. */
  order_id: string | null;
  /** The transfer it refunds. */
  refunded_tx_hash: string;
  /** The order the refunded transfer's checkout made, when the transfer made none itself (an extra payment's). */
  checkout_order_id: string | null;
}

/** The next BOOKS_BATCH refunds sent from `start` to `end` after refund `afterId`, oldest first. */
export async function sentBatch(db: Db, start: Date, end: Date, afterId: number | null): Promise<SentRow[]> {
  const q = db('refunds as r')
    .join('chain_transfers as ct', 'ct.id', 'r.transfer_id')
    .where('r.created_at', '>=', start)
    .where('r.created_at', '<', end)
    .orderBy([{ column: 'r.created_at' }, { column: 'r.id' }])
    .limit(BOOKS_BATCH)
    .select(
      'r.id',
      'r.created_at as at',
      'r.tx_hash',
      'r.amount_wei',
      'r.order_id',
      'ct.tx_hash as refunded_tx_hash',
      'co.id as checkout_order_id',
    );
  joinCheckoutOrder(q, 'ct.intent_id', 'co');
  if (afterId !== null) q.whereRaw('(r.created_at, r.id) > (select created_at, id from refunds where id = ?)', [afterId]);
  return q;
}

/** An order paid, with what the ledger lists of it. */
export interface LedgerRow {
  id: string;
  at: Date | string;
  status: string;
  amount_paid_wei: string | number;
  usd_per_pogs: string | null;
  reference_block: string | number | null;
  reference_source: string | null;
  shopify_order_name: string | null;
  /** Its lines, in the order they were written. */
  items: Array<{ title: string; quantity: number }>;
  /** The hashes of the transfers that paid it, in the order they were seen. */
  txHashes: string[];
  /** The refunds sent against it, in the order they were recorded. */
  refunds: Array<{ tx_hash: string; amount_wei: string | number }>;
}

/** The next BOOKS_BATCH orders paid from `start` to `end` after order `afterId`, oldest first, with their lines, transfers and refunds. */
export async function ledgerBatch(db: Db, start: Date, end: Date, afterId: string | null): Promise<LedgerRow[]> {
  const q = db('orders as o')
    .where('o.paid_at', '>=', start)
    .where('o.paid_at', '<', end)
    .orderBy([{ column: 'o.paid_at' }, { column: 'o.id' }])
    .limit(BOOKS_BATCH)
    .select(
      'o.id',
      'o.paid_at as at',
      'o.status',
      'o.amount_paid_wei',
      db.raw('o.reference_usd_per_pogs::text as usd_per_pogs'),
      'o.reference_block',
      'o.reference_source',
      'o.shopify_order_name',
    );
  if (afterId !== null) q.whereRaw('(o.paid_at, o.id) > (select paid_at, id from orders where id = ?)', [afterId]);
  const orders: Array<Omit<LedgerRow, 'items' | 'txHashes' | 'refunds'>> = await q;
  if (orders.length === 0) return [];
  const ids = orders.map((o) => o.id);
  const [items, transfers, refunds] = await Promise.all([
    db('order_items').whereIn('order_id', ids).orderBy('id').select('order_id', 'title', 'quantity'),
    db('chain_transfers').whereIn('order_id', ids).whereNot('status', REMOVED).orderBy('id').select('order_id', 'tx_hash'),
    db('refunds').whereIn('order_id', ids).orderBy('id').select('order_id', 'tx_hash', 'amount_wei'),
  ]);
  const rows = new Map<string, LedgerRow>(orders.map((o) => [o.id, { ...o, items: [], txHashes: [], refunds: [] }]));
  for (const i of items as Array<{ order_id: string; title: string; quantity: number }>) rows.get(i.order_id)!.items.push(i);
  for (const t of transfers as Array<{ order_id: string; tx_hash: string }>) {
    const hashes = rows.get(t.order_id)!.txHashes;
    if (!hashes.includes(t.tx_hash)) hashes.push(t.tx_hash);
  }
  for (const r of refunds as Array<{ order_id: string; tx_hash: string; amount_wei: string }>) rows.get(r.order_id)!.refunds.push(r);
  return [...rows.values()];
}
