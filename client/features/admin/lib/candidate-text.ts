import type { AttachCandidate, AttachResult, CandidateReason } from '../../../../common/payments-desk';
import { formatPogAmount } from '../../../lib/format-pog-price';

const REASON_LABELS: Readonly<Record<CandidateReason, string>> = Object.freeze({
  'same-sender': 'Same sender',
  'reported-hash': 'Reported this payment',
  'close-amount': 'Close amount',
  'same-time': 'Same time',
});

/** A reason a checkout is offered, as a chip says it. */
export function candidateReasonLabel(reason: string): string {
  return Object.hasOwn(REASON_LABELS, reason) ? REASON_LABELS[reason as CandidateReason] : reason.replace(/-/g, ' ');
}

/**
 * The evidence for a candidate in plain lines, strongest first: whether its browser reported this
 * transaction (first, before it arrived: only the payer's browser can), how its amount fits, and
 * whether it was opened after the transfer, and how many other checkouts its source has.
 */
export function candidateEvidence(candidate: AttachCandidate): string[] {
  const lines: string[] = [];
  if (candidate.reasons.includes('same-sender')) lines.push('Its browser signed in with the wallet that sent this transfer.');
  if (candidate.reasons.includes('reported-hash')) {
    lines.push('Its browser reported this transaction first, before it arrived: only the payer’s browser knows it that early.');
  } else if (candidate.hashReportedAt) {
    lines.push('Its browser reported this transaction, but not first or only after it arrived: anyone can copy it from the chain by then.');
  }
  const exact = candidate.difference.replace(/^-/, '');
  const shown = formatPogAmount(exact);
  const size = shown === '0.00' ? 'under 0.01' : shown;
  if (/^0(\.0+)?$/.test(exact)) lines.push('The transfer is exactly what it still needs.');
  else lines.push(`The transfer is ${size} POG ${candidate.difference.startsWith('-') ? 'less' : 'more'} than it still needs.`);
  if (candidate.openedAfterTransfer) {
    lines.push('Opened after this transfer was made: anyone watching the chain could have. Listed below those opened before.');
  }
  if (candidate.sameSource > 0) {
    const n = candidate.sameSource;
    lines.push(`${n} other ${n === 1 ? 'checkout' : 'checkouts'} from the same network or browser, listed after every source’s best.`);
  }
  return lines;
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
