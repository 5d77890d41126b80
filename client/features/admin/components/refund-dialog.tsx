import type { AttentionItem } from '../../../../common/payments-desk';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../../../components/ui/dialog';
import { formatPogAmount } from '../../../lib/format-pog-price';
import { useSentRefund } from '../hooks/use-sent-refund';
import { RefundForm } from './refund-form';
import { useRefundMutation } from '../hooks/use-refund-mutation';
import { RefundInFlight, RefundUnrecorded } from './refund-progress';
import { RefundResult } from './refund-result';
import { refundView } from './refund-view';

/**
 * 'Refund': the amount (full, the excess only, or a partial amount typed in), then the store
 * wallet connected with the shop's own wallet code sends `transfer(refundTo, amount)` of the POG
 * token on Base, and the server verifies it on chain before it records it. One transfer per
 * click; once sent, its hash stays on screen (and in the browser) until the server records it.
 * The phases: refund-form.tsx, refund-progress.tsx (in flight; sent but not recorded),
 * refund-result.tsx; their state is one mutation (hooks/use-refund-mutation.ts).
 */
export function RefundDialog({ item, onClose }: { item: AttentionItem; onClose: () => void }) {
  const { mutation, step, start } = useRefundMutation(item);
  const stored = useSentRefund(item.transferId);
  const view = refundView(mutation, stored);
  const running = mutation.isPending;
  return (
    <Dialog open onOpenChange={(open) => !open && !running && onClose()}>
      <DialogContent
        layout="form"
        width="lg"
        onInteractOutside={(e) => running && e.preventDefault()}
        onEscapeKeyDown={(e) => running && e.preventDefault()}
        data-testid="refund-dialog"
      >
        <div className="grid gap-1 pr-10">
          <DialogTitle>Refund</DialogTitle>
          <DialogDescription>
            From the store wallet to the wallet that paid. Up to {formatPogAmount(item.refundable)} POG can be refunded.
          </DialogDescription>
        </div>
        {view.kind === 'recorded' && <RefundResult item={view.item} sent={view.sent} onClose={onClose} />}
        {view.kind === 'in-flight' && <RefundInFlight step={step} sent={stored} />}
        {view.kind === 'unrecorded' && (
          <RefundUnrecorded
            sent={view.sent}
            message={view.message}
            onCheckAgain={() => start({ kind: 'check', sent: view.sent })}
            onForgotten={() => mutation.reset()}
          />
        )}
        {view.kind === 'form' && <RefundForm item={item} message={view.message} onSend={(plan) => start({ kind: 'send', plan })} />}
      </DialogContent>
    </Dialog>
  );
}
