/**
 * What the admin sees of the gas the shop pays for smart wallets (GET /api/admin/paymaster,
 * docs/payments.md §9): the paymaster's deposit left in the EntryPoint and the sponsorships the
 * shop signed per day. Shared by the server, which answers it, and the client, which reads it.
 */
import { z } from 'zod';

/** How many days of sponsorships the answer covers, today (UTC) included. */
export const SPONSORED_GAS_DAYS = 30;

const wei = z.string().regex(/^\d{1,78}$/, 'an amount in wei is a whole decimal number');

/** One UTC day with at least one sponsorship (days with none are not listed). */
const sponsoredGasDaySchema = z.object({
  /** 'YYYY-MM-DD', UTC. */
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  /** The user operations the shop's paymaster signed for that day (one per checkout amount). */
  sponsorships: z.number().int().min(1),
  /** The POGS those operations pay, in wei (decimal string). */
  amountWei: wei,
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
    /**
     * The most one sponsored operation can take from the deposit: the shop's gas limits (the
     * paymaster's own included) at its highest fee. The EntryPoint holds that much back from the
     * deposit before it runs the operation, and refuses the operation when the deposit is less.
     */
    maxOperationCostWei: wei,
    /** The first day counted ('YYYY-MM-DD', UTC): {@link SPONSORED_GAS_DAYS} days up to today. */
    since: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    /** Newest first; at most {@link SPONSORED_GAS_DAYS}. */
    days: z.array(sponsoredGasDaySchema).max(SPONSORED_GAS_DAYS),
  }),
]);
export type SponsoredGas = z.infer<typeof sponsoredGasSchema>;
