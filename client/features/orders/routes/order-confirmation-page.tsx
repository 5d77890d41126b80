import { CircleCheck, LoaderCircle, Truck } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { Order } from '../../../../common/api';
import { buttonVariants } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { formatPogAmount } from '../../../lib/format-pog-price';
import { useShopNames } from '../../../lib/public-config';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { isOrderNotFound, useOrder } from '../api/get-order';
import { ExplorerLink } from '../components/explorer-link';
import { OrderHoldNotice } from '../components/order-hold-notice';
import { OrderItems } from '../components/order-items';
import { OrderLoadError, OrderNotFound } from '../components/order-not-found';
import { OrderRefunds } from '../components/order-refunds';
import { receiptPath } from '../lib/receipt-path';
import { usdAtPayment } from '../lib/receipt';
import { OrderStatusBadge } from '../../../components/ui/order-status-badge';
import { useAuthSession } from '../../auth';
import { OrderUpdatesToggle } from '../components/order-updates-toggle';

/**
 * /order-confirmation?id=<order id> — the payment-success page. Read fresh on every
 * visit, so 'confirmed' and 'shipped' show up as Shopify reports them; a failed read offers Retry.
 */
export function OrderConfirmationPage() {
  const { shopName } = useShopNames();
  useDocumentTitle('Order Confirmation', shopName);
  const [params] = useSearchParams();
  const id = params.get('id')?.trim() ?? '';
  const { data: order, error, isPending, isFetching, refetch } = useOrder(id);

  let content: ReactNode;
  if (!id || (error && isOrderNotFound(error))) content = <OrderNotFound />;
  else if (order) content = <OrderConfirmation order={order} />;
  else if (error) content = <OrderLoadError error={error} onRetry={() => void refetch()} retrying={isFetching} />;
  else if (isPending)
    content = (
      <p role="status" className="flex items-center justify-center gap-2 py-16 text-lg text-muted-foreground" data-testid="order-loading">
        <LoaderCircle aria-hidden className="size-6 motion-safe:animate-spin" />
        Confirming your purchase...
      </p>
    );

  return (
    <div className="min-h-[calc(100dvh-4rem)] bg-surface">
      <div className="mx-auto grid max-w-2xl grid-cols-[minmax(0,1fr)] gap-5 px-4 py-6 sm:px-6 sm:py-10">{content}</div>
    </div>
  );
}

// Full width, and allowed to wrap: 'Complete Shipping Information' is wider than a small phone.
const linkButton = (variant: 'default' | 'outline') => buttonVariants({ variant, size: 'block-lg' });

function OrderConfirmation({ order }: { order: Order }) {
  const { productName } = useShopNames();
  const usd = usdAtPayment(order);

  return (
    <Card className="grid gap-6 p-4 sm:p-8" data-testid="order-confirmation" data-order-id={order.id}>
      <header className="grid justify-items-center gap-2 text-center">
        <span className="flex size-16 items-center justify-center rounded-full bg-green-100 text-green-700">
          <CircleCheck aria-hidden className="size-9" />
        </span>
        <h1 className="text-2xl font-black tracking-tight sm:text-3xl">Payment Successful!</h1>
        <p className="text-muted-foreground">Your {productName} payment has been confirmed and recorded on the blockchain.</p>
      </header>

      <dl className="grid gap-3 rounded-2xl border border-border bg-surface p-4 text-sm">
        <div className="flex items-start justify-between gap-3">
          <dt className="text-muted-foreground">Order number</dt>
          <dd className="min-w-0 text-right font-mono font-semibold break-all" data-testid="order-number">
            {order.id}
          </dd>
        </div>
        <div className="flex items-baseline justify-between gap-3">
          <dt className="text-muted-foreground">Amount paid</dt>
          <dd className="text-lg font-extrabold text-brand tabular-nums" title={`${order.amountPaid} POG`} data-testid="order-amount-paid">
            {formatPogAmount(order.amountPaid)} POG
          </dd>
        </div>
        {usd && (
          <div className="-mt-2 flex justify-end text-xs text-muted-foreground">
            <dt className="sr-only">In dollars</dt>
            <dd data-testid="order-usd-at-payment">{usd} at payment</dd>
          </div>
        )}
        <div className="flex items-center justify-between gap-3">
          <dt className="text-muted-foreground">Status</dt>
          <dd>
            <OrderStatusBadge status={order.status} />
          </dd>
        </div>
      </dl>

      <section aria-labelledby="items-purchased" className="grid gap-2">
        <h2 id="items-purchased" className="text-lg font-bold">
          Items purchased
        </h2>
        <OrderItems items={order.items} formatPrice={(price) => `${formatPogAmount(price)} POG`} />
      </section>

      <div className="grid gap-3">
        <OrderRefunds refunds={order.refunds} />
        {order.hold && <OrderHoldNotice hold={order.hold} />}
        {order.needsShipping && (
          <>
            <p className="flex items-start gap-2 rounded-2xl bg-brand-soft p-3 text-sm">
              <Truck aria-hidden className="mt-px size-5 shrink-0 text-brand" />
              Please complete your shipping information to fulfill this order
            </p>
            {/* A full page load: the server forwards this link to the shipping form. */}
            <a href={order.shippingUrl} className={linkButton('default')} data-testid="complete-shipping">
              Complete Shipping Information
            </a>
          </>
        )}
        <OrderUpdatesOfOrder wallet={order.customerWallet} />
        {/* BaseScan on a real chain; in local mode the hash with a copy button, as a shopper will see it. */}
        <ExplorerLink transactionHash={order.transactionHash} className="justify-center" localFallback />
        <Link to={receiptPath(order.id)} className={linkButton('outline')} data-testid="receipt-link">
          View Receipt
        </Link>
        <Link to="/orders" className={linkButton('outline')}>
          View All Orders
        </Link>
      </div>
    </Card>
  );
}

/** Order updates for the order's wallet: the toggle once this browser is signed in as it, else the way to sign in. */
function OrderUpdatesOfOrder({ wallet }: { wallet: string }) {
  const session = useAuthSession(true);
  if (!session.data) return null;
  return <OrderUpdatesToggle wallet={wallet} signedIn={session.data.address === wallet.toLowerCase()} />;
}

export { OrderConfirmationPage as Component };
