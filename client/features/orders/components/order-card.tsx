import { ExternalLink, ReceiptText, Truck } from 'lucide-react';
import { Link } from 'react-router-dom';
import type { Order } from '../../../../common/api';
import { buttonVariants } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { formatPogPrice } from '../../../lib/format-pog-price';
import { relativeTime } from '../../../lib/relative-time';
import { orderPlacedAt } from '../lib/order-sections';
import { receiptPath } from '../lib/receipt-path';
import { usdAtPayment } from '../lib/receipt';
import { ExplorerLink } from './explorer-link';
import { OrderHoldNotice } from './order-hold-notice';
import { OrderItems } from './order-items';
import { OrderRefunds } from './order-refunds';
import { OrderStatusBadge } from '../../../components/ui/order-status-badge';

/**
 * One order on the orders page: id, status badge, 'Placed … ago', total in $POGS and
 * the items; in the needs-shipping section the call to complete the shipping details (a new
 * tab, so the list stays here to come back to); what was refunded; 'View on BaseScan' when a
 * public explorer knows the transaction.
 */
export function OrderCard({ order, needsShipping }: { order: Order; needsShipping: boolean }) {
  const placedAt = orderPlacedAt(order);
  const usd = usdAtPayment(order);
  return (
    <Card className="grid gap-3 p-4 sm:p-6" data-testid="order-card" data-order-id={order.id} data-status={order.status}>
      <header className="flex items-start justify-between gap-3">
        <h3 className="min-w-0">
          <span className="block text-xs font-semibold tracking-wide text-muted-foreground uppercase">Order</span>
          <span className="font-mono text-sm font-semibold break-all" data-testid="order-id">
            {order.id}
          </span>
        </h3>
        <OrderStatusBadge status={order.status} className="mt-0.5 shrink-0" />
      </header>
      <p className="text-sm text-muted-foreground" data-testid="order-placed">
        Placed{' '}
        <time dateTime={placedAt ?? undefined} title={placedAt ? new Date(placedAt).toLocaleString() : undefined}>
          {relativeTime(placedAt)}
        </time>
      </p>

      <OrderItems items={order.items} formatPrice={formatPogPrice} />
      <p className="flex items-baseline justify-between gap-3 border-t border-border pt-3">
        <span className="font-semibold">Total</span>
        <span className="text-lg font-extrabold text-brand tabular-nums" data-testid="order-total">
          {formatPogPrice(order.total)}
        </span>
      </p>
      {usd && (
        <p className="-mt-2 text-right text-xs text-muted-foreground" data-testid="order-usd-at-payment">
          {usd} at payment
        </p>
      )}

      <OrderRefunds refunds={order.refunds} />
      {order.hold && <OrderHoldNotice hold={order.hold} />}
      {needsShipping && (
        <div className="grid gap-3 rounded-2xl bg-brand-soft p-3">
          <p className="flex items-start gap-2 text-sm">
            <Truck aria-hidden className="mt-px size-5 shrink-0 text-brand" />
            Please complete your shipping information to fulfill this order
          </p>
          {/* A new tab: the server forwards this link to the shipping form. */}
          <a
            href={order.shippingUrl}
            target="_blank"
            rel="noopener"
            className={buttonVariants({ size: 'block' })}
            data-testid="complete-shipping"
          >
            Complete Shipping Information
            <ExternalLink aria-hidden />
            <span className="sr-only">(opens in a new tab)</span>
          </a>
        </div>
      )}
      <div className="flex flex-wrap items-center gap-x-4">
        <Link
          to={receiptPath(order.id)}
          className="inline-flex min-h-11 items-center gap-1.5 text-sm font-semibold text-brand underline-offset-4 hover:underline"
          data-testid="receipt-link"
        >
          <ReceiptText aria-hidden className="size-4" />
          Receipt
        </Link>
        <ExplorerLink transactionHash={order.transactionHash} localFallback />
      </div>
    </Card>
  );
}
