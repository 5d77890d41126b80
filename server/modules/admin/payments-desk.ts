/**
 * The admin's payments desk: the transfers to the store wallet that need a person, a
 * note that one was dealt with, and the accountant's export. It reads what settlement and the
 * chain watcher wrote (docs/payments.md) and changes none of it: resolving an item only records
 * that a person has dealt with it (payment_desk_resolutions).
 *
 * Which transfers need attention, and as what (one kind per transfer, the first that applies), is
 * one rule in desk-kinds.ts: the queue's SQL filter, its counts, each item and the export's
 * statuses are made from it. The queue is filtered, counted and paged in SQL: only the transfers
 * that may need a person (every one that made no order, and those of the few orders on hold,
 * overpaid, late or failed by a reorganisation) are read, never every payment.
 *
 * Other matched transfers (a plain payment, or an earlier part of a finished one) need nobody.
 * Refunds (verified on chain by the payments module, recorded here in the admin's transaction with
 * its audit entry) are listed on their transfer's item, with what may still be refunded; a refund
 * that leaves nothing refundable, or covers an overpaid item's excess, resolves the item.
 * An item stays on the desk while its state says so; an underpaid transfer whose checkout is later
 * paid, or an unmatched one a proven wallet adopts, leaves by itself.
 */
import { Readable } from 'node:stream';
import { getAddress } from 'ethers';
import type { Knex } from 'knex';
import {
  attentionKindSchema,
  ATTENTION_PAGE_SIZE,
  PAYMENTS_EXPORT_COLUMNS,
  type AttentionItem,
  type AttentionKind,
  type AttentionPage,
  type RecordRefundRequest,
  type RefundRecord,
} from '../../../common/payments-desk';
import { ErrorCode } from '../../../common/errors';
import { parseUnits } from '../../../common/money';
import type { Config } from '../../config';
import type { Db } from '../../db';
import { AppError } from '../../lib/errors';
import { PAYMENT_REORGED } from '../orders';
import { receivedWeiByCheckout, type RefundService } from '../payments';
import { iso, pog, wei } from './desk-format';
import { recordAudit } from './audit';
import {
  attentionKindSql,
  unorderedKindSql,
  EXPORTED_TRANSFER_STATUSES,
  exportStatusSql,
  flaggedOrderSql,
  judgedStatusOf,
  UNORDERED_STATUSES,
  type FactsSql,
} from './desk-kinds';

/** Rows of the export read at a time. */
const EXPORT_BATCH = 1000;

/** The facts of desk-kinds.ts over the desk's query: the transfer `ct` and its checkout's order `o`. */
const FACTS: FactsSql = {
  status: 'ct.status',
  statusBeforeRefund: 'ct.status_before_refund',
  orderReorged: `o.status_reason = '${PAYMENT_REORGED}'`,
  paying: 'o.tx_hash = ct.tx_hash and o.log_index = ct.log_index',
  onHold: 'o.hold_reason is not null',
  overpaid: 'o.overpaid',
  late: 'o.late',
};
const KIND_SQL = attentionKindSql(FACTS);

interface Row {
  id: number;
  status: string;
  status_before_refund: string | null;
  tx_hash: string;
  log_index: number;
  block_number: string | number;
  from_address: string;
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
  /** Its kind on the desk (desk-kinds.ts), null when it needs nobody. */
  kind: AttentionKind | null;
}

/** One row of the export's union (see exportCsv). */
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

export class PaymentsDesk {
  private readonly now: () => Date;

  constructor(
    private readonly db: Db,
    private readonly deps: {
      config: Pick<Config, 'mode' | 'publicLinks'>;
      /** The chain's head block, for confirmations; absent (or failing) means none are shown. */
      chainHead?: () => Promise<number>;
      /** Verifies and records refunds on chain; absent without a chain (refunds are then refused). */
      refunds?: RefundService;
      now?: () => Date;
    },
  ) {
    this.now = deps.now ?? (() => new Date());
  }

