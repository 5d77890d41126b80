/**
 * The admin's payments desk: the transfers to the store wallet that need a person, a note that
 * one was dealt with, refunds, and the accountant's export. It reads what settlement and the chain
 * watcher wrote (docs/payments.md) and changes none of it: resolving an item only records that a
 * person has dealt with it (payment_desk_resolutions).
 *
 * Which transfers need attention, and as what, is the one rule of desk-kinds.ts: the queue's SQL
 * filter and counts (here), each item (desk-items.ts) and the export (desk-export.ts) are made from
 * it. The queue is filtered, counted and paged in SQL: only the transfers that may need a person
 * are read (every one that made no order, and those of the few orders the rule may flag), never
 * every payment. Refunds are desk-refunds.ts. An item stays on the desk while its state says so;
 * an underpaid transfer whose checkout is later paid, or an unmatched one a proven wallet adopts,
 * leaves by itself.
 */
import type { Readable } from 'node:stream';
import type { Knex } from 'knex';
import {
  attentionKindSchema,
  ATTENTION_PAGE_SIZE,
  type AttentionItem,
  type AttentionKind,
  type AttentionPage,
  type RecordRefundRequest,
} from '../../../common/payments-desk';
import { ErrorCode } from '../../../common/errors';
import type { Config } from '../../config';
import type { Db } from '../../db';
import { AppError } from '../../lib/errors';
import type { RefundService } from '../payments';
import { recordAudit } from './audit';
import { paymentsExportCsv } from './desk-export';
import { DESK_FACTS, DESK_KIND_SQL, DeskItems, markResolved, transferIdOf } from './desk-items';
import { flaggedOrderSql, MATCHED, UNORDERED_STATUSES, unorderedKindSql } from './desk-kinds';
import { DeskRefunds } from './desk-refunds';

export class PaymentsDesk {
  private readonly now: () => Date;
  private readonly items: DeskItems;
  private readonly refunds: DeskRefunds;

  constructor(
    private readonly db: Db,
    deps: {
      config: Pick<Config, 'mode' | 'publicLinks'>;
      /** The chain's head block, for confirmations; absent (or failing) means none are shown. */
      chainHead?: () => Promise<number>;
      /** Verifies and records refunds on chain; absent without a chain (refunds are then refused). */
      refunds?: RefundService;
      now?: () => Date;
    },
  ) {
    this.now = deps.now ?? (() => new Date());
    this.items = new DeskItems(db, { config: deps.config, chainHead: deps.chainHead });
    this.refunds = new DeskRefunds(db, { items: this.items, refunds: deps.refunds, now: this.now });
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
    return {
      items: await this.items.list(shownIds),
      nextBefore: ids.length > ATTENTION_PAGE_SIZE ? String(shownIds.at(-1)) : null,
      counts: byKind,
      unresolved: filter.resolved ? null : Object.values(byKind).reduce((sum, n) => sum + n, 0),
    };
  }

  /**
   * Marks an item resolved with the admin's note, once: a repeated (or concurrent) call answers
   * the item as the first call left it, and only the first is audited.
   */
  async resolve(transferId: string, note: string, session: string): Promise<AttentionItem> {
    const id = transferIdOf(transferId);
    // The chain is asked outside the transaction (and only for the answer).
    await this.db.transaction(async (trx) => {
      const item = await this.items.find(trx, transferId, null);
      if (item.resolved) return;
      const at = this.now();
      if (!(await markResolved(trx, { transferId: id!, at, note, session }))) return; // another click got there first
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
    return this.items.find(this.db, transferId, await this.items.head());
  }

  /**
   * The desk's item for transfer `id` as it is now, whatever its kind; null when it needs nobody
   * (a plain payment) or there is no such transfer.
   */
  itemOf(id: number): Promise<AttentionItem | null> {
    return this.items.itemOf(id);
  }

  /**
   * Transfer `transferId` as the desk shows it, whatever it is: a plain payment of an order (kind
   * `paid`, never in the queue) too, so an order can be refunded from the orders view.
   */
  async get(transferId: string): Promise<AttentionItem> {
    return this.items.find(this.db, transferId, await this.items.head(), true);
  }

  /** The store wallet is about to send a refund of `amount` (desk-refunds.ts). Answers the item. */
  prepareRefund(transferId: string, amount: string): Promise<AttentionItem> {
    return this.refunds.prepare(transferId, amount);
  }

  /** Records refund `req` of the item's transfer once verified on chain (desk-refunds.ts). Answers the item. */
  refund(transferId: string, req: RecordRefundRequest, session: string): Promise<AttentionItem> {
    return this.refunds.record(transferId, req, session);
  }

  /** The accountant's export from `from` to `to` (ISO dates, UTC, inclusive), CSV, streamed (desk-export.ts). */
  exportCsv(from: string, to: string): Readable {
    return paymentsExportCsv(this.db, from, to);
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
        .select('ct.id', 'ct.created_at', db.raw(`${DESK_KIND_SQL} as kind`));
    const unresolved = (q: Knex.QueryBuilder) => q.whereNotExists(db('payment_desk_resolutions as r').whereRaw('r.transfer_id = ct.id'));
    const unordered = unresolved(
      db('chain_transfers as ct')
        .whereIn('ct.status', UNORDERED_STATUSES)
        .select('ct.id', 'ct.created_at', db.raw(`${unorderedKindSql(DESK_FACTS)} as kind`)),
    );
    const ofFlaggedOrders = unresolved(
      db('orders as o')
        .join('chain_transfers as ct', 'ct.intent_id', 'o.intent_id')
        .where('ct.status', MATCHED)
        .whereRaw(flaggedOrderSql(DESK_FACTS))
        .select('ct.id', 'ct.created_at', db.raw(`${DESK_KIND_SQL} as kind`)),
    );
    return db.queryBuilder().unionAll([unordered, ofFlaggedOrders], true);
  }
}
