/**
 * The accountant's export (common/payments-desk.ts PAYMENTS_EXPORT_COLUMNS), from `from` to `to`
 * (whole UTC days, inclusive) as CSV (RFC 4180, CRLF), header first, oldest first, read in batches
 * so a year is never held at once. One row per payment the store kept track of:
 * - each order paid in the range (date paid; status the order's; amount paid what all its
 *   transfers carried; refunded what went back against it; its Shopify order name);
 * - each transfer seen in the range that made no order: `unmatched`, `underpaid` (its checkout
 *   still waits), `extra-payment` (it came after its checkout's order; the order's id is given),
 *   `refunded` (it went back before any order; refunded says how much).
 * A transfer a reorganisation removed carried no money and is left out. Summing amount_paid minus
 * amount_refunded gives what the store wallet kept. Which transfers are listed, and the status of
 * each, are the rule of desk-kinds.ts (EXPORTED_TRANSFER_STATUSES, exportStatusSql).
 */
import { Readable } from 'node:stream';
import type { Knex } from 'knex';
import { PAYMENTS_EXPORT_COLUMNS } from '../../../common/payments-desk';
import type { Db } from '../../db';
import { iso, pog, wei } from './desk-format';
import { EXPORTED_TRANSFER_STATUSES, exportStatusSql } from './desk-kinds';

/** Rows of the export read at a time. */
const EXPORT_BATCH = 1000;
/** The export's order over the union's columns (of table `t`): time, orders before transfers, then id. */
const exportOrder = (t: string) => `${t}at, ${t}branch, case when ${t}branch = 0 then ${t}order_id end, ${t}transfer_id`;

/** One row of the export's union (see exportBatch). */
interface ExportRow {
  at: Date | string;
  /** 0 for an order's row, 1 for a transfer's (at the same instant, orders come first). */
  branch: number;
  /** Null on an order's row. */
  transfer_id: number | null;
  order_id: string | null;
  status: string;
  tx_hash: string;
  sender: string;
  paid_wei: string | number;
  /** What went back: against the order (all its transfers), or against the transfer that made none. */
  refunded_wei: string | number;
  name: string | null;
}

/** The export from `from` to `to` (ISO dates, UTC, inclusive), streamed. */
export function paymentsExportCsv(db: Db, from: string, to: string): Readable {
  const start = new Date(`${from}T00:00:00Z`);
  const end = new Date(`${to}T00:00:00Z`);
  end.setUTCDate(end.getUTCDate() + 1);
  // One chunk per batch (a chunk per line would cost more than the rows).
  async function* chunks(): AsyncGenerator<string> {
    yield csvLine(PAYMENTS_EXPORT_COLUMNS);
    let after: ExportRow | null = null;
    for (;;) {
      const batch: ExportRow[] = await exportBatch(db, start, end, after);
      let text = '';
      for (const r of batch) {
        const fields = [iso(r.at), r.order_id ?? '', r.status, r.tx_hash, r.sender, pog(wei(r.paid_wei)), pog(wei(r.refunded_wei))];
        text += csvLine([...fields, r.name ?? '']);
      }
      if (text) yield text;
      if (batch.length < EXPORT_BATCH) return;
      after = batch.at(-1)!;
    }
  }
  return Readable.from(chunks());
}

/**
 * One batch of the export after row `after` (oldest first: time, then orders before transfers,
 * then id). Each side reads its own next EXPORT_BATCH rows along an index from exactly where the
 * last row was (compared at the database's own precision), so every batch costs the same however
 * long the range: the orders paid in the range, and the transfers seen in it that made no order
 * (desk-kinds.ts names them; a transfer a reorganisation removed carried no money and is left out).
 */
