/**
 * How a checkout's payment is made findable (design/payments.md §1): every payment goes to one
 * store wallet, so the identifier lives in the amount. The total gets a unique suffix below 10^6
 * wei (less than 10^-12 POG: nobody notices it, every wallet shows it).
 */
import { randomInt } from 'node:crypto';

export const MAX_SUFFIX_WEI = 1_000_000n;

/** A random suffix in [1, 10^6): the database's unique index decides whether it is free. */
export function randomSuffix(): bigint {
  return BigInt(randomInt(1, Number(MAX_SUFFIX_WEI)));
}

/** EIP-681 link for an ERC-20 transfer: any wallet that reads it pays exactly this checkout. */
export function paymentUri(token: string, chainId: number, storeWallet: string, amountWei: bigint): string {
  return `ethereum:${token}@${chainId}/transfer?address=${storeWallet}&uint256=${amountWei.toString()}`;
}
