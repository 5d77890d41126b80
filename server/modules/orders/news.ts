/**
 * What the news of an order's status says, read when it is sent (docs/order-updates.md): the
 * notifications module sends it to the wallet's devices; the job was queued by the status change
 * (outbox.ts, queueOrderNews) in its own transaction.
 */
import { isOrderNewsStatus, type OrderNewsFacts } from '../../../common/order-news';
import type { Db } from '../../db';
import { OUT_OF_STOCK_HOLD } from './service';

/** The news a job of `kind` (`notify:<status>`) tells about order `orderId`, and the wallet it is for; null when there is none. */
export async function orderNewsOf(db: Db, orderId: string, kind: string): Promise<{ wallet: string; facts: OrderNewsFacts } | null> {
  const status = kind.startsWith('notify:') ? kind.slice('notify:'.length) : '';
  if (!isOrderNewsStatus(status)) return null;
  const row: { id: string; customer_wallet: string; tracking_url: string | null; hold_reason: string | null } | undefined = await db(
    'orders',
  )
    .where({ id: orderId })
    .first('id', 'customer_wallet', 'tracking_url', 'hold_reason');
  if (!row) return null;
  return {
    wallet: row.customer_wallet.toLowerCase(),
    facts: { orderId: row.id, status, trackingUrl: row.tracking_url, onHold: row.hold_reason === OUT_OF_STOCK_HOLD },
  };
}
