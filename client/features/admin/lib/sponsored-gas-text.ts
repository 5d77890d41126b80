import { formatUnits } from '../../../../common/money';
import type { SponsoredGasDay } from '../../../../common/sponsored-gas';

/**
 * The deposit is low below this many sponsored payments at the most each can cost. The EntryPoint
 * holds back an operation's most (its gas limits at its highest fee) from the deposit before it
 * runs it, and refuses it when the deposit holds less, whatever the payment ends up costing (on
 * Base, usually a hundredth of that). Ten of them (0.0276 ETH at the shop's limits) leaves room
 * for a few payments in one bundle and time to top up before any is refused.
 */
export const LOW_DEPOSIT_PAYMENTS = 10n;

/** Wei as ETH, exactly, with thousands separators and at least two decimals: '1,234.50', '0.00276'. */
export function formatEth(wei: string | bigint): string {
  const [whole, fraction] = formatUnits(BigInt(wei), 18, 2).split('.');
  return `${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction}`;
}

/** How the deposit stands against what one sponsored payment can cost at most. */
export function depositStanding(depositWei: string, maxOperationCostWei: string): { payments: bigint; low: boolean; lowBelowWei: bigint } {
  const deposit = BigInt(depositWei);
  const most = BigInt(maxOperationCostWei);
  const lowBelowWei = most * LOW_DEPOSIT_PAYMENTS;
  return { payments: most > 0n ? deposit / most : 0n, low: deposit < lowBelowWei, lowBelowWei };
}

/** The sponsorships and the POGS they paid, over the days given. */
export function sponsoredTotals(days: readonly SponsoredGasDay[]): { sponsorships: number; amountWei: bigint } {
  return days.reduce((sum, d) => ({ sponsorships: sum.sponsorships + d.sponsorships, amountWei: sum.amountWei + BigInt(d.amountWei) }), {
    sponsorships: 0,
    amountWei: 0n,
  });
}

/** 'Thu 26 Nov' for '2026-11-26' (a UTC day, shown as that day wherever the admin is). */
export function dayLabel(day: string, locale?: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (!Number.isFinite(date.getTime())) return day;
  return date.toLocaleDateString(locale, { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short' });
}

/** '1 payment', '3 payments'. */
export const paymentsText = (n: number | bigint) => `${n.toLocaleString('en')} ${n === 1 || n === 1n ? 'payment' : 'payments'}`;
