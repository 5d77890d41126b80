import { Undo2 } from 'lucide-react';
import type { RefundLine } from '../../../../common/api';
import { formatPogAmount } from '../../../lib/format-pog-price';
import { cn } from '../../../lib/utils';
import { ExplorerLink } from './explorer-link';

/**
 * What the shop sent back for an order (or for payments that made none), verified on chain: "Refunded {amount} POG" for
 * each refund, oldest first, with its transaction (BaseScan, or the hash to copy on the local chain).
 */
export function OrderRefunds({ refunds, className }: { refunds: readonly RefundLine[]; className?: string }) {
  if (refunds.length === 0) return null;
  return (
    <ul
      className={cn('grid gap-1 rounded-2xl border border-slate-300 bg-slate-50 px-3 py-1 text-sm', className)}
      data-testid="order-refunds"
    >
      {refunds.map((refund) => (
        <li key={refund.txHash} className="flex flex-wrap items-center justify-between gap-x-3" data-testid="order-refund">
          <span className="flex items-center gap-2 font-semibold" title={`${refund.amount} POG`}>
            <Undo2 aria-hidden className="size-4 shrink-0 text-slate-600" />
            Refunded {formatPogAmount(refund.amount)} POG
          </span>
          <ExplorerLink transactionHash={refund.txHash} label="View refund on BaseScan" localFallback />
        </li>
      ))}
    </ul>
  );
}
