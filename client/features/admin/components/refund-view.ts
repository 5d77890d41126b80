import type { MutationStatus } from '@tanstack/react-query';
import type { RefundOutcome } from '../lib/run-refund';
import type { SentRefund } from '../lib/sent-refunds';

/** What the dialog shows. */
export type RefundView =
  | { kind: 'in-flight' }
  | { kind: 'form'; message: string | null }
  | { kind: 'unrecorded'; sent: SentRefund; message: string | null }
  | Extract<RefundOutcome, { kind: 'recorded' }>;

/**
 * The screen for the refund mutation's state and the refund this browser keeps as sent but not
 * recorded (`stored`): pending is the step in flight; a recorded outcome the result; a refund sent
 * but not recorded (this run's, else the kept one) "Check again"; else the form, with what went
 * wrong last (an outcome that sent nothing, or a thrown error).
 */
export function refundView(
  mutation: { status: MutationStatus; data: RefundOutcome | undefined; error: unknown },
  stored: SentRefund | null,
): RefundView {
  if (mutation.status === 'pending') return { kind: 'in-flight' };
  const outcome = mutation.status === 'success' ? mutation.data : undefined;
  if (outcome?.kind === 'recorded') return outcome;
  if (outcome?.kind === 'sent-not-recorded') return { kind: 'unrecorded', sent: outcome.sent, message: outcome.message };
  if (stored) return { kind: 'unrecorded', sent: stored, message: null };
  if (outcome?.kind === 'not-sent') return { kind: 'form', message: outcome.message };
  if (mutation.status === 'error') {
    return { kind: 'form', message: mutation.error instanceof Error ? mutation.error.message : 'Something went wrong. Try again.' };
  }
  return { kind: 'form', message: null };
}
