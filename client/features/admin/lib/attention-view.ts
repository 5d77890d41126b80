import { attentionKindSchema, type AttentionKind } from '../../../../common/payments-desk';

/** Each kind of problem transfer, as the desk names it (sentence case, short). */
const KIND_LABELS: Readonly<Record<AttentionKind, string>> = Object.freeze({
  unmatched: 'Unmatched',
  underpaid: 'Underpaid',
  overpaid: 'Overpaid',
  late: 'Late',
  'out-of-stock': 'Out of stock',
  reorged: 'Reorged',
});

/** The filter chips of 'Needs attention', in order: All, then every kind. */
export const ATTENTION_FILTERS: readonly { kind: AttentionKind | null; label: string }[] = Object.freeze([
  { kind: null, label: 'All' },
  ...attentionKindSchema.options.map((kind) => ({ kind, label: KIND_LABELS[kind] })),
]);

/** A kind's label; one this client does not know yet (a newer server) reads as its own words. */
export function attentionKindLabel(kind: string): string {
  if (Object.hasOwn(KIND_LABELS, kind)) return KIND_LABELS[kind as AttentionKind];
  const words = kind.replace(/-/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : 'Unknown';
}

/** A kind's badge colours (each with AA contrast): money missing or gone red, money extra blue, time amber, no match grey. */
export function attentionKindClass(kind: string): string {
  switch (kind) {
    case 'underpaid':
    case 'reorged':
      return 'border-red-300 bg-red-100 text-red-900';
    case 'overpaid':
      return 'border-blue-300 bg-blue-100 text-blue-900';
    case 'late':
    case 'out-of-stock':
      return 'border-yellow-300 bg-yellow-100 text-yellow-900';
    default:
      return 'border-border bg-muted text-foreground';
  }
}

/** What 'Needs attention' shows: one kind or all, open items or the history of resolved ones. */
export interface AttentionView {
  kind: AttentionKind | null;
  history: boolean;
}

export const DEFAULT_ATTENTION_VIEW: AttentionView = Object.freeze({ kind: null, history: false });

/** The view named by the page's address (`?kind=underpaid&history=1`); anything unknown is ignored. */
export function readAttentionView(params: URLSearchParams): AttentionView {
  const kind = attentionKindSchema.safeParse(params.get('kind'));
  return { kind: kind.success ? kind.data : null, history: params.get('history') === '1' };
}

/** The page's address for a view (the inverse of readAttentionView), keeping other parameters. */
export function attentionViewParams(view: AttentionView, current = new URLSearchParams()): URLSearchParams {
  const next = new URLSearchParams(current);
  if (view.kind) next.set('kind', view.kind);
  else next.delete('kind');
  if (view.history) next.set('history', '1');
  else next.delete('history');
  return next;
}

/** GET /api/admin/payments/attention for a view (`resolved` is false unless it is the history), after the page `before` ended. */
export function attentionPath(view: AttentionView, before: string | null = null): string {
  const query = new URLSearchParams();
  if (view.kind) query.set('kind', view.kind);
  if (view.history) query.set('resolved', 'true');
  if (before) query.set('before', before);
  const text = query.toString();
  return `/api/admin/payments/attention${text ? `?${text}` : ''}`;
}

/**
 * Whether 'Attach' is offered: a transfer that counts towards no order (unmatched, or extra money
 * that paid nothing). The server has the last word (`transfer-not-attachable`).
 */
export function canAttach(item: { kind: string; orderId: string | null; resolved: unknown }): boolean {
  return item.resolved === null && item.orderId === null && (item.kind === 'unmatched' || item.kind === 'overpaid' || item.kind === 'late');
}

/** Whether 'Refund' is offered: something of the transfer is still refundable. */
export function canRefund(item: { refundableWei: string; refundTo: string | null }): boolean {
  return item.refundTo !== null && hasRefundable(item.refundableWei);
}

/** Something is left to refund but the chain proves no payer (a swap through another contract): refunded by hand, off the desk. */
export function refundByHand(item: { refundableWei: string; refundTo: string | null }): boolean {
  return item.refundTo === null && hasRefundable(item.refundableWei);
}

function hasRefundable(wei: string): boolean {
  try {
    return BigInt(wei) > 0n;
  } catch {
    return false;
  }
}
