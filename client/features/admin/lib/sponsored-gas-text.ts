import { formatUnits } from '../../../../common/money';
import type { SponsoredGasDay } from '../../../../common/sponsored-gas';

/** Wei as ETH, exactly, with thousands separators and at least two decimals: '1,234.50', '0.00276'. */
export function formatEth(wei: string | bigint): string {
  const [whole, fraction] = formatUnits(BigInt(wei), 18, 2).split('.');
  return `${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction}`;
}

/**
 * How the deposit stands against the daily budget. The budget is the most the shop's sponsorships
 * may cost in one UTC day, so a deposit holding less than one day of it may run out before the day
 * does: it is low. `days`: the whole days of the full budget it covers (0 without a budget).
 */
export function depositStanding(depositWei: string, dailyBudgetWei: string): { days: bigint; low: boolean } {
  const deposit = BigInt(depositWei);
  const budget = BigInt(dailyBudgetWei);
  return { days: budget > 0n ? deposit / budget : 0n, low: deposit < budget };
}

/** What the days given add up to: the sponsorships, how many paid and were wasted, what they cost and paid. */
interface SponsoredTotals {
  sponsorships: number;
  paid: number;
  wasted: number;
  spentWei: bigint;
  wastedWei: bigint;
  amountWei: bigint;
}

/** The days given, added up exactly (wei as bigint). */
export function sponsoredTotals(days: readonly SponsoredGasDay[]): SponsoredTotals {
  return days.reduce<SponsoredTotals>(
    (sum, d) => ({
      sponsorships: sum.sponsorships + d.sponsorships,
      paid: sum.paid + d.paid,
      wasted: sum.wasted + d.wasted,
      spentWei: sum.spentWei + BigInt(d.spentWei),
      wastedWei: sum.wastedWei + BigInt(d.wastedWei),
      amountWei: sum.amountWei + BigInt(d.amountWei),
    }),
    { sponsorships: 0, paid: 0, wasted: 0, spentWei: 0n, wastedWei: 0n, amountWei: 0n },
  );
}

/** 'Thu 26 Nov' for '2026-11-26' (a UTC day, shown as that day wherever the admin is). */
export function dayLabel(day: string, locale?: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (!Number.isFinite(date.getTime())) return day;
  return date.toLocaleDateString(locale, { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short' });
}

const counted = (n: number | bigint, one: string, many: string) => `${n.toLocaleString('en')} ${n === 1 || n === 1n ? one : many}`;

/** '1 payment', '3 payments'. */
export const paymentsText = (n: number | bigint) => counted(n, 'payment', 'payments');

/** '1 day', '3 days'. */
export const daysText = (n: number | bigint) => counted(n, 'day', 'days');
