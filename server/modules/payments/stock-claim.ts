/**
 * Stock claimed when money is on its way (docs/payments.md §4): a transfer on chain, not yet deep
 * enough to settle, claims the stock of the checkout it pays, so the first payment seen wins the
 * last units. Nothing is recorded about the transfer itself; settlement judges it when it is deep
 * enough. The claims are this module's rows: the stock module counts them through
 * claimedUnitsByVariant (given to it in server/wiring.ts).
 */
import type { Knex } from 'knex';
import { anyLimited } from '../../../common/availability';
import { bumpCatalogueVersion, lockVariantStock } from '../catalogue';
import type { ClaimLine, HeldQuery, StockService } from '../stock';
import { receivedWei } from './checkout-received';
import { matchCheckout } from './settlement-reads';
import type { StoreTransfer } from './verify';

/** Claims the stock of the checkout `transfer` pays for `claimMs`, in `trx`; whether it did. */
export async function claimStock(
  trx: Knex.Transaction,
  stock: StockService,
  transfer: StoreTransfer,
  now: Date,
  claimMs: number,
): Promise<boolean> {
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
  if (await stock.shortLine(trx, intent.id, lines, now)) return false;
  await trx('checkout_intents')
    .where({ id: intent.id })
    .update({ stock_claimed_until: new Date(now.getTime() + claimMs), updated_at: now });
  await bumpCatalogueVersion(trx, { variantIds: lines.map((l) => l.variant_id) });
  return true;
}

/** A checkout's line with its variant's stock facts. */
export interface IntentStockLine extends ClaimLine {
  product_id: string;
}

/**
 * A checkout's lines with their variants locked (in variant id order, the catalogue's
 * lockVariantStock: so concurrent claims never deadlock).
 */
export async function lockIntentLines(trx: Knex.Transaction, intentId: string): Promise<IntentStockLine[]> {
  return lockVariantStock(
    trx('checkout_intent_items as i')
      .where('i.intent_id', intentId)
      .select('i.variant_id', 'i.product_id', 'i.title', 'i.unit_price', 'i.quantity'),
    'i.variant_id',
  );
}

/**
 * The units claimed per variant (only `variantIds` when given) by checkouts whose payment is on its
 * way at `now`, leaving out `exceptIntent`'s own claim, in the caller's connection or transaction:
 * the stock module's claims (StockService, built in server/wiring.ts).
 */
export async function claimedUnitsByVariant(db: Knex | Knex.Transaction, now: Date, query: HeldQuery): Promise<Map<string, number>> {
  const claims = db('checkout_intent_items as i')
    .join('checkout_intents as c', 'c.id', 'i.intent_id')
    .where('c.stock_claimed_until', '>', now)
    .whereNot('c.status', 'paid')
    .groupBy('i.variant_id')
    .select('i.variant_id', db.raw('sum(i.quantity) as n'));
  if (query.exceptIntent) claims.whereNot('c.id', query.exceptIntent);
  if (query.variantIds) claims.whereIn('i.variant_id', query.variantIds);
  const rows = (await claims) as Array<{ variant_id: string; n: unknown }>;
  return new Map(rows.map((r) => [r.variant_id, Number(r.n)]));
}
