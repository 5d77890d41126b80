import { parseDecimal } from '../../../../common/money';
import { orderStatusSchema } from '../../../../common/api';
import type { AdminOrder, DraftState } from '../../../../common/payments-desk';

/** The orders view's status filter: all, or one status the shop's orders take (pending and draft are never used for them). */
export const ADMIN_ORDER_STATUSES: readonly string[] = Object.freeze(
  orderStatusSchema.options.filter((status) => status !== 'pending' && status !== 'draft'),
);

const DRAFT_LABELS: Readonly<Record<DraftState, string>> = Object.freeze({
  pending: 'Draft order pending',
  open: 'Waiting for shipping details',
  completed: 'Shopify order',
  none: 'Not handed off',
});

/** Where the order's Shopify draft stands, in words ('Shopify order #1001' once completed). */
export function draftStateText(order: Pick<AdminOrder, 'draftState' | 'shopifyOrderName'>): string {
  const label = Object.hasOwn(DRAFT_LABELS, order.draftState) ? DRAFT_LABELS[order.draftState] : order.draftState;
  return order.draftState === 'completed' && order.shopifyOrderName ? `${label} ${order.shopifyOrderName}` : label;
}

/** Whether 'Retry now' is offered: the hand-off failed and is not done. */
export function canRetryHandoff(order: Pick<AdminOrder, 'handoff'>): boolean {
  return order.handoff !== null && order.handoff.lastError !== null && !order.handoff.done;
}

/** The order's flags as short words: 'Overpaid', 'Late', 'On hold: out of stock'. */
export function orderFlagsText(flags: AdminOrder['flags']): string[] {
  const out: string[] = [];
  if (flags.overpaid) out.push('Overpaid');
  if (flags.late) out.push('Late');
  if (flags.hold) out.push(`On hold: ${flags.hold.replace(/-/g, ' ')}`);
  return out;
}

/** Whether a POG decimal string is more than 0 (exactly; an unreadable one is not). */
export function isPositiveAmount(amount: string | null | undefined): boolean {
  const decimal = amount ? parseDecimal(amount) : null;
  return decimal !== null && decimal.units > 0n;
}
