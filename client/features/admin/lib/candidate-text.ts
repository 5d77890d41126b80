import type { AttachCandidate, AttachResult, CandidateReason } from '../../../../common/payments-desk';

const REASON_LABELS: Readonly<Record<CandidateReason, string>> = Object.freeze({
  'same-sender': 'Same sender',
  'close-amount': 'Close amount',
  'same-time': 'Same time',
});

/** A reason a checkout is offered, as a chip says it. */
export function candidateReasonLabel(reason: string): string {
  return Object.hasOwn(REASON_LABELS, reason) ? REASON_LABELS[reason as CandidateReason] : reason.replace(/-/g, ' ');
}

/** A checkout's items in one line: '2 × Cap A, 1 × Slammer'. */
export function candidateItemsText(items: AttachCandidate['items']): string {
  return items.map((i) => `${i.quantity} × ${i.title}`).join(', ');
}

/** What attaching did, from the server's answer: an order made, or a checkout still underpaid. */
export function attachResultText(result: AttachResult): { title: string; detail: string } {
  if (result.orderId !== null) return { title: 'Order made', detail: `The transfer paid order ${result.orderId}.` };
  if (result.item?.due) return { title: 'Still underpaid', detail: `The checkout still needs ${result.item.due} POG.` };
  return { title: 'Attached', detail: 'The transfer now counts towards that checkout.' };
}
