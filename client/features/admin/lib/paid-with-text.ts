/** How the desk and the order view say a transfer was paid (common/swap-pay.ts PaidWith). */
import { formatUnits } from '../../../../common/money';
import type { PaidWith } from '../../../../common/swap-pay';

const DECIMALS = { ETH: 18, USDC: 6 } as const;

/**
 * "Paid with 0.0042 ETH", "Paid with 12.5 USDC", "Paid through a swap; payer not proven"; null
 * for a plain POGS transfer (its sender paid) or one the shop has not looked at yet.
 */
export function paidWithText(paidWith: PaidWith | null): string | null {
  if (!paidWith || paidWith.coin === 'POGS') return null;
  if (paidWith.payer === null) return 'Paid through a swap; payer not proven';
  if (paidWith.coin === 'swap') return 'Paid through a swap';
  if (paidWith.amountIn === null) return `Paid with ${paidWith.coin}`;
  return `Paid with ${formatUnits(BigInt(paidWith.amountIn), DECIMALS[paidWith.coin], 0)} ${paidWith.coin}`;
}

/** The payer to show beside the sender: a swap's proven payer (a plain transfer's payer is its sender); else null. */
export function shownPayer(paidWith: PaidWith | null, sender: string): string | null {
  if (!paidWith?.payer || paidWith.payer.toLowerCase() === sender.toLowerCase()) return null;
  return paidWith.payer;
}

/** Why a transfer cannot be refunded from the desk when its payer is not proven. */
export const PAYER_UNKNOWN_TEXT =
  'The chain does not prove which wallet paid this swap, so the shop will not send POGS to the pool or router it came from. Refund it by hand to the address the shopper proves is theirs.';