  /**
   * A page of the queue, newest first: unresolved items (or, with `resolved`, the history),
   * optionally of one kind, after the item `before` (the previous page's `nextBefore`); with how
   * many items of each kind the tab holds and, on the open tab, how many are unresolved in all.
   * One query reads the tab's items once (places) for both the page and the counts.
   */
  async attention(filter: { kind?: AttentionKind; resolved: boolean; before?: string }): Promise<AttentionPage> {
    const db = this.db;
    const before = filter.before === undefined ? undefined : await this.cursorOf(filter.before);
    const page = db('d')
      .whereNotNull('d.kind')
      .orderBy([
        { column: 'd.created_at', order: 'desc' },
        { column: 'd.id', order: 'desc' },
      ])
      .limit(ATTENTION_PAGE_SIZE + 1)
      .select('d.id', db.raw('null as kind'), db.raw('row_number() over (order by d.created_at desc, d.id desc)::integer as n'));
    if (filter.kind) page.where('d.kind', filter.kind);
    // Exactly after the cursor's item, at the database's own precision.
    if (before !== undefined) page.whereRaw('(d.created_at, d.id) < (select created_at, id from chain_transfers where id = ?)', [before]);
    const counts = db('d')
      .whereNotNull('d.kind')
      .groupBy('d.kind')
      .select(db.raw('null::integer as id'), 'd.kind', db.raw('count(*)::integer as n'));
    const rows: Array<{ id: number | null; kind: AttentionKind | null; n: number }> = await db
      .withMaterialized('d', this.places(filter.resolved ? 'resolved' : 'open'))
      .select('*')
      .from(db.raw('((?) union all (?)) as x', [page, counts]));
    // The page's ids in its order (n), and the tab's counts.
    const ids = rows
      .filter((r) => r.id !== null)
      .sort((a, b) => a.n - b.n)
      .map((r) => r.id!);
    const byKind = Object.fromEntries(attentionKindSchema.options.map((k) => [k, 0])) as Record<AttentionKind, number>;
    for (const r of rows) if (r.id === null && r.kind) byKind[r.kind] += r.n;
    const shownIds = ids.slice(0, ATTENTION_PAGE_SIZE);
    const byId = new Map((await this.rowsOf(db, shownIds)).map((r) => [r.id, r]));
    const shown = shownIds.flatMap((id) => byId.get(id) ?? []);
    const [head, received, refunds] = await Promise.all([this.head(), receivedFor(db, shown), refundsOf(db, shown, this.explorer)]);
    return {
      items: shown.flatMap((r) => this.item(r, head, received, refunds) ?? []),
      nextBefore: ids.length > ATTENTION_PAGE_SIZE ? String(shownIds.at(-1)) : null,
      counts: byKind,
      unresolved: filter.resolved ? null : Object.values(byKind).reduce((sum, n) => sum + n, 0),
    };
  }

  /** The transfer id of a page's cursor, or 400 naming what to send. */
  private async cursorOf(before: string): Promise<number> {
    const id = transferIdOf(before);
    const known = id === null ? undefined : await this.db('chain_transfers').where({ id }).first('id');
    if (!known)
      throw new AppError(
        ErrorCode.badRequest,
        'before must be the nextBefore of the previous page, as it was given (or leave it out for the first page)',
      );
    return id!;
  }

  /**
   * Marks an item resolved with the admin's note, once: a repeated (or concurrent) call answers
   * the item as the first call left it, and only the first is audited.
   */
  async resolve(transferId: string, note: string, session: string): Promise<AttentionItem> {
    const id = transferIdOf(transferId);
    // The chain is asked outside the transaction (and only for the answer).
    const find = (db: Db | Knex.Transaction, head: number | null) => this.find(db, transferId, head);
    await this.db.transaction(async (trx) => {
      const item = await find(trx, null);
      if (item.resolved) return;
      const at = this.now();
      const inserted = await trx('payment_desk_resolutions')
        .insert({ transfer_id: id, resolved_at: at, note, session_label: session })
        .onConflict('transfer_id')
        .ignore()
        .returning('transfer_id');
      if (inserted.length === 0) return; // another click got there first
      await recordAudit(trx, {
        at,
        action: 'payment-resolved',
        session,
        target: String(id),
        changes: [
          { field: 'kind', from: item.kind, to: item.kind },
          { field: 'resolved', from: null, to: note },
        ],
      });
    });
    return find(this.db, await this.head());
  }

  /**
   * The desk's item for transfer `id` as it is now, whatever its kind; null when it needs nobody
   * (a plain payment) or there is no such transfer.
   */
  async itemOf(id: number): Promise<AttentionItem | null> {
    const rows: Row[] = await this.rowsOf(this.db, id);
    if (!rows[0]) return null;
    const [received, refunds] = await Promise.all([receivedFor(this.db, rows), refundsOf(this.db, rows, this.explorer)]);
    return this.item(rows[0], await this.head(), received, refunds);
  }

