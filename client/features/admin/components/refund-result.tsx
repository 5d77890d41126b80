import { CircleCheck } from 'lucide-react';
import type { AttentionItem } from '../../../../common/payments-desk';
import { Button } from '../../../components/ui/button';
import type { SentRefund } from '../lib/sent-refunds';
import { TxReference } from './desk-bits';

/** The words of the result, on screen and in the toast. */
export function refundVerifiedText(amount: string, to: string): string {
  return `Refund verified: ${amount} POG to ${to}`;
}

/** The refund's last phase: the server verified it on chain and recorded it. */
export function RefundResult({ item, sent, onClose }: { item: AttentionItem; sent: SentRefund; onClose: () => void }) {
  return (
    <div role="status" className="grid gap-3 rounded-2xl bg-green-50 p-4 text-green-950" data-testid="refund-result">
      <p className="flex items-start gap-2 font-bold break-all">
        <CircleCheck aria-hidden className="mt-0.5 size-5 shrink-0" />
        {refundVerifiedText(sent.amount, sent.to)}
      </p>
      <TxReference txHash={sent.txHash} explorerUrl={item.refunds.find((r) => r.txHash === sent.txHash)?.explorerUrl ?? null} />
      {item.resolved && <p className="text-sm">The item is resolved: {item.resolved.note}</p>}
      <Button className="justify-self-end" onClick={onClose} data-testid="refund-done">
        Done
      </Button>
    </div>
  );
}
