/**
 * What settlement reads (docs/payments.md §2): the checkout a transfer identifies, locked; a
 * recorded transfer as settlement judges it; the checkout as settlement-decision.ts sees it; what
 * an order's transfers add up to. settlement.ts decides nothing here.
 */
import type { Knex } from 'knex';
import type { Db } from '../../db';
import { sessionsProvenBy } from '../session';
import { transferSum } from './checkout-received';
import { PAYABLE, type IntentRow } from './checkout-record';
import type { CheckoutFacts, MatchedBy } from './settlement-decision';
import type { TransferStatus } from './transfer-status';
import type { StoreTransfer } from './verify';
import type { PaidWith } from '../../../common/swap-pay';

export interface TransferRow {
  id: number;
  status: TransferStatus;
  intent_id: string | null;
  order_id: string | null;
}

/** A recorded transfer, as chain_transfers keeps it. */
export interface StoredTransferRow extends TransferRow {
  chain_id: number;
  tx_hash: string;
  log_index: number;
  block_number: string | number;
  block_hash: string;
  token_address: string;
  from_address: string;
  to_address: string;
  value_wei: string;
  payer_address: string | null;
  paid_with: PaidWith['coin'] | null;
  amount_in: string | number | null;
  note: string | null;
  created_at: Date;
  refund_hold_until: Date | null;
}

/** How a transfer identifies a checkout (or the admin says it belongs to one). */
export interface Match {
  intent: IntentRow;
  by: MatchedBy;
}

/**
 * The checkout `transfer` is for, locked: the one an unreleased exact amount names, else the one
 * payable checkout of a session that proved (signed in as) the sender. Never a guess.
 */
export async function matchCheckout(trx: Knex.Transaction, transfer: StoreTransfer, now: Date, seenAt: Date): Promise<Match | null> {
  const ours = (q: Knex.QueryBuilder) =>
    q
      .where({ 'c.chain_id': transfer.chainId, 'c.token_address': transfer.token, 'c.store_wallet': transfer.to })
      .where('c.match_until', '>', now);
  const byAmount: { id: string } | undefined = await ours(
    trx('checkout_amounts as a')
      .join('checkout_intents as c', 'c.id', 'a.intent_id')
      .where({ 'a.chain_id': transfer.chainId, 'a.amount_wei': transfer.value.toString() })
      .whereNull('a.released_at')
      .whereIn('c.status', [...PAYABLE, 'paid']),
  ).first('c.id');
  if (byAmount) {
    const intent: IntentRow = await trx('checkout_intents').where({ id: byAmount.id }).forUpdate().first();
    return { intent, by: 'amount' };
  }
  const proven: Array<{ id: string }> = await ours(
    trx('checkout_intents as c')
      // Who paid: a swap's POGS come from a pool, its payer is whom the chain proved.
      .whereIn('c.session_id', sessionsProvenBy(trx, transfer.paidWith?.payer ?? transfer.from, now))
      .where('c.created_at', '<=', seenAt)
      .whereIn('c.status', PAYABLE),
  )
    .limit(2)
    .select('c.id');
  if (proven.length !== 1) return null;
  const intent: IntentRow = await trx('checkout_intents').where({ id: proven[0]!.id }).forUpdate().first();
  return PAYABLE.includes(intent.status) ? { intent, by: 'proven-sender' } : null;
}

/** The checkout as the decision sees it. */
export function checkoutFacts(intent: IntentRow): CheckoutFacts {
  return {
    id: intent.id,
    sessionId: intent.session_id,
    status: intent.status,
    totalWei: BigInt(intent.total_wei),
    expiresAt: intent.expires_at,
    matchUntil: intent.match_until,
    stockClaimedUntil: intent.stock_claimed_until ?? null,
  };
}

/** A recorded transfer as settlement judges it (it is on chain: a removed one is not judged). */
export function storedTransfer(row: StoredTransferRow): StoreTransfer {
  return {
    chainId: row.chain_id,
    txHash: row.tx_hash,
    logIndex: row.log_index,
    blockNumber: Number(row.block_number),
    blockHash: row.block_hash,
    token: row.token_address,
    from: row.from_address,
    to: row.to_address,
    value: BigInt(row.value_wei),
    removed: false,
    ...(row.paid_with && {
      paidWith: {
        coin: row.paid_with,
        amountIn: row.amount_in === null ? null : BigInt(String(row.amount_in).split('.')[0]!).toString(),
        payer: row.payer_address,
      },
    }),
  };
}

/** What the (not removed) transfers of an order add up to. */
export const paidTowardsOrder = (db: Knex.Transaction | Db, orderId: string) => transferSum(db, { order_id: orderId }, ['matched']);
