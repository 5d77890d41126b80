/**
 * Attaching a transfer to the checkout it evidently belongs to (the payments desk).
 *
 * An unmatched transfer identified no checkout: not an exact amount, and no session had proved
 * its sender when it arrived. The admin sees the checkouts it may have been for, with the evidence
 * for each (`candidates`), and attaches it to one (`attach`), which the payments module's
 * settlement judges exactly as a payment for that checkout: an order when what the checkout
 * received now covers its total, else underpaid with a remainder. The audit entry is written in
 * settlement's transaction, so it exists exactly when the attach does.
 *
 * A candidate is a checkout of the same chain, token and store wallet that is not paid, was opened
 * before the transfer was first seen and at most a week before it, with at least one reason:
 * - `same-sender`: its session proved (signed in as) the transfer's sender, at any time: a proven
 *   wallet stays evidence after its sign-in ends;
 * - `reported-hash`: its browser was the first to report this transaction's hash
 *   (POST /api/checkout/:id/transaction), before the shop saw the transfer on chain: the payer's
 *   browser knows the hash when its wallet submits, anyone else only once it is on chain;
 * - `close-amount`: the transfer is within 10% of what the checkout still needs;
 * - `same-time`: it was opened within the hour before the transfer was seen.
 *
 * Anyone can open checkouts, from many addresses, at any amount and time, and read every transfer
 * on chain; so no list of a fixed length can promise to hold the payer's checkout. The list is
 * complete instead, read a page at a time (a cursor), ranked by evidence a stranger cannot fake
 * (attach-rank.ts): a proven sender, then the first report of the hash, then opened by the time
 * the transfer happened (the first report of its hash, else the shop's first sight of it: the
 * shop's own clock on both sides), then each source's best (the same IP, an IPv6 client's /64, or
 * the same browser session) before any source's second, then the closest amount, then opened
 * closest to the transfer. The admin can search it by the proven wallet, an exact amount or the
 * checkout id (attach-page.ts): then every checkout of the window that matches is listed, reason
 * or not.
 */
import type {
  AttachCandidate,
  AttachCandidates,
  AttachCandidatesQuery,
  AttachResult,
  CandidateReason,
} from '../../../common/payments-desk';
import { ErrorCode } from '../../../common/errors';
import type { Db } from '../../db';
import { AppError } from '../../lib/errors';
import { notAttachable, type PaymentServices } from '../payments';
import { attachCheckoutRows, checkoutLines, hashReports, transferToAttach, type AttachTransferRow } from './desk/attach-reads';
import { recordAudit } from './audit';
import { pog, wei } from './desk-format';
import { transferIdOf } from './desk-items';
import type { PaymentsDesk } from './payments-desk';
import { decodeCursor, listKey, pageOf, parseSearch } from './attach-page';
import { placeCandidates, type Ranked } from './attach-rank';

const WINDOW_MS = 7 * 86_400_000;
const SAME_TIME_MS = 3_600_000;
/** Candidates a page unless the admin asks for another number (at most ATTACH_PAGE_MAX). */
const PAGE_SIZE = 20;

const abs = (v: bigint) => (v < 0n ? -v : v);

export class TransferAttach {
  private readonly now: () => Date;

  constructor(
    private readonly db: Db,
    private readonly deps: {
      desk: PaymentsDesk;
      /** Settlement (absent when the server has no chain target: then no transfer can be attached). */
      settlement?: Pick<PaymentServices['settlement'], 'attach'>;
      /** The audit trail's clock. */
      now?: () => Date;
    },
  ) {
    this.now = deps.now ?? (() => new Date());
  }