function exportBatch(db: Db, start: Date, end: Date, after: ExportRow | null): Knex.QueryBuilder {
  const orders = db('orders as o')
    .where('o.paid_at', '>=', start)
    .where('o.paid_at', '<', end)
    .orderBy([{ column: 'o.paid_at' }, { column: 'o.id' }])
    .limit(EXPORT_BATCH)
    .select(
      'o.paid_at as at',
      db.raw('0 as branch'),
      db.raw('null::integer as transfer_id'),
      'o.id as order_id',
      'o.status as status',
      'o.tx_hash as tx_hash',
      'o.customer_wallet as sender',
      'o.amount_paid_wei as paid_wei',
      'o.shopify_order_name as name',
    );
  const transfers = db('chain_transfers as ct')
    .leftJoin('orders as o', 'o.intent_id', 'ct.intent_id')
    .whereNull('ct.order_id')
    .whereIn('ct.status', EXPORTED_TRANSFER_STATUSES)
    .where('ct.created_at', '>=', start)
    .where('ct.created_at', '<', end)
    .orderBy([{ column: 'ct.created_at' }, { column: 'ct.id' }])
    .limit(EXPORT_BATCH)
    .select(
      'ct.created_at as at',
      db.raw('1 as branch'),
      'ct.id as transfer_id',
      'o.id as order_id',
      db.raw(`${exportStatusSql('ct.status')} as status`),
      'ct.tx_hash as tx_hash',
      'ct.from_address as sender',
      'ct.value_wei as paid_wei',
      db.raw('null::text as name'),
    );
  if (after?.transfer_id === null) {
    orders.whereRaw('(o.paid_at, o.id) > (select paid_at, id from orders where id = ?)', [after.order_id]);
    transfers.whereRaw('ct.created_at >= (select paid_at from orders where id = ?)', [after.order_id]);
  } else if (after) {
    orders.whereRaw('o.paid_at > (select created_at from chain_transfers where id = ?)', [after.transfer_id]);
    transfers.whereRaw('(ct.created_at, ct.id) > (select created_at, id from chain_transfers where id = ?)', [after.transfer_id]);
  }
  const batch = db
    .select('*')
    .from(db.raw('((?) union all (?)) as x', [orders, transfers]))
    .orderByRaw(exportOrder(''))
    .limit(EXPORT_BATCH);
  // What went back, summed for the batch's rows only: against an order (all its transfers), or
  // against a transfer that made none.
  const refunded = (key: 'order_id' | 'transfer_id', branch: number) =>
    db('refunds')
      .whereIn(key, db('b').where('b.branch', branch).select(`b.${key}`))
      .groupBy(key)
      .select(key, db.raw('sum(amount_wei) as n'))
      .as(`r${branch}`);
  return db
    .with('b', batch)
    .from('b')
    .leftJoin(refunded('order_id', 0), (on) => on.on('r0.order_id', 'b.order_id').andOnVal('b.branch', '=', 0))
    .leftJoin(refunded('transfer_id', 1), (on) => on.on('r1.transfer_id', 'b.transfer_id').andOnVal('b.branch', '=', 1))
    .select('b.*', db.raw('coalesce(r0.n, r1.n, 0) as refunded_wei'))
    .orderByRaw(exportOrder('b.'));
}

/**
 * What a spreadsheet may run as a formula: =, +, - or @ first, after any spaces or control
 * characters it skips (" =1+1", "\u00a0@SUM(A1)"), or a tab or CR first (OWASP's CSV injection list).
 */
const FORMULA_START = /^(?:[\s\p{Cc}]*[=+\-@]|[\t\r])/u;

/**
 * One CSV record (RFC 4180): a field with a comma, quote or line break is quoted, its quotes
 * doubled. A field a spreadsheet would run as a formula (FORMULA_START: text from Shopify, say)
 * gets a leading apostrophe, so it is shown as text.
 */
export function csvLine(fields: readonly string[]): string {
  return (
    fields
      .map((field) => {
        const f = FORMULA_START.test(field) ? `'${field}` : field;
        return /[",\r\n]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f;
      })
      .join(',') + '\r\n'
  );
}
