import type { AttentionItem } from '../../../../common/payments-desk';
import { formatUnits, parseUnits, TOKEN_DECIMALS } from '../../../../common/money';

export type RefundPreset = 'full' | 'excess' | 'partial';

export interface RefundPresetOption {
  preset: RefundPreset;
  label: string;
  /** The exact amount it refunds (POG decimal string); null for 'partial', which is typed in. */
  amount: string | null;
}

/** Reads a decimal the server sent as wei, or null when it is not one (never a float). */
function toWei(amount: string | null): bigint | null {
  if (amount === null) return null;
  try {
    return parseUnits(amount);
  } catch {
    return null;
  }
}

/**
 * The refund dialog's choices for an item: 'Full' (everything still refundable), 'Excess only'
 * (the overpayment, when the item has one, capped at what is still refundable) and 'Partial'
 * (typed). Nothing but 'Partial' when nothing is refundable: the amount check then says why.
 */
export function refundPresets(item: Pick<AttentionItem, 'refundableWei' | 'excess'>): RefundPresetOption[] {
  const refundable = BigInt(item.refundableWei);
  const options: RefundPresetOption[] = [];
  if (refundable > 0n) options.push({ preset: 'full', label: 'Full', amount: formatUnits(refundable) });
  const excess = toWei(item.excess);
  if (excess !== null && excess > 0n && refundable > 0n) {
    const capped = excess < refundable ? excess : refundable;
    // The same as 'Full' when the whole transfer is excess: one choice is enough.
    if (capped < refundable) options.push({ preset: 'excess', label: 'Excess only', amount: formatUnits(capped) });
  }
  options.push({ preset: 'partial', label: 'Partial', amount: null });
  return options;
}

export type RefundAmountCheck = { ok: true; amount: string; wei: bigint } | { ok: false; message: string };

/**
 * Checks a refund amount typed by the admin, exactly: a plain decimal of POG ("12.5", ".5"), more
 * than 0, at most 18 decimals, and no more than what is refundable. The answer's `amount` is the
 * canonical decimal the server is sent ("12.50").
 */
export function checkRefundAmount(text: string, refundableWei: bigint): RefundAmountCheck {
  let value = text.trim();
  if (!value) return { ok: false, message: 'Enter an amount of POG' };
  if (value.startsWith('.')) value = `0${value}`;
  if (!/^\d+(\.\d+)?$/.test(value)) return { ok: false, message: 'Enter a number of POG, e.g. 12.50' };
  const fraction = value.split('.')[1] ?? '';
  if (fraction.replace(/0+$/, '').length > TOKEN_DECIMALS) return { ok: false, message: `Use at most ${TOKEN_DECIMALS} decimals` };
  let wei: bigint;
  try {
    wei = parseUnits(value);
  } catch {
    return { ok: false, message: 'Enter a number of POG, e.g. 12.50' };
  }
  if (wei <= 0n) return { ok: false, message: 'The amount must be more than 0' };
  if (wei > refundableWei) return { ok: false, message: `At most ${formatUnits(refundableWei)} POG can be refunded` };
  return { ok: true, amount: formatUnits(wei), wei };
}
