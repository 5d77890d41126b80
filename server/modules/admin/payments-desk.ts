/**
 * The admin's payments desk (issue 13): the transfers to the store wallet that need a person, a
 * note that one was dealt with, and the accountant's export. It reads what settlement and the
 * chain watcher wrote (docs/payments.md) and changes none of it: resolving an item only records
 * that a person has dealt with it (payment_desk_resolutions).
 *
 * Which transfers need attention, and as what (one kind per transfer, the first that applies):
 *
 * | chain_transfers.status | the order (joined by the transfer's checkout)         | kind           |
 * |------------------------|-------------------------------------------------------|----------------|
 * | removed                | (any; the watcher undid it in a reorganisation)        | `reorged`      |
 * | unmatched              | none: no exact amount, no proven sender                | `unmatched`    |
 * | underpaid              | none yet: the checkout waits for the rest (`due`)      | `underpaid`    |
 * | review                 | the checkout was already paid: the whole transfer is excess | `overpaid` |
 * | matched                | status_reason 'payment-reorged' (failed by a reorg)    | `reorged`      |
 * | matched, the order's paying transfer | hold_reason set ('out-of-stock')         | `out-of-stock` |
 * | matched, the order's paying transfer | overpaid (excess ≥ a cent)               | `overpaid`     |
 * | matched, the order's paying transfer | late (paid after the checkout's time, or after an underpayment) | `late` |
 * | refunded               | (made no order; money went back) the kind of `status_before_refund` (removed, unmatched, underpaid or review), as above |
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
import { PAYMENT_REORGED, refundedWeiByOrder } from '../orders';
import { receivedWeiByCheckout, refundedWeiByTransfer, type RefundService } from '../payments';
import { iso, pog, wei } from './desk-format';
import { recordAudit } from './audit';

/** The status reason the orders module writes when a reorganisation fails an order. */
const EXPORT_BATCH = 500;

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
}

/** One row of the export's union (see exportCsv). */
interface ExportRow {
  at: Date | string;
  key: string;
  /** Null on an order's row. */
  transfer_id: number | null;
  order_id: string | null;
  status: string;
  tx_hash: string;
  sender: string;
  paid_wei: string | number;
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

