/**
 * The admin's payments desk: the transfers to the store wallet that need a person, a note that
 * one was dealt with, refunds, and the accountant's export. It reads what settlement and the chain
 * watcher wrote (docs/payments.md) and changes none of it: resolving an item only records that a
 * person has dealt with it (payment_desk_resolutions).
 *
 * Which transfers need attention, and as what, is the one rule of payments' desk-kinds.ts: the
 * queue, each item (desk-items.ts) and the export (desk-export.ts) follow it, read by payments
 * (desk-reads.ts, export-reads.ts). The queue is a table the database keeps in the transactions
 * that change a transfer's facts, with its counts per kind: a page reads the page and the counts,
 * never the queue nor every payment. Refunds are desk-refunds.ts. An item stays on the desk while
 * its state says so; an underpaid transfer whose checkout is later paid, or an unmatched one a
 * proven wallet adopts, leaves by itself.
 */
import type { Readable } from 'node:stream';
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
import { markResolved, type RefundService } from '../payments';
import { deskQueue, transferExists } from './desk/desk-reads';
import { recordAudit } from './audit';
import { paymentsExportCsv } from './desk-export';
import { DeskItems, transferIdOf } from './desk-items';
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
    const { refunds } = deps;
    this.items = new DeskItems(db, {
      config: deps.config,
      chainHead: deps.chainHead,
      refundTo: refunds && ((row) => refunds.refundTo(row)),
    });
    this.refunds = new DeskRefunds(db, { items: this.items, refunds: deps.refunds, now: this.now });
  }

  /**
   * A page of the queue, newest first: unresolved items (or, with `resolved`, the history),
   * optionally of one kind, after the item `before` (the previous page's `nextBefore`); with how
   * many items of each kind the tab holds and, on the open tab, how many are unresolved in all
   * (payments' deskQueue reads the page and the counts in one statement).
   */
  async attention(filter: { kind?: AttentionKind; resolved: boolean; before?: string }): Promise<AttentionPage> {
    const before = filter.before === undefined ? undefined : await this.cursorOf(filter.before);
    const rows = await deskQueue(this.db, { kind: filter.kind, resolved: filter.resolved, before, limit: ATTENTION_PAGE_SIZE + 1 });
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
    if (id === null || !(await transferExists(this.db, id)))
      throw new AppError(
        ErrorCode.badRequest,
        'before must be the nextBefore of the previous page, as it was given (or leave it out for the first page)',
      );
    return id!;
  }
}
