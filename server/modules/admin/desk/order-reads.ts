/**
 * What the admin's orders view reads of orders, in the caller's connection: a page of orders with
 * what was refunded against each (by status, by a prefix of the id, payer or tx hash, and before
 * where the previous page ended), one order, its items, and the orders' Shopify hand-off jobs.
 * The admin formats them; nothing here writes.
 */
import type { Knex } from 'knex';
import type { OrderStatus } from '../../../../common/api';
import type { Db } from '../../../db';
import { HANDOFF_JOB } from '../../orders';

/** The columns a search term is a prefix of (each with its prefix index). */
const SEARCHED = ['id', 'customer_wallet', 'tx_hash'] as const;
/**
 * How many orders one column may match before a term counts as common: below it, the matches are
 * read along the prefix indexes and sorted; from it on, the newest are found walking back in time.
 */
const SEARCH_CAP = 1000;

/** An order as the admin's orders view reads it, with the sum of its refunds (`refunded_wei`, decimal text). */
export interface AdminOrderRecord {
  id: string;
  intent_id: string;
  status: OrderStatus;
  customer_wallet: string;
  total_wei: string;
  amount_paid_wei: string;
  overpaid: boolean;
  late: boolean;
  hold_reason: string | null;
  status_reason: string | null;
  tx_hash: string;
  shopify_draft_order_id: string | null;
  shopify_order_id: string | null;
  shopify_order_name: string | null;
  paid_at: Date | string;
  confirmed_at: Date | string | null;
  shipped_at: Date | string | null;
  updated_at: Date | string;
  refunded_wei: string;
  reference_usd_per_pogs: string | null;
  reference_block: string | number | null;
  reference_source: string | null;
}

/** An order's Shopify hand-off job (outbox, kind HANDOFF_JOB): its attempts, last failure and when it was done. */
export interface HandoffJobRecord {
  order_id: string;
  attempts: number;
  last_error: string | null;
  last_error_at: Date | string | null;
  last_failed_attempt: number;
  next_attempt_at: Date | string;
  done_at: Date | string | null;
}

/** A line of an order: what was bought, how many, at what unit price (decimal text). */
interface OrderItemRecord {
  title: string;
  quantity: number;
  unit_price: string;
}

/**
 * At most `limit` orders, newest paid first (then by id): in `status` when given; whose id, payer
 * or tx hash starts with `prefix` when given (lower case, ending in %, holding no other LIKE
 * wildcard); and paid before `before` (where the previous page ended: its last paid time and id)
 * when given.
 */
export async function ordersNewestFirst(
  db: Db | Knex.Transaction,
  filter: { limit: number; status?: OrderStatus; prefix?: string; before?: { paidAt: Date; id: string } },
): Promise<AdminOrderRecord[]> {
  const { status, prefix, before } = filter;
  const q = ordersWithRefunds(db).limit(filter.limit);
  if (status) q.where('o.status', status);
  if (prefix) {
    const found = await matching(db, prefix);
    if (found) q.whereIn('o.id', found);
    // A common term: its orders are dense, so the newest are found quickly walking back in time.
    else q.where((w) => SEARCHED.reduce((or, column) => or.orWhereRaw(`lower(o.${column}) collate "C" like ?`, [prefix]), w));
  }
  if (before)
    q.where((w) =>
      w.where('o.paid_at', '<', before.paidAt).orWhere((e) => e.where('o.paid_at', '=', before.paidAt).where('o.id', '<', before.id)),
    );
  return q;
}

/** Order `id` with what was refunded against it, or undefined. */
export async function orderById(db: Db | Knex.Transaction, id: string): Promise<AdminOrderRecord | undefined> {
  return (await ordersWithRefunds(db).where('o.id', id).first()) as AdminOrderRecord | undefined;
}

/** Order `orderId`'s items, in the order they were written. */
export function orderItems(db: Db | Knex.Transaction, orderId: string): Promise<OrderItemRecord[]> {
  return db('order_items').where({ order_id: orderId }).orderBy('id').select('title', 'quantity', 'unit_price');
}

/** The Shopify hand-off job of each of these orders, by order id (orders without one are absent). */
export async function handoffJobs(db: Db | Knex.Transaction, orderIds: string[]): Promise<Map<string, HandoffJobRecord>> {
  if (orderIds.length === 0) return new Map();
  const rows: HandoffJobRecord[] = await db('outbox')
    .where({ kind: HANDOFF_JOB })
    .whereIn('order_id', orderIds)
    .select('order_id', 'attempts', 'last_error', 'last_error_at', 'last_failed_attempt', 'next_attempt_at', 'done_at');
  return new Map(rows.map((r) => [r.order_id, r]));
}

/**
 * The ids of the orders whose id, payer or tx hash starts with `prefix` (lower case, ending in
 * %), each read along its prefix index (migrations: desk_volume); null when one of them matches
 * more than SEARCH_CAP orders (a common term).
 */
async function matching(db: Db | Knex.Transaction, prefix: string): Promise<string[] | null> {
  const branches = SEARCHED.map((column, i) =>
    db('orders')
      .whereRaw(`lower(${column}) collate "C" like ?`, [prefix])
      .orderByRaw(`lower(${column}) collate "C"`)
      .limit(SEARCH_CAP + 1)
      .select('id', db.raw(`${i} as branch`)),
  );
  const rows: Array<{ id: string; branch: number }> = await db
    .select('*')
    .from(db.raw(`(${branches.map(() => '(?)').join(' union all ')}) as m`, branches));
  const perBranch = SEARCHED.map((_, i) => rows.filter((r) => r.branch === i).length);
  if (perBranch.some((n) => n > SEARCH_CAP)) return null;
  return [...new Set(rows.map((r) => r.id))];
}

/** Orders with what was refunded against each, newest paid first (then by id). */
function ordersWithRefunds(db: Db | Knex.Transaction): Knex.QueryBuilder {
  return db('orders as o')
    .orderBy([
      { column: 'o.paid_at', order: 'desc' },
      { column: 'o.id', order: 'desc' },
    ])
    .select(
      'o.id',
      'o.intent_id',
      'o.status',
      'o.customer_wallet',
      'o.total_wei',
      'o.amount_paid_wei',
      'o.overpaid',
      'o.late',
      'o.hold_reason',
      'o.status_reason',
      'o.tx_hash',
      'o.shopify_draft_order_id',
      'o.shopify_order_id',
      'o.shopify_order_name',
      'o.paid_at',
      'o.confirmed_at',
      'o.shipped_at',
      'o.updated_at',
      'o.reference_usd_per_pogs',
      'o.reference_block',
      'o.reference_source',
      db.raw('(select coalesce(sum(r.amount_wei), 0)::text from refunds r where r.order_id = o.id) as refunded_wei'),
    );
}