  /**
   * The store wallet is about to send a refund of `amount` (POST …/prepare-refund): the payments
   * module refuses what it would not record and holds the transfer meanwhile. Answers the item.
   */
  async prepareRefund(transferId: string, amount: string): Promise<AttentionItem> {
    await this.find(this.db, transferId, null, true); // 404 for an unknown id, before anything is locked
    const refunds = this.deps.refunds;
    if (!refunds) throw new AppError(ErrorCode.chainUnavailable, 'No chain is configured, so a refund cannot be verified.');
    const id = transferIdOf(transferId)!;
    await this.db.transaction((trx) => refunds.prepare(trx, { transferId: id, amountWei: parseUnits(amount) }));
    return this.find(this.db, transferId, await this.head(), true);
  }

  /**
   * Records refund `req` of the item's transfer, once the payments module has verified it on chain
   * (see common/payments-desk.ts recordRefundSchema): in one transaction with its audit entry, and
   * resolving the item when nothing is left to refund or an overpaid item's excess went back.
   * Repeating it answers the item as it is, with nothing recorded twice.
   */
  async refund(transferId: string, req: RecordRefundRequest, session: string): Promise<AttentionItem> {
    // Any transfer to the store wallet may be refunded (a plain payment too); an unknown one costs no RPC call.
    const current = await this.find(this.db, transferId, null, true);
    const refunds = this.deps.refunds;
    if (!refunds) throw new AppError(ErrorCode.chainUnavailable, 'No chain is configured, so a refund cannot be verified.');
    const amountWei = parseUnits(req.amount);
    // The chain is asked outside the transaction.
    const transfers = await refunds.verify(req.transactionHash, current.sender, amountWei);
    const id = Number(current.transferId);
    await this.db.transaction(async (trx) => {
      const at = this.now();
      const recorded = await refunds.record(trx, { transferId: id, transfers, amountWei, session, now: at });
      if (!recorded.created) return; // this refund was recorded already: nothing more
      const item = await this.find(trx, transferId, null, true);
      const excessWei = item.excess === null ? null : parseUnits(item.excess);
      const closes =
        BigInt(item.refundableWei) === 0n || (item.kind === 'overpaid' && excessWei !== null && recorded.refundedWei >= excessWei);
      const note = `Refunded ${pog(amountWei)} POG`;
      let resolved = false;
      if (closes && !item.resolved) {
        const inserted = await trx('payment_desk_resolutions')
          .insert({ transfer_id: id, resolved_at: at, note, session_label: session })
          .onConflict('transfer_id')
          .ignore()
          .returning('transfer_id');
        resolved = inserted.length > 0;
      }
      await recordAudit(trx, {
        at,
        action: 'payment-refunded',
        session,
        target: String(id),
        changes: [
          { field: 'refund', from: null, to: `${pog(amountWei)} POG to ${item.sender} in ${transfers[0]!.txHash}` },
          { field: 'refundable', from: pog(BigInt(item.amountWei) - recorded.refundedBeforeWei), to: item.refundable },
          ...(recorded.order ? [{ field: `order ${recorded.order.id} status`, from: recorded.order.from, to: recorded.order.to }] : []),
          ...(resolved ? [{ field: 'resolved', from: null, to: note }] : []),
        ],
      });
    });
    return this.find(this.db, transferId, await this.head(), true);
  }

  /**
   * Transfer `transferId` as the desk shows it, whatever it is: a plain payment of an order (kind
   * `paid`, never in the queue) too, so an order can be refunded from the orders view.
   */
  async get(transferId: string): Promise<AttentionItem> {
    return this.find(this.db, transferId, await this.head(), true);
  }

  /**
   * The desk item of transfer `transferId` (resolved or not), or 404 attention-item-not-found;
   * with `any`, a plain payment (kind `paid`) too.
   */
  private async find(db: Db | Knex.Transaction, transferId: string, head: number | null, any = false): Promise<AttentionItem> {
    const id = transferIdOf(transferId);
    const rows: Row[] = id === null ? [] : await this.rowsOf(db, id);
    const [received, refunds] = await Promise.all([receivedFor(db, rows), refundsOf(db, rows, this.explorer)]);
    const item = rows[0] && this.item(rows[0], head, received, refunds, any);
    if (!item)
      throw new AppError(
        ErrorCode.attentionItemNotFound,
        any ? `There is no transfer ${transferId} to the store wallet.` : `No transfer ${transferId} needs attention on the payments desk.`,
      );
    return item;
  }