  /** The queue, newest first: unresolved items (or, with `resolved`, the history), optionally of one kind. */
  async attention(filter: { kind?: AttentionKind; resolved: boolean }): Promise<AttentionPage> {
    const rows = await this.rows();
    const head = await this.head();
    const [received, refunds] = await Promise.all([receivedFor(this.db, rows), refundsOf(this.db, rows, this.explorer)]);
    const all = rows.flatMap((r) => {
      const item = this.item(r, head, received, refunds);
      return item ? [item] : [];
    });
    return {
      items: all.filter((i) => (i.resolved !== null) === filter.resolved && (!filter.kind || i.kind === filter.kind)),
      unresolved: all.filter((i) => i.resolved === null).length,
    };
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
    const rows = await this.rows(this.db, id);
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
    const rows = id === null ? [] : await this.rows(db, id, any);
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
    const orders = db('orders as o')
      .where('o.paid_at', '>=', start)
      .where('o.paid_at', '<', end)
      .select(
        'o.paid_at as at',
        db.raw("'o:' || o.id as key"),
        db.raw('null as transfer_id'),
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
      .whereIn('ct.status', ['unmatched', 'underpaid', 'review', 'refunded'])
      .where('ct.created_at', '>=', start)
      .where('ct.created_at', '<', end)
      .select(
        'ct.created_at as at',
        db.raw("'t:' || lpad(ct.id::text, 10, '0') as key"),
        'ct.id as transfer_id',
        'o.id as order_id',
        db.raw("case ct.status when 'review' then 'extra-payment' else ct.status end as status"),
        'ct.tx_hash as tx_hash',
        'ct.from_address as sender',
        'ct.value_wei as paid_wei',
        db.raw('null as name'),
      );
    async function* lines(): AsyncGenerator<string> {
      yield csvLine(PAYMENTS_EXPORT_COLUMNS);
      let after: { at: Date; key: string } | null = null;
      for (;;) {
        const q = db
          .select('*')
          .from(db.raw('(? union all ?) as x', [orders, transfers]))
          .orderBy([
            { column: 'at', order: 'asc' },
            { column: 'key', order: 'asc' },
          ])
          .limit(EXPORT_BATCH);
        if (after) {
          const { at, key } = after;
          q.where((w) => w.where('at', '>', at).orWhere((e) => e.where('at', '=', at).where('key', '>', key)));
        }
        const batch: ExportRow[] = await q;
        // What went back: against an order (all its transfers), or against a transfer that made none.
        const ordered = batch.filter((r) => r.transfer_id === null).map((r) => r.order_id!);
        const byOrder = await refundedWeiByOrder(db, ordered);
        const byTransfer = await refundedWeiByTransfer(
          db,
          batch.flatMap((r) => (r.transfer_id === null ? [] : [r.transfer_id])),
        );
        for (const r of batch) {
          const refunded = (r.transfer_id === null ? byOrder.get(r.order_id!) : byTransfer.get(r.transfer_id)) ?? 0n;
          const fields = [iso(r.at), r.order_id ?? '', r.status, r.tx_hash, r.sender, pog(wei(r.paid_wei)), pog(refunded)];
          yield csvLine([...fields, r.name ?? '']);
        }
        if (batch.length < EXPORT_BATCH) return;
        const last = batch.at(-1)!;
        after = { at: new Date(last.at), key: last.key };
      }
    }
    return Readable.from(lines());
  }

  /**
   * Every transfer that may need attention (see the table above), newest first; or the one with
   * `id`, and with `any` that one whatever it is (a plain payment too).
   */
  private rows(db: Db | Knex.Transaction = this.db, id?: number, any = false): Promise<Row[]> {
    const q = db('chain_transfers as ct')
      .leftJoin('orders as o', 'o.intent_id', 'ct.intent_id')
      .leftJoin('checkout_intents as c', 'c.id', 'ct.intent_id')
      .leftJoin('payment_desk_resolutions as r', 'r.transfer_id', 'ct.id')
      .where((w) =>
        any && id !== undefined
          ? w.where('ct.id', id)
          : w
              .whereIn('ct.status', ['removed', 'unmatched', 'underpaid', 'review', 'refunded'])
              .orWhere((m) =>
                m
                  .where('ct.status', 'matched')
                  .where((f) =>
                    f
                      .where('o.status_reason', PAYMENT_REORGED)
                      .orWhere((own) =>
                        own
                          .whereRaw('o.tx_hash = ct.tx_hash and o.log_index = ct.log_index')
                          .where((flag) => flag.whereNotNull('o.hold_reason').orWhere('o.overpaid', true).orWhere('o.late', true)),
                      ),
                  ),
              ),
      )
      .orderBy([
        { column: 'ct.created_at', order: 'desc' },
        { column: 'ct.id', order: 'desc' },
      ])
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
      );
    if (id !== undefined) q.where('ct.id', id);
    return q;
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
    const kind = kindOf(r) ?? (any && r.status === 'matched' ? 'paid' : null);
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
const judgedStatus = (r: Row) => (r.status === 'refunded' ? (r.status_before_refund ?? 'unmatched') : r.status);

function kindOf(r: Row): AttentionKind | null {
  switch (judgedStatus(r)) {
    case 'removed':
      return 'reorged';
    case 'unmatched':
      return 'unmatched';
    case 'underpaid':
      return 'underpaid';
    case 'review':
      return 'overpaid';
    case 'matched': {
      if (r.order_status_reason === PAYMENT_REORGED) return 'reorged';
      const paying = r.order_tx_hash === r.tx_hash && r.order_log_index === r.log_index;
      if (!paying) return null;
      if (r.order_hold_reason) return 'out-of-stock';
      if (r.order_overpaid) return 'overpaid';
      if (r.order_late) return 'late';
      return null;
    }
    default:
      return null;
  }
}

/** The transfer id a route names, or null when it cannot be one (chain_transfers.id is a positive int4). */
export function transferIdOf(text: string): number | null {
  if (!/^[1-9]\d{0,9}$/.test(text)) return null;
  const id = Number(text);
  return id <= 2_147_483_647 ? id : null;
}

/**
 * One CSV record (RFC 4180): a field with a comma, quote or line break is quoted, its quotes
 * doubled. A field a spreadsheet would run as a formula (=, +, -, @, tab, CR first: text from
 * Shopify, say) gets a leading apostrophe, so it is shown as text (OWASP's CSV injection advice).
 */
export function csvLine(fields: readonly string[]): string {
  return (
    fields
      .map((field) => {
        const f = /^[=+\-@\t\r]/.test(field) ? `'${field}` : field;
        return /[",\r\n]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f;
      })
      .join(',') + '\r\n'
  );
}
