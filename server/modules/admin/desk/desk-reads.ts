/**
 * The payments desk's reads of the transfers to the store wallet, and its one write (a
 * resolution): the admin's desk (server/modules/admin) pages, counts and shows them from here.
 * Which transfers need a person, and as what, is the rule of desk-kinds.ts, applied in SQL over
 * DESK_FACTS: the transfer `ct` and its checkout's order `o` (orders' part of each statement comes
 * from orders' query-parts.ts); the queue itself is the table the database keeps by the same rule
 * (payment_desk_items, see deskQueue). A resolution (payment_desk_resolutions) records only that a person
 * has dealt with a transfer; nothing here changes what settlement or the watcher wrote.
 */
import type { Knex } from 'knex';
import type { AttentionKind } from '../../../../common/payments-desk';
import type { Db } from '../../../db';
import { attentionKindSql, type FactsSql, type TransferStatus } from '../../payments';
import { joinCheckoutOrder, orderDeskColumns, orderFactsSql } from './order-parts';

/** The facts of desk-kinds.ts over the desk's queries: the transfer `ct` and its checkout's order `o`. */
const DESK_FACTS: FactsSql = {
  status: 'ct.status',
  statusBeforeRefund: 'ct.status_before_refund',
  ...orderFactsSql('o', { txHash: 'ct.tx_hash', logIndex: 'ct.log_index' }),
};
/** The transfer's kind on the desk (desk-kinds.ts attentionKindSql over DESK_FACTS), null when it needs nobody. */
const DESK_KIND_SQL = attentionKindSql(DESK_FACTS);

/** A transfer with its checkout, its order and its resolution, as the desk reads it. */
export interface DeskTransferRow {
  id: number;
  status: TransferStatus;
  status_before_refund: TransferStatus | null;
  tx_hash: string;
  log_index: number;
  block_number: string | number;
  from_address: string;
  payer_address: string | null;
  paid_with: string | null;
  amount_in: string | null;
  value_wei: string;
  intent_id: string | null;
  note: string | null;
  created_at: Date | string;
  order_id: string | null;
  order_status_reason: string | null;
  order_hold_reason: string | null;
  order_overpaid: boolean | null;
  order_late: boolean | null;
  order_total_wei: string | null;
  order_amount_paid_wei: string | null;
  order_tx_hash: string | null;
  order_log_index: number | null;
  intent_total_wei: string | null;
  resolved_at: Date | string | null;
  resolution_note: string | null;
  /** Its kind on the desk (DESK_KIND_SQL), null when it needs nobody. */
  kind: AttentionKind | null;
}

/**
 * Transfers `ids` with their checkout, its order, their resolution and their kind on the desk
 * (desk-kinds.ts; null when it needs nobody), in no particular order.
 */
export function deskTransferRows(db: Db | Knex.Transaction, ids: readonly number[]): Promise<DeskTransferRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  const q = db('chain_transfers as ct');
  joinCheckoutOrder(q, 'ct.intent_id', 'o');
  return q
    .leftJoin('checkout_intents as c', 'c.id', 'ct.intent_id')
    .leftJoin('payment_desk_resolutions as r', 'r.transfer_id', 'ct.id')
    .whereIn('ct.id', ids)
    .select(
      'ct.id',
      'ct.status',
      'ct.status_before_refund',
      'ct.tx_hash',
      'ct.log_index',
      'ct.block_number',
      'ct.from_address',
      'ct.payer_address',
      'ct.paid_with',
      'ct.amount_in',
      'ct.value_wei',
      'ct.intent_id',
      'ct.note',
      'ct.created_at',
      ...orderDeskColumns('o'),
      'c.total_wei as intent_total_wei',
      'r.resolved_at',
      'r.note as resolution_note',
      db.raw(`${DESK_KIND_SQL} as kind`),
    );
}

/** Whether there is a transfer `id` (a page's cursor names one). */
export async function transferExists(db: Db | Knex.Transaction, id: number): Promise<boolean> {
  return (await db('chain_transfers').where({ id }).first('id')) !== undefined;
}

/**
 * One page of the desk's queue, newest first: up to `limit` ids of the tab's items (the open
 * ones, or with `resolved` the history), optionally of one kind, after transfer `before`; and how
 * many items of each kind the tab holds. The items are kept in payment_desk_items by the
 * database itself (the payment_desk_items migration's triggers, in the transactions that change
 * the facts, by the rule of desk-kinds.ts), so the page is an index range of its own and the
 * counts are payment_desk_counts' few rows: neither reads the queue. One statement: rows with an
 * id are the page (n its place), rows without are a kind's count (n).
 */
export function deskQueue(
  db: Db,
  filter: { kind?: AttentionKind; resolved: boolean; before?: number; limit: number },
): Promise<Array<{ id: number | null; kind: AttentionKind | null; n: number }>> {
  const page = db('payment_desk_items as i')
    .where('i.resolved', filter.resolved)
    .orderBy([
      { column: 'i.created_at', order: 'desc' },
      { column: 'i.transfer_id', order: 'desc' },
    ])
    .limit(filter.limit)
    .select(
      'i.transfer_id as id',
      db.raw('null as kind'),
      db.raw('row_number() over (order by i.created_at desc, i.transfer_id desc)::integer as n'),
    );
  if (filter.kind) page.where('i.kind', filter.kind);
  // Exactly after the cursor's item, at the database's own precision (it may have left the tab since).
  if (filter.before !== undefined)
    page.whereRaw('(i.created_at, i.transfer_id) < (select created_at, id from chain_transfers where id = ?)', [filter.before]);
  const counts = db('payment_desk_counts as c')
    .where('c.resolved', filter.resolved)
    .groupBy('c.kind')
    .havingRaw('sum(c.n) <> 0')
    .select(db.raw('null::integer as id'), 'c.kind', db.raw('sum(c.n)::integer as n'));
  return db.select('*').from(db.raw('((?) union all (?)) as x', [page, counts]));
}

/**
 * Every transfer that is a desk item, with its time, its kind and whether it was resolved, by the
 * rule of desk-kinds.ts read from scratch over every transfer: what the desk must show.
 * @internal Tests and the bench check the desk against it; it reads every transfer.
 */
export function deskItemsFromScratch(db: Db | Knex.Transaction): Knex.QueryBuilder {
  return joinCheckoutOrder(db('chain_transfers as ct'), 'ct.intent_id', 'o')
    .whereRaw(`${DESK_KIND_SQL} is not null`)
    .select(
      'ct.id',
      'ct.created_at',
      db.raw(`${DESK_KIND_SQL} as kind`),
      db.raw('exists (select 1 from payment_desk_resolutions r where r.transfer_id = ct.id) as resolved'),
    );
}