  /**
   * A page of the checkouts an unmatched transfer may have been for, best first, each with its
   * evidence; with `q`, those of the window that match the search (attach-page.ts).
   */
  async candidates(transferId: string, query: AttachCandidatesQuery = {}): Promise<AttachCandidates> {
    const transfer = await this.transfer(transferId);
    if (transfer.status !== 'unmatched') throw notAttachable(transfer);
    const search = parseSearch(query.q);
    const list = listKey(transferId, search);
    const after = query.cursor ? decodeCursor(query.cursor, list) : null;
    const seen = new Date(transfer.created_at);
    const value = wei(transfer.value_wei);
    const sameTimeFrom = new Date(seen.getTime() - SAME_TIME_MS);
    // Every checkout that reported this transaction's hash, first report first.
    const reports = await hashReports(this.db, transfer.tx_hash);
    const reportedAt = new Map(reports.map((r) => [r.intent_id, new Date(r.reported_at)]));
    const first = reports[0];
    // The first report is evidence only when it came before the shop saw the transfer on chain.
    const firstReporter = first && new Date(first.reported_at) <= seen ? first.intent_id : null;
    // When the transfer happened, as far as the shop's own clock can tell: by the time it saw it,
    // or earlier, when a browser reported its hash first (nobody knows a hash before it exists).
    const happenedAt = first && new Date(first.reported_at) < seen ? new Date(first.reported_at) : seen;
    const rows = await attachCheckoutRows(this.db, transfer, {
      seen,
      openedFrom: new Date(seen.getTime() - WINDOW_MS),
      sameTimeFrom,
      value,
      firstReporter,
      search,
    });
    const ranked = rows.flatMap((r): Ranked[] => {
      const total = wei(r.total_wei);
      const left = total - wei(String(r.received_wei));
      const due = left > 0n ? left : 0n;
      const createdAt = new Date(r.created_at);
      const reasons: CandidateReason[] = [];
      if (r.wallet_address && r.wallet_address === transfer.from_address) reasons.push('same-sender');
      if (r.id === firstReporter) reasons.push('reported-hash');
      if (due > 0n && abs(value - due) * 10n <= due) reasons.push('close-amount');
      if (createdAt >= sameTimeFrom) reasons.push('same-time');
      // Without a search a candidate needs a reason; what the admin searched for is listed either way.
      if (!reasons.length && !search) return [];
      return [{ row: r, total, due, createdAt, reasons, difference: value - due, hashReportedAt: reportedAt.get(r.id) ?? null }];
    });
    const placed = placeCandidates(ranked, happenedAt);
    const { page, nextCursor } = pageOf(placed, after, query.limit ?? PAGE_SIZE, list);
    const items = await checkoutLines(
      this.db,
      page.map((c) => c.row.id),
    );
    const candidates = page.map((c): AttachCandidate => ({
      checkoutId: c.row.id,
      // A closed checkout (past its time, amounts freed) is shown as the shopper sees it: expired.
      status: c.row.status === 'closed' ? 'expired' : c.row.status,
      total: pog(c.total),
      due: pog(c.due),
      createdAt: c.createdAt.toISOString(),
      provenWallet: c.row.wallet_address ?? null,
      items: items.filter((i) => i.intent_id === c.row.id).map((i) => ({ title: i.title, quantity: i.quantity })),
      reasons: c.reasons,
      hashReportedAt: c.hashReportedAt?.toISOString() ?? null,
      difference: pog(c.difference),
      sameSource: c.sameSource,
      openedAfterTransfer: c.openedAfterTransfer,
    }));
    return { candidates, nextCursor, matching: placed.length };
  }

  /**
   * Attaches the transfer to the checkout through settlement, audited once; repeating it for the
   * same checkout answers the item as it is (and is not audited again).
   */
  async attach(transferId: string, checkoutId: string, session: string): Promise<AttachResult> {
    const id = this.id(transferId);
    const { settlement } = this.deps;
    if (!settlement) throw new AppError(ErrorCode.chainUnavailable, 'This server has no chain configured: no transfer can be attached.');
    const done = await settlement.attach(id, checkoutId, (trx, result) =>
      recordAudit(trx, {
        at: this.now(),
        action: 'payment-attached',
        session,
        target: String(id),
        changes: [
          { field: 'checkout', from: null, to: checkoutId },
          { field: 'order', from: null, to: result.kind === 'order' ? result.orderId : null },
        ],
      }),
    );
    if (!done) throw this.notFound(transferId);
    return { item: await this.deps.desk.itemOf(id), orderId: done.settlement.kind === 'order' ? done.settlement.orderId : null };
  }

  private async transfer(transferId: string): Promise<AttachTransferRow> {
    const row = await transferToAttach(this.db, this.id(transferId));
    if (!row) throw this.notFound(transferId);
    return row;
  }

  private id(transferId: string): number {
    const id = transferIdOf(transferId);
    if (id === null) throw this.notFound(transferId);
    return id;
  }

  private notFound(transferId: string) {
    return new AppError(ErrorCode.attentionItemNotFound, `No transfer ${transferId} to the store wallet is known to the payments desk.`);
  }
}
