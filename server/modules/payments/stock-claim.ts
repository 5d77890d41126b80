/**
 * Stock claimed when money is on its way (docs/payments.md §4): a transfer on chain, not yet deep
 * enough to settle, claims the stock of the checkout it pays, so the first payment seen wins the
 * last units. Nothing is recorded about the transfer itself; settlement judges it when it is deep
 * enough.
 */
import type { Knex } from 'knex';
import { anyLimited } from '../../../common/availability';
import { bumpCatalogueVersion } from '../catalogue';
import { lockIntentLines, shortLine } from '../stock';
import { receivedWei } from './checkout-service';
import { matchCheckout } from './settlement-reads';
import type { StoreTransfer } from './verify';

/** Claims the stock of the checkout `transfer` pays for `claimMs`, in `trx`; whether it did. */
export async function claimStock(trx: Knex.Transaction, transfer: StoreTransfer, now: Date, claimMs: number): Promise<boolean> {
  const done = await trx('chain_transfers')
    .where({ chain_id: transfer.chainId, tx_hash: transfer.txHash, log_index: transfer.logIndex })
    .first('id');
  if (done) return false;
  const match = await matchCheckout(trx, transfer, now, now);
  if (!match || match.intent.status === 'paid') return false;
  const { intent } = match;
  if (intent.stock_claimed_until && intent.stock_claimed_until > now) return false;
  if ((await receivedWei(trx, intent.id)) + transfer.value < BigInt(intent.total_wei)) return false;
  const lines = await lockIntentLines(trx, intent.id);
  // Nothing to claim where no limit is known.
  if (!anyLimited(lines)) return false;
  if (await shortLine(trx, intent.id, lines, now)) return false;
  await trx('checkout_intents')
    .where({ id: intent.id })
    .update({ stock_claimed_until: new Date(now.getTime() + claimMs), updated_at: now });
  await bumpCatalogueVersion(trx);
  return true;
}
