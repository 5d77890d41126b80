/**
 * How a checkout's payment is made findable (docs/payments.md §1): every payment goes to one
 * store wallet, so the identifier lives in the amount. A checkout's amount is its total plus a
 * random suffix below 10^12 wei (less than 0.000001 POG: worth nothing, yet 10^12 possible
 * amounts per price, so one visitor cannot fill them). An amount identifies one checkout until it
 * is released; a unique index, not hope, keeps unreleased amounts apart.
 */
import { randomInt } from 'node:crypto';
import type { Knex } from 'knex';
import { ErrorCode } from '../../../common/errors';
import { AppError } from '../../lib/errors';

/** Suffixes are in [1, SUFFIX_SPACE_WEI). */
export const SUFFIX_SPACE_WEI = 1_000_000_000_000n;

/** One cent of POG (prices have two decimals). */
const CENT_WEI = 10_000_000_000_000_000n;

/**
 * An excess below one cent is the identifying suffix (and a remainder rounded up to the cent),
 * not an overpayment worth refunding.
 */
export const OVERPAID_THRESHOLD_WEI = CENT_WEI;

/** `wei` rounded up to a whole cent: what a shopper is told is still due. */
export function roundUpToCent(wei: bigint): bigint {
  return ((wei + CENT_WEI - 1n) / CENT_WEI) * CENT_WEI;
}

/** Tries before giving up on a unique amount (each collision is ~ open checkouts of that price / 10^12). */
const ATTEMPTS = 8;

/** A random suffix in [1, 10^12): the database's unique index decides whether it is free. */
export function randomSuffix(): bigint {
  return BigInt(randomInt(1, Number(SUFFIX_SPACE_WEI)));
}

/** EIP-681 link for an ERC-20 transfer: any wallet that reads it pays exactly this checkout. */
export function paymentUri(token: string, chainId: number, storeWallet: string, amountWei: bigint): string {
  return `ethereum:${token}@${chainId}/transfer?address=${storeWallet}&uint256=${amountWei.toString()}`;
}

export type AmountPurpose = 'full' | 'remainder';

/**
 * Gives checkout `intentId` a new exact amount: `baseWei` plus a free suffix. Each try runs in a
 * savepoint, so a collision only retries; should every try collide, the answer is a 503 the
 * shopper can act on, never a 500.
 */
export async function issueAmount(
  trx: Knex.Transaction,
  row: { intentId: string; chainId: number; baseWei: bigint; purpose: AmountPurpose; now: Date },
  suffix: () => bigint = randomSuffix,
): Promise<bigint> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const amountWei = row.baseWei + suffix();
    try {
      await trx.transaction(async (sp) => {
        await sp('checkout_amounts').insert({
          intent_id: row.intentId,
          chain_id: row.chainId,
          amount_wei: amountWei.toString(),
          purpose: row.purpose,
          created_at: row.now,
        });
      });
      return amountWei;
    } catch (err) {
      if ((err as { code?: string }).code !== '23505') throw err;
    }
  }
  throw new AppError(
    ErrorCode.checkoutBusy,
    'So many payment requests for this total are open that we could not make yours unique. Please try again in a minute.',
    { expose: true },
  );
}

/** Frees every amount of these checkouts for other checkouts (they can no longer be paid). */
export function releaseAmounts(trx: Knex | Knex.Transaction, intentIds: Knex.QueryBuilder | string[], now: Date) {
  return trx('checkout_amounts')
    .whereIn('intent_id', intentIds as string[])
    .whereNull('released_at')
    .update({ released_at: now });
}
