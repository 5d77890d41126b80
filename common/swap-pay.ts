/**
 * Paying with ETH or USDC: the shop quotes, on chain, how much of the coin buys exactly the
 * checkout's POGS amount through its configured Uniswap v3 route, and hands the wallet the calls
 * that swap it, with the store wallet as the swap's recipient and the exact amount as its output.
 * The store receives the same exact amount as a POGS payment, so the checkout is matched as
 * always; the shop records who paid from the transaction itself (docs/pay-with-eth-or-usdc.md).
 */
import { z } from 'zod';

/** The coins a shopper may pay with besides POGS. */
export const PAY_WITH = ['ETH', 'USDC'] as const;
export type PayWith = (typeof PAY_WITH)[number];
export const payWithSchema = z.enum(PAY_WITH);

/** POST /api/checkout/:id/swap-quote */
export const swapQuoteRequestSchema = z.object({ payWith: payWithSchema }).strict();
export type SwapQuoteRequest = z.infer<typeof swapQuoteRequestSchema>;

const uint = z.string().regex(/^\d+$/, 'a decimal integer');
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);

/** One call for the wallet to send, in order (a smart wallet sends them as one EIP-5792 batch). */
export const walletCallSchema = z.object({
  to: address,
  data: z.string().regex(/^0x([0-9a-fA-F]{2})*$/),
  /** Wei, decimal. */
  value: uint,
});
export type WalletCall = z.infer<typeof walletCallSchema>;

export const swapQuoteSchema = z.object({
  checkoutId: z.string(),
  payWith: payWithSchema,
  /** The coin's decimals (ETH 18, USDC 6). */
  decimals: z.number().int(),
  /** The exact POGS the swap delivers to the store wallet: the checkout's amountWei. */
  amountOutWei: uint,
  /** What the pools ask now for that amount, in the coin's smallest unit. */
  amountIn: uint,
  /** The most the swap may take (amountIn plus the slippage bound); more, and it fails in the wallet before anything is spent. */
  amountInMax: uint,
  slippageBps: z.number().int(),
  /** The block the quote was read at. */
  block: z.number().int(),
  /** ISO time after which the swap is refused on chain (its deadline): quote again. */
  expiresAt: z.string(),
  /** ETH: one call (the swap, the unspent ETH back to the payer in the same transaction). USDC: approve, then the swap. */
  calls: z.array(walletCallSchema).min(1).max(2),
});
export type SwapQuote = z.infer<typeof swapQuoteSchema>;

/** How a transfer to the store was paid, as the desk and the order show it. */
export const paidWithSchema = z.object({
  /** POGS: a plain transfer. ETH or USDC: a swap by the configured route. 'swap': through a pool, coin or payer not proven. */
  coin: z.enum(['POGS', 'ETH', 'USDC', 'swap']),
  /** What the payer spent, in the coin's smallest unit (null for POGS and unproven swaps). */
  amountIn: uint.nullable(),
  /** Who paid (lower case): the sender of a direct call to the router, or the smart account of the user operation; null when not proven. */
  payer: address.nullable(),
});
export type PaidWith = z.infer<typeof paidWithSchema>;