  /**
   * The accountant's export (common/payments-desk.ts PAYMENTS_EXPORT_COLUMNS), from `from` to `to`
   * (whole UTC days, inclusive) as CSV (RFC 4180, CRLF), header first, oldest first, read in
   * batches so a year is never held at once. One row per payment the store kept track of:
   * - each order paid in the range (date paid; status the order's; amount paid what all its
   *   transfers carried; refunded what went back against it; its Shopify order name);
   * - each transfer seen in the range that made no order: `unmatched`, `underpaid` (its checkout
   *   still waits), `extra-payment` (it came after its checkout's order; the order's id is given),
   *   `refunded` (it went back before any order; refunded says how much).
   * A transfer a reorganisation removed carried no money and is left out. Summing amount_paid
   * minus amount_refunded gives what the store wallet kept.
   */
  exportCsv(from: string, to: string): Readable {
    const start = new Date(`${from}T00:00:00Z`);
    const end = new Date(`${to}T00:00:00Z`);
    end.setUTCDate(end.getUTCDate() + 1);
    const db = this.db;
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
   * Transfers `ids` with their checkout, its order, their resolution and their kind on the desk
   * (desk-kinds.ts; null when it needs nobody).
   */
  private rowsOf(db: Db | Knex.Transaction, ids: number | readonly number[]): Promise<Row[]> {
    if (typeof ids !== 'number' && ids.length === 0) return Promise.resolve([]);
    return db('chain_transfers as ct')
      .leftJoin('orders as o', 'o.intent_id', 'ct.intent_id')
      .leftJoin('checkout_intents as c', 'c.id', 'ct.intent_id')
      .leftJoin('payment_desk_resolutions as r', 'r.transfer_id', 'ct.id')
      .whereIn('ct.id', typeof ids === 'number' ? [ids] : ids)
      .select(
        'ct.id',
        'ct.status',
        'ct.status_before_refund',
        'ct.tx_hash',
        'ct.log_index',
        'ct.block_number',
        'ct.from_address',
        'ct.value_wei',
        'ct.intent_id',
        'ct.note',
        'ct.created_at',
        'o.id as order_id',
        'o.status_reason as order_status_reason',
        'o.hold_reason as order_hold_reason',
        'o.overpaid as order_overpaid',
        'o.late as order_late',
        'o.total_wei as order_total_wei',
        'o.amount_paid_wei as order_amount_paid_wei',
        'o.tx_hash as order_tx_hash',
        'o.log_index as order_log_index',
        'c.total_wei as intent_total_wei',
        'r.resolved_at',
        'r.note as resolution_note',
        db.raw(`${KIND_SQL} as kind`),
      );
  }

  /**
   * Where each transfer of a tab stands: its id, time and kind on the desk (null when it needs
   * nobody); the open ones, or the resolved ones. Read without reading every payment: the open
   * ones in two parts, the transfers that made no order (by status, judged by it alone) and the
   * matched transfers of the few orders whose facts may flag them (a partial index), each without
   * a resolution; the history through its resolutions, so an empty one costs nothing.
   */
  private places(scope: 'open' | 'resolved'): Knex.QueryBuilder {
    const db = this.db;
    if (scope === 'resolved')
      return db('payment_desk_resolutions as r')
        .join('chain_transfers as ct', 'ct.id', 'r.transfer_id')
        .leftJoin('orders as o', 'o.intent_id', 'ct.intent_id')
        .select('ct.id', 'ct.created_at', db.raw(`${KIND_SQL} as kind`));
    const unresolved = (q: Knex.QueryBuilder) => q.whereNotExists(db('payment_desk_resolutions as r').whereRaw('r.transfer_id = ct.id'));
    const unordered = unresolved(
      db('chain_transfers as ct')
        .whereIn('ct.status', UNORDERED_STATUSES)
        .select('ct.id', 'ct.created_at', db.raw(`${unorderedKindSql(FACTS)} as kind`)),
    );
    const ofFlaggedOrders = unresolved(
      db('orders as o')
        .join('chain_transfers as ct', 'ct.intent_id', 'o.intent_id')
        .where('ct.status', 'matched')
        .whereRaw(flaggedOrderSql(FACTS))
        .select('ct.id', 'ct.created_at', db.raw(`${KIND_SQL} as kind`)),
    );
    return db.queryBuilder().unionAll([unordered, ofFlaggedOrders], true);
  }

  private async head(): Promise<number | null> {
    if (!this.deps.chainHead) return null;
    try {
      return await this.deps.chainHead();
    } catch {
      return null; // the desk works without the chain; confirmations are left out
    }
  }

  private item(
    r: Row,
    head: number | null,
    received: Map<string, bigint>,
    refunds: Map<number, RefundRecord[]>,
    any = false,
  ): AttentionItem | null {
    const kind = r.kind ?? (any && r.status === 'matched' ? 'paid' : null);
    if (!kind) return null;
    const status = judgedStatus(r);
    const value = wei(r.value_wei);
    const block = Number(r.block_number);
    let due: string | null = null;
    if (kind === 'underpaid' && r.intent_total_wei) {
      const left = wei(r.intent_total_wei) - (received.get(r.intent_id!) ?? 0n);
      due = pog(left > 0n ? left : 0n);
    }
    let excess: string | null = null;
    if (status === 'review') excess = pog(value);
    else if (status === 'matched' && r.order_overpaid) excess = pog(wei(r.order_amount_paid_wei!) - wei(r.order_total_wei!));
    const refunded = refunds.get(r.id) ?? [];
    const refundedWei = refunded.reduce((sum, f) => sum + BigInt(f.amountWei), 0n);
    // A transfer a reorganisation removed is not on chain: the store has nothing of it to give back.
    const refundableWei = r.status !== 'removed' && value > refundedWei ? value - refundedWei : 0n;
    return {
      transferId: String(r.id),
      kind,
      sender: r.from_address,
      amount: pog(value),
      amountWei: value.toString(),
      txHash: r.tx_hash,
      logIndex: r.log_index,
      blockNumber: block,
      at: iso(r.created_at),
      ...(head !== null && status !== 'removed' ? { confirmations: Math.max(head - block + 1, 0) } : {}),
      explorerUrl: this.explorer(r.tx_hash),
      orderId: r.order_id,
      due,
      excess,
      note: r.note,
      resolved: r.resolved_at ? { at: iso(r.resolved_at), note: r.resolution_note ?? '' } : null,
      refundable: pog(refundableWei),
      refundableWei: refundableWei.toString(),
      refunds: refunded,
      refundTo: getAddress(r.from_address),
    };
  }

  /** The explorer's page of a transaction; null on the local demo chain (no explorer knows it). */
  private readonly explorer = (txHash: string): string | null => {
    const { mode, publicLinks } = this.deps.config;
    return mode === 'local' ? null : `${publicLinks.explorerUrl}/tx/${txHash}`;
  };
}

/** What the checkouts of the underpaid items among `rows` (refunded ones included) have received, for their `due`. */
const receivedFor = (db: Db | Knex.Transaction, rows: readonly Row[]) =>
  receivedWeiByCheckout(
    db,
    rows.filter((r) => judgedStatus(r) === 'underpaid' && r.intent_id).map((r) => r.intent_id!),
  );

/** The refunds recorded against each of these transfers, oldest first. */
async function refundsOf(
  db: Db | Knex.Transaction,
  rows: readonly Row[],
  explorerUrl: (txHash: string) => string | null,
): Promise<Map<number, RefundRecord[]>> {
  const byTransfer = new Map<number, RefundRecord[]>();
  if (rows.length === 0) return byTransfer;
  const found: Array<{
    id: number;
    transfer_id: number;
    order_id: string | null;
    to_address: string;
    amount_wei: string;
    tx_hash: string;
    created_at: Date | string;
    session_label: string | null;
  }> = await db('refunds')
    .whereIn(
      'transfer_id',
      rows.map((r) => r.id),
    )
    .orderBy([{ column: 'created_at' }, { column: 'id' }]);
  return found.reduce((map, f) => {
    const amountWei = wei(f.amount_wei);
    const list = map.get(f.transfer_id) ?? [];
    list.push({
      id: String(f.id),
      transferId: String(f.transfer_id),
      orderId: f.order_id,
      to: f.to_address,
      amount: pog(amountWei),
      amountWei: amountWei.toString(),
      txHash: f.tx_hash,
      explorerUrl: explorerUrl(f.tx_hash),
      at: iso(f.created_at),
      by: f.session_label,
    });
    return map.set(f.transfer_id, list);
  }, byTransfer);
}

/** The status settlement or the watcher gave the transfer (for a refunded one, what it was before). */
const judgedStatus = (r: Row) => judgedStatusOf(r.status, r.status_before_refund);

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
    .orderByRaw('at, branch, case when branch = 0 then order_id end, transfer_id')
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
    .orderByRaw('b.at, b.branch, case when b.branch = 0 then b.order_id end, b.transfer_id');
}

/** The transfer id a route names, or null when it cannot be one (chain_transfers.id is a positive int4). */
export function transferIdOf(text: string): number | null {
  if (!/^[1-9]\d{0,9}$/.test(text)) return null;
  const id = Number(text);
  return id <= 2_147_483_647 ? id : null;
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
