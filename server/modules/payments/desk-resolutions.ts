/** The payments desk's one write: a person dealt with a transfer (payment_desk_resolutions, this module's table). */
import type { Knex } from 'knex';

/**
 * Records that a person dealt with transfer `transferId`, with their note, once: false when it
 * was resolved already (by another click at the same moment, say).
 */
export async function markResolved(
  trx: Knex.Transaction,
  resolution: { transferId: number; at: Date; note: string; session: string },
): Promise<boolean> {
  const inserted = await trx('payment_desk_resolutions')
    .insert({ transfer_id: resolution.transferId, resolved_at: resolution.at, note: resolution.note, session_label: resolution.session })
    .onConflict('transfer_id')
    .ignore()
    .returning('transfer_id');
  return inserted.length > 0;
}
