/** The refunds the store wallet sent, as the admin sees them: on a desk item, and on an order in the orders view. */
import type { Knex } from 'knex';
import type { RefundRecord } from '../../../common/payments-desk';
import type { Db } from '../../db';
import { refundsRecordedBy } from '../orders';
import { iso, pog, wei, type ExplorerUrl } from './desk-format';

/** The refunds recorded against these transfers (`transfer_id`) or orders (`order_id`), oldest first. */
export async function refundRecords(
  db: Db | Knex.Transaction,
  by: 'transfer_id' | 'order_id',
  ids: ReadonlyArray<number | string>,
  explorerUrl: ExplorerUrl,
): Promise<RefundRecord[]> {
  const rows = await refundsRecordedBy(db, by, ids);
  return rows.map((r) => {
    const amountWei = wei(r.amount_wei);
    return {
      id: String(r.id),
      transferId: String(r.transfer_id),
      orderId: r.order_id,
      to: r.to_address,
      amount: pog(amountWei),
      amountWei: amountWei.toString(),
      txHash: r.tx_hash,
      explorerUrl: explorerUrl(r.tx_hash),
      at: iso(r.created_at),
      by: r.session_label,
    };
  });
}
