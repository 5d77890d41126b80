import { ExternalLink, RotateCcw } from 'lucide-react';
import type { Order } from '../../../../common/api';
import { formatPogAmount } from '../../../lib/format-pog-price';

/**
 * The refunds the shop sent back for an order (issue 13), each verified on chain:
 * 'Refunded {amount} POG', with the explorer link (none on the local chain).
 */
export function OrderRefunds({ refunds }: { refunds: Order['refunds'] | undefined }) {
  // An older server sends no refunds at all.
  if (!refunds || refunds.length === 0) return null;
  return (
    <ul className="grid gap-1.5" data-testid="order-refunds">
      {refunds.map((refund) => (
        <li
          key={refund.txHash}
          className="flex flex-wrap items-center gap-x-2 gap-y-1 rounded-2xl bg-muted p-3 text-sm"
          data-testid="order-refund"
        >
          <RotateCcw aria-hidden className="size-4 shrink-0 text-muted-foreground" />
          <span className="font-semibold" title={`${refund.amount} POG`}>
            Refunded {formatPogAmount(refund.amount)} POG
          </span>
          {refund.explorerUrl && (
            <a
              href={refund.explorerUrl}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex min-h-11 items-center gap-1 font-semibold text-brand underline-offset-4 hover:underline"
              data-testid="order-refund-link"
            >
              View refund
              <ExternalLink aria-hidden className="size-4" />
              <span className="sr-only">(opens in a new tab)</span>
            </a>
          )}
        </li>
      ))}
    </ul>
  );
}
