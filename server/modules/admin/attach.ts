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
import { notAttachable, receivedWeiByCheckout, type PaymentServices, type TransferStatus } from '../payments';
import { sessionsThatProved, sessionWalletColumn } from '../session';
import { recordAudit } from './audit';
import { pog, wei } from './desk-format';
import { transferIdOf } from './desk-items';
import type { PaymentsDesk } from './payments-desk';
import { byEvidence, onePerSource, type CheckoutRow, type Ranked } from './attach-rank';

const WINDOW_MS = 7 * 86_400_000;
const SAME_TIME_MS = 3_600_000;
const MAX_CANDIDATES = 20;
/** Checkout statuses that are not paid. A closed one (past its time, amounts freed) is shown as the shopper sees it: expired. */
const UNPAID = ['open', 'underpaid', 'expired', 'closed'];

interface TransferRow {
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
    const reports: Array<{ intent_id: string; reported_at: Date | string }> = await this.db('checkout_tx_reports')
      .where({ tx_hash: transfer.tx_hash })
      .orderBy([{ column: 'reported_at' }, { column: 'id' }])
      .select('intent_id', 'reported_at');
    const reportedAt = new Map(reports.map((r) => [r.intent_id, new Date(r.reported_at)]));
    const first = reports[0];
    // The first report is evidence only when it came before the shop saw the transfer on chain.
    const firstReporter = first && new Date(first.reported_at) <= seen ? first.intent_id : null;
    // Only checkouts with a possible reason are read: a close amount needs a total of at least
    // 10/11 of the transfer (what is still due is never more than the total).
    const rows: CheckoutRow[] = await this.db('checkout_intents as c')
      .where({ 'c.chain_id': transfer.chain_id, 'c.token_address': transfer.token_address, 'c.store_wallet': transfer.to_address })
      .whereIn('c.status', UNPAID)
      .where('c.created_at', '<=', seen)
      .where('c.created_at', '>=', new Date(seen.getTime() - WINDOW_MS))
      .where((w) => {
        w.whereIn('c.session_id', sessionsThatProved(this.db, transfer.from_address))
          .orWhere('c.created_at', '>=', sameTimeFrom)
          .orWhereRaw('c.total_wei * 11 >= cast(? as numeric) * 10', [value.toString()]);
        if (firstReporter) w.orWhere('c.id', firstReporter);
      })
      .select(
        'c.id',
        'c.status',
        'c.total_wei',
        'c.created_at',
        'c.session_id',
        'c.source_key',
        sessionWalletColumn(this.db, 'c.session_id', 'wallet_address'),
      );
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
    const items: Array<{ intent_id: string; title: string; quantity: number }> = best.length
      ? await this.db('checkout_intent_items')
          .whereIn(
            'intent_id',
            best.map((c) => c.row.id),
          )
          .orderBy('id')
          .select('intent_id', 'title', 'quantity')
      : [];
    const candidates = best.map((c): AttachCandidate => ({
      checkoutId: c.row.id,
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

  private async transfer(transferId: string): Promise<TransferRow> {
    const row: TransferRow | undefined = await this.db('chain_transfers')
      .where({ id: this.id(transferId) })
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
