/**
 * What the admin's attach sheet reads of this module's tables: an unmatched transfer, the
 * checkouts that reported its hash, the checkouts it may have been for and their lines. Each is
 * one query in the caller's connection; the admin ranks the candidates and judges the evidence.
 */
import type { Knex } from 'knex';
import type { Db } from '../../../db';
import { sessionsThatProved, sessionWalletColumn } from '../../session';
import { COUNTED, type TransferStatus } from '../../payments';

type Conn = Db | Knex.Transaction;

/** Checkout statuses that are not paid (a closed one is past its time, its amounts freed). */
const UNPAID = ['open', 'underpaid', 'expired', 'closed'];

/** A recorded transfer to the store wallet, as the attach sheet reads it. */
export interface AttachTransferRow {
  id: number;
  chain_id: number;
  tx_hash: string;
  token_address: string;
  to_address: string;
  from_address: string;
  value_wei: string;
  status: TransferStatus;
  intent_id: string | null;
  order_id: string | null;
  created_at: Date | string;
}

/** The recorded transfer `id`, or undefined when there is none. */
export async function transferToAttach(db: Conn, id: number): Promise<AttachTransferRow | undefined> {
  return db('chain_transfers')
    .where({ id })
    .first(
      'id',
      'chain_id',
      'tx_hash',
      'token_address',
      'to_address',
      'from_address',
      'value_wei',
      'status',
      'intent_id',
      'order_id',
      'created_at',
    );
}

/** A checkout's report of a transaction's hash (POST /api/checkout/:id/transaction). */
export interface HashReport {
  intent_id: string;
  reported_at: Date | string;
}

/** Every checkout that reported the transaction `txHash`, first report first. */
export async function hashReports(db: Conn, txHash: string): Promise<HashReport[]> {
  return db('checkout_tx_reports')
    .where({ tx_hash: txHash })
    .orderBy([{ column: 'reported_at' }, { column: 'id' }])
    .select('intent_id', 'reported_at');
}

/** A checkout an unmatched transfer may have been for, with the wallet its session last proved. */
export interface AttachCheckoutRow {
  id: string;
  status: string;
  total_wei: string;
  /** What its counted (partial or paying) transfers delivered so far, a decimal string. */
  received_wei: string | number;
  created_at: Date | string;
  session_id: string | null;
  source_key: string | null;
  wallet_address: string | null;
}

/** What the admin searched the candidates by (attach-search.ts reads it from the query). */
export type AttachSearch = { kind: 'address'; address: string } | { kind: 'amount'; wei: bigint } | { kind: 'checkout'; prefix: string };

/** Which checkouts `attachCheckoutRows` reads for a transfer. */
export interface AttachCheckoutQuery {
  /** When the shop first saw the transfer: only checkouts opened by then. */
  seen: Date;
  /** The earliest a checkout may have been opened. */
  openedFrom: Date;
  /** Checkouts opened since then were opened at the same time as the transfer, a reason by itself. */
  sameTimeFrom: Date;
  /** What the transfer carried. */
  value: bigint;
  /** The checkout whose report of the hash is evidence, if any. */
  firstReporter: string | null;
  /**
   * The admin's search: then every checkout of the window that matches it is read, reason or not
   * (the admin knows something the shop does not), instead of those with a possible reason.
   */
  search?: AttachSearch | null;
}

/**
 * The unpaid checkouts of `transfer`'s chain, token and store wallet opened in the query's window
 * that may have a reason to be its candidates: a session that proved its sender, the first
 * reporter of its hash, opened at the same time, or a total the transfer may be close to; or, when
 * the admin searched, those that match the search. One index range (checkout_intents_attach_window)
 * bounds the read to the window, whatever the shop holds before or after it.
 */
export async function attachCheckoutRows(
  db: Conn,
  transfer: Pick<AttachTransferRow, 'chain_id' | 'token_address' | 'to_address' | 'from_address'>,
  query: AttachCheckoutQuery,
): Promise<AttachCheckoutRow[]> {
  const { seen, openedFrom, sameTimeFrom, value, firstReporter, search } = query;
  const received = db.raw(
    `(select coalesce(sum(t.value_wei), 0) from chain_transfers t where t.intent_id = c.id and t.status in (${COUNTED.map(() => '?').join(', ')}))`,
    [...COUNTED],
  );
  const q = db('checkout_intents as c')
    .where({ 'c.chain_id': transfer.chain_id, 'c.store_wallet': transfer.to_address, 'c.token_address': transfer.token_address })
    .whereIn('c.status', UNPAID)
    .where('c.created_at', '<=', seen)
    .where('c.created_at', '>=', openedFrom);
  if (search?.kind === 'address') q.whereIn('c.session_id', sessionsThatProved(db, search.address));
  else if (search?.kind === 'amount')
    q.where((w) => {
      const wei = search.wei.toString();
      w.where('c.total_wei', wei).orWhere('c.amount_wei', wei).orWhereRaw('c.total_wei - ? = cast(? as numeric)', [received, wei]);
    });
  else if (search?.kind === 'checkout') q.whereRaw('lower(c.id) like ?', [`${search.prefix}%`]);
  else
    q.where((w) => {
      // Only checkouts with a possible reason are read: a close amount needs a total of at least
      // 10/11 of the transfer (what is still due is never more than the total).
      w.whereIn('c.session_id', sessionsThatProved(db, transfer.from_address))
        .orWhere('c.created_at', '>=', sameTimeFrom)
        .orWhereRaw('c.total_wei * 11 >= cast(? as numeric) * 10', [value.toString()]);
      if (firstReporter) w.orWhere('c.id', firstReporter);
    });
  return q.select(
    'c.id',
    'c.status',
    'c.total_wei',
    db.raw('? as received_wei', [received]),
    'c.created_at',
    'c.session_id',
    'c.source_key',
    sessionWalletColumn(db, 'c.session_id', 'wallet_address'),
  );
}

/** A line of a checkout, as the attach sheet lists it. */
export interface CheckoutLine {
  intent_id: string;
  title: string;
  quantity: number;
}

/** The lines of the checkouts `intentIds`, in the order they were added (none for no checkout). */
export async function checkoutLines(db: Conn, intentIds: readonly string[]): Promise<CheckoutLine[]> {
  if (intentIds.length === 0) return [];
  return db('checkout_intent_items')
    .whereIn('intent_id', [...intentIds])
    .orderBy('id')
    .select('intent_id', 'title', 'quantity');
}
