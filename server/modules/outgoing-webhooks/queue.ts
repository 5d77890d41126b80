/**
 * Queuing an event, in the transaction of the change it tells of: the message (`msg_…`, unique by
 * its key, so one change is one event whichever instance wrote it) and one pending delivery per
 * enabled endpoint that chose its type; nothing at all when no endpoint chose it. The database
 * function webhook_queue (the outgoing_webhooks migration) does both; the payments desk's queue
 * calls the same function from its trigger (payment.needs_attention).
 */
import type { Knex } from 'knex';
import type { WebhookEventType } from '../../../common/outgoing-webhooks';

export interface QueuedEvent {
  /** What the event is about, for its composer (an order id, a refund id, a sync run id). */
  subject: string;
  /** Sent no earlier than this long after `now` (order.paid waits for the dollar reference, recorded just after). */
  delayMs?: number;
}

/**
 * Queues event `type` for the change `key` names (e.g. `order.paid:<order id>`) in the caller's
 * transaction; a key queued before (by this instance or another) changes nothing.
 */
export async function queueWebhookEvent(
  trx: Knex.Transaction,
  type: WebhookEventType,
  key: string,
  now: Date,
  event: QueuedEvent,
): Promise<void> {
  const due = new Date(now.getTime() + (event.delayMs ?? 0));
  await trx.raw('select webhook_queue(?, ?, ?, ?, ?)', [type, key, event.subject, now, due]);
}
