/**
 * What a checkout has received and asks for: the sums of its recorded transfers (the partial and
 * paying ones count), the amount it asks for now (its full amount, or after an underpayment the
 * remainder), and what the paymaster needs to know of it before sponsoring its payment.
 */
import type { Knex } from 'knex';
import { UUID_RE } from '../../../common/api';
import type { Db } from '../../db';
import { PAYABLE, type IntentRow } from './checkout-record';
import type { TransferStatus } from './transfer-status';

/** The exact sum of the recorded transfers matching `where` in these statuses. */
export async function transferSum(
  db: Db | Knex.Transaction,
  where: Record<string, string>,
  statuses: readonly TransferStatus[],
): Promise<bigint> {
  const [row] = await db('chain_transfers').where(where).whereIn('status', statuses).sum({ n: 'value_wei' });
  // numeric(78,0) sums arrive as decimal strings (never a float)
  return BigInt(String(row?.n ?? '0').split('.')[0] || '0');
}

/** The transfer statuses that count towards a checkout: partial and paying ones. */
export const COUNTED: readonly TransferStatus[] = ['underpaid', 'matched'];

/** What the chain has delivered for a checkout so far: its counted (partial or paying) transfers. */
export const receivedWei = (db: Db | Knex.Transaction, intentId: string) => transferSum(db, { intent_id: intentId }, COUNTED);

/** The amount checkout `row` asks for now: after an underpayment its newest remainder, otherwise its full amount. */
export async function amountAskedWei(db: Db | Knex.Transaction, row: IntentRow): Promise<bigint> {
  if (row.status !== 'underpaid') return BigInt(row.amount_wei);
  const remainder: { amount_wei: string } | undefined = await db('checkout_amounts')
    .where({ intent_id: row.id, purpose: 'remainder' })
    .orderBy('id', 'desc')
    .first('amount_wei');
  return BigInt(remainder?.amount_wei ?? row.amount_wei);
}

/**
 * What the paymaster needs of checkout `id` to sponsor its payment: where the payment goes, the
 * amount it asks for now (its full amount, or the remainder an underpaid one asks for), the
 * session that made it, and whether it can still be paid (a payable status, before match_until).
 * Undefined when there is no such checkout.
 */
export async function checkoutToSponsor(
  db: Db | Knex.Transaction,
  id: string,
  now: Date,
): Promise<
  | {
      id: string;
      sessionId: string | null;
      /** The wallet the checkout was made for (lower case), when the shopper's browser named one. */
      customerWallet: string | null;
      chainId: number;
      tokenAddress: string;
      storeWallet: string;
      amountWei: bigint;
      payable: boolean;
    }
  | undefined
> {
  if (!UUID_RE.test(id)) return undefined;
  const row: IntentRow | undefined = await db('checkout_intents').where({ id }).first();
  if (!row) return undefined;
  return {
    id: row.id,
    sessionId: row.session_id,
    customerWallet: row.customer_wallet?.toLowerCase() ?? null,
    chainId: row.chain_id,
    tokenAddress: row.token_address,
    storeWallet: row.store_wallet,
    amountWei: await amountAskedWei(db, row),
    payable: PAYABLE.includes(row.status) && new Date(row.match_until) > now,
  };
}

/** receivedWei for many checkouts in one query (checkouts with nothing counted are absent). */
export async function receivedWeiByCheckout(db: Db | Knex.Transaction, intentIds: readonly string[]): Promise<Map<string, bigint>> {
  if (intentIds.length === 0) return new Map();
  const sums: Array<{ intent_id: string; n: string | number | null }> = await db('chain_transfers')
    .whereIn('intent_id', [...new Set(intentIds)])
    .whereIn('status', COUNTED)
    .groupBy('intent_id')
    .select('intent_id')
    .sum({ n: 'value_wei' });
  return new Map(sums.map((s) => [s.intent_id, BigInt(String(s.n ?? '0').split('.')[0] || '0')]));
}
