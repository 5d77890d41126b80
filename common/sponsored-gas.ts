/**
 * What the admin sees of the gas the shop pays for smart wallets (GET /api/admin/paymaster,
 * docs/payments.md §9): the paymaster's deposit left in the EntryPoint, the daily budget and
 * what is left of it, and per day what the sponsorships cost, on how many payments, and what was
 * wasted. Shared by the server, which answers it, and the client, which reads it.
 */
import { z } from 'zod';

/** How many days of sponsorships the answer covers, today (UTC) included. */
export const SPONSORED_GAS_DAYS = 30;

const wei = z.string().regex(/^\d{1,78}$/, 'an amount in wei is a whole decimal number');

/** One UTC day with at least one sponsorship or paid operation (days with none are not listed). */
const sponsoredGasDaySchema = z.object({
  /** 'YYYY-MM-DD', UTC. */
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  /** The sponsorships the shop granted that day (one per checkout amount), whether or not the wallet sent them. */
  sponsorships: z.number().int().min(0),
  /** Of those, the operations that ran and paid their checkout. */
  paid: z.number().int().min(0),
  /** Operations the paymaster paid for nothing: reverted, ran without paying their checkout, or never signed by the shop. */
  wasted: z.number().int().min(0),
  /** What the paymaster paid that day for the operations that ran, in wei (their UserOperationEvents' actualGasCost). */
  spentWei: wei,
  /** Of spentWei, what the wasted operations cost. */
  wastedWei: wei,
  /** The POGS the paid operations paid, in wei. */
  amountWei: wei,
  /** The day's budget less what its sponsorships cost or (today) may still cost while they can land. */
  budgetLeftWei: wei,
});
export type SponsoredGasDay = z.infer<typeof sponsoredGasDaySchema>;

export const sponsoredGasSchema = z.discriminatedUnion('enabled', [
  /** The shop pays no gas (no paymaster configured, or no chain). */
  z.object({ enabled: z.literal(false) }),
  z.object({
    enabled: z.literal(true),
    /** The ERC-4337 EntryPoint the paymaster is deposited in. */
    entryPoint: z.string(),
    /** The paymaster contract whose deposit pays the gas; null when it is not the shop's own (nothing to read). */
    paymaster: z.string().nullable(),
    /** EntryPoint.balanceOf(paymaster), in wei (decimal string); null when it could not be read. */
    depositWei: wei.nullable(),
    /** Why the deposit is null, in words a person can act on. */
    depositError: z.string().optional(),
    /** The most the sponsorships of one UTC day may cost (PAYMASTER_DAILY_BUDGET_ETH), in wei. */
    dailyBudgetWei: wei,
    /** The most sponsorships one account gets per UTC day (PAYMASTER_SENDER_DAILY_LIMIT). */
    senderDailyLimit: z.number().int().min(1),
    /** What is left of today's budget now: the budget less what today's sponsorships cost or may still cost. */
    todayLeftWei: wei,
    /** The first day counted ('YYYY-MM-DD', UTC): {@link SPONSORED_GAS_DAYS} days up to today. */
    since: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    /** Newest first; at most {@link SPONSORED_GAS_DAYS}. */
    days: z.array(sponsoredGasDaySchema).max(SPONSORED_GAS_DAYS),
  }),
]);
export type SponsoredGas = z.infer<typeof sponsoredGasSchema>;
