/**
 * Refunds from the payments desk. The store wallet sends them from the admin's browser (the server
 * never holds its key); the payments module refuses what it would not record (prepare, which also
 * holds the transfer meanwhile), verifies each refund on chain and records it. Here, in the admin's
 * transaction with its audit entry, a refund that leaves nothing refundable, or covers an overpaid
 * item's excess, also resolves the item. Any transfer to the store wallet may be refunded, a plain
 * payment of an order (kind `paid`) too.
 */
import type { AttentionItem, RecordRefundRequest } from '../../../common/payments-desk';
import { ErrorCode } from '../../../common/errors';
import { parseUnits } from '../../../common/money';
import type { Db } from '../../db';
import { AppError } from '../../lib/errors';
import type { RefundService } from '../payments';
import { recordAudit } from './audit';
import { pog } from './desk-format';
import { markResolved } from '../payments';
import { transferIdOf, type DeskItems } from './desk-items';

export class DeskRefunds {
  constructor(
    private readonly db: Db,
    private readonly deps: {
      items: DeskItems;
      /** Verifies and records refunds on chain; absent without a chain (refunds are then refused). */
      refunds?: RefundService;
      now: () => Date;
    },
  ) {}

  /**
   * The store wallet is about to send a refund of `amount` (POST …/prepare-refund): the payments
   * module refuses what it would not record and holds the transfer meanwhile. Answers the item.
   */
  async prepare(transferId: string, amount: string): Promise<AttentionItem> {
    const { items } = this.deps;
    await items.find(this.db, transferId, null, true); // 404 for an unknown id, before anything is locked
    const refunds = this.service();
    const id = transferIdOf(transferId)!;
    await this.db.transaction((trx) => refunds.prepare(trx, { transferId: id, amountWei: parseUnits(amount) }));
    return items.find(this.db, transferId, await items.head(), true);
  }

  /**
   * Records refund `req` of the item's transfer, once the payments module has verified it on chain
   * (see common/payments-desk.ts recordRefundSchema): in one transaction with its audit entry, and
   * resolving the item when nothing is left to refund or an overpaid item's excess went back.
   * Repeating it answers the item as it is, with nothing recorded twice.
   */
  async record(transferId: string, req: RecordRefundRequest, session: string): Promise<AttentionItem> {
    const { items } = this.deps;
    // An unknown transfer costs no RPC call.
    const current = await items.find(this.db, transferId, null, true);
    const refunds = this.service();
    const amountWei = parseUnits(req.amount);
    // The chain is asked outside the transaction.
    const id = Number(current.transferId);
    // The wallet that paid: the sender, or the payer the chain proved for a swap (refused when not proven).
    const to = await refunds.recipient(this.db, id);
    const transfers = await refunds.verify(req.transactionHash, to, amountWei);
    await this.db.transaction(async (trx) => {
      const at = this.deps.now();
      const recorded = await refunds.record(trx, { transferId: id, transfers, amountWei, session, now: at });
      if (!recorded.created) return; // this refund was recorded already: nothing more
      const item = await items.find(trx, transferId, null, true);
      const excessWei = item.excess === null ? null : parseUnits(item.excess);
      const closes =
        BigInt(item.refundableWei) === 0n || (item.kind === 'overpaid' && excessWei !== null && recorded.refundedWei >= excessWei);
      const note = `Refunded ${pog(amountWei)} POG`;
      const resolved = closes && !item.resolved && (await markResolved(trx, { transferId: id, at, note, session }));
      await recordAudit(trx, {
        at,
        action: 'payment-refunded',
        session,
        target: String(id),
        changes: [
          { field: 'refund', from: null, to: `${pog(amountWei)} POG to ${to} in ${transfers[0]!.txHash}` },
          { field: 'refundable', from: pog(recorded.refundableBeforeWei), to: item.refundable },
          ...(recorded.order ? [{ field: `order ${recorded.order.id} status`, from: recorded.order.from, to: recorded.order.to }] : []),
          ...(resolved ? [{ field: 'resolved', from: null, to: note }] : []),
        ],
      });
    });
    return items.find(this.db, transferId, await items.head(), true);
  }

  /** The payments module's refunds, or 503 chain-unavailable without a chain. */
  private service(): RefundService {
    const { refunds } = this.deps;
    if (!refunds) throw new AppError(ErrorCode.chainUnavailable, 'No chain is configured, so a refund cannot be verified.');
    return refunds;
  }
}
