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
 * They are ranked by evidence a stranger cannot fake: a proven sender first, then the first
 * report of the hash, then how exactly the amount fits what is due, then the newest. Anyone can
 * open checkouts at a popular price just before a payment, so the checkouts of one source (the
 * same IP, an IPv6 client's /64, or the same browser session) count once: only the best of them is
 * listed, with how many more it stands for (`sameSource`). A stranger takes at most one place.
 */
import type { AttachCandidate, AttachCandidates, AttachResult, CandidateReason } from '../../../common/payments-desk';
import { ErrorCode } from '../../../common/errors';
import type { Db } from '../../db';
import { AppError } from '../../lib/errors';
import {
  attachCheckoutRows,
  checkoutLines,
  hashReports,
  notAttachable,
  receivedWeiByCheckout,
  transferToAttach,
  type AttachTransferRow,
  type PaymentServices,
} from '../payments';
import { recordAudit } from './audit';
import { pog, wei } from './desk-format';
import { transferIdOf } from './desk-items';
import type { PaymentsDesk } from './payments-desk';
import { byEvidence, onePerSource, type Ranked } from './attach-rank';

const WINDOW_MS = 7 * 86_400_000;
const SAME_TIME_MS = 3_600_000;
const MAX_CANDIDATES = 20;

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

  /** The checkouts an unmatched transfer may have been for, best first, one per source, each with its evidence. */
  async candidates(transferId: string): Promise<AttachCandidates> {
    const transfer = await this.transfer(transferId);
    if (transfer.status !== 'unmatched') throw notAttachable(transfer);
    const seen = new Date(transfer.created_at);
    const value = wei(transfer.value_wei);
    const sameTimeFrom = new Date(seen.getTime() - SAME_TIME_MS);
    // Every checkout that reported this transaction's hash, first report first.
    const reports = await hashReports(this.db, transfer.tx_hash);
    const reportedAt = new Map(reports.map((r) => [r.intent_id, new Date(r.reported_at)]));
    const first = reports[0];
    // The first report is evidence only when it came before the shop saw the transfer on chain.
    const firstReporter = first && new Date(first.reported_at) <= seen ? first.intent_id : null;
    const rows = await attachCheckoutRows(this.db, transfer, {
      seen,
      openedFrom: new Date(seen.getTime() - WINDOW_MS),
      sameTimeFrom,
      value,
      firstReporter,
    });
    const received = await receivedWeiByCheckout(
      this.db,
      rows.map((r) => r.id),
    );
    const ranked = rows.flatMap((r): Ranked[] => {
      const total = wei(r.total_wei);
      const left = total - (received.get(r.id) ?? 0n);
      const due = left > 0n ? left : 0n;
      const createdAt = new Date(r.created_at);
      const reasons: CandidateReason[] = [];
      if (r.wallet_address && r.wallet_address === transfer.from_address) reasons.push('same-sender');
      if (r.id === firstReporter) reasons.push('reported-hash');
      if (due > 0n && abs(value - due) * 10n <= due) reasons.push('close-amount');
      if (createdAt >= sameTimeFrom) reasons.push('same-time');
      if (!reasons.length) return [];
      return [{ row: r, total, due, createdAt, reasons, difference: value - due, hashReportedAt: reportedAt.get(r.id) ?? null }];
    });
    const best = onePerSource(ranked.sort(byEvidence)).slice(0, MAX_CANDIDATES);
    const items = await checkoutLines(
      this.db,
      best.map((c) => c.row.id),
    );
    const candidates = best.map((c): AttachCandidate => ({
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
    }));
    return { candidates };
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
