/** What the admin's views read of payments' records, in the caller's connection; nothing here writes. */
import type { Knex } from 'knex';
import type { Db } from '../../../db';
import type { TransferStatus } from '../../payments';

/** A transfer recorded for a checkout, as the admin's order detail lists it. */
interface CheckoutTransferRecord {
  id: number;
  status: TransferStatus;
  tx_hash: string;
  value_wei: string;
  from_address: string;
  payer_address: string | null;
  paid_with: string | null;
  amount_in: string | null;
  created_at: Date | string;
}

/** The transfers recorded for checkout `intentId` (whatever became of them), in the order they were recorded. */
export function transfersOfCheckout(db: Db | Knex.Transaction, intentId: string): Promise<CheckoutTransferRecord[]> {
  return db('chain_transfers')
    .where({ intent_id: intentId })
    .orderBy('id')
    .select('id', 'status', 'tx_hash', 'value_wei', 'from_address', 'payer_address', 'paid_with', 'amount_in', 'created_at');
}
