import { CircleCheck, LoaderCircle, Undo2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { Order } from '../../../../common/api';
import { buttonVariants } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { useShopNames } from '../../../lib/public-config';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { cn } from '../../../lib/utils';
import { isOrderNotFound, useOrder } from '../api/get-order';
import { OrderHoldNotice } from '../components/order-hold-notice';
import { OrderLoadError, OrderNotFound } from '../components/order-not-found';

/** How often to ask whether Shopify's shipping form exists yet. */
export const SHIPPING_POLL_MS = 2000;

/**
 * A reload within this long of the last one means the server did not forward: stop reloading
 * (and offer the link) rather than loop.
 */
const RELOAD_GUARD_MS = 15_000;
const reloadKey = (id: string) => `pogs:shipping-reload:${id}`;

function reloadedRecently(id: string): boolean {
  try {
    const last = Number(sessionStorage.getItem(reloadKey(id)));
    return Number.isFinite(last) && Date.now() - last < RELOAD_GUARD_MS;
  } catch {
    return false;
  }
}

function markReload(id: string): void {
  try {
    sessionStorage.setItem(reloadKey(id), String(Date.now()));
  } catch {
    // storage blocked: the guard is best effort
  }
}

/**
 * /orders/:id/shipping, shown only when the server could not forward to Shopify's shipping form
 * yet (the order is new and the form is being made). Asks every 2 s; once the form exists, loads
 * the same address again so the server forwards to it.
 */
export function OrderShippingPage() {
  const { shopName } = useShopNames();
  useDocumentTitle('Shipping Information', shopName);
  const id = useParams().id ?? '';
  const {
    data: order,
    error,
    isFetching,
    refetch,
  } = useOrder(id, {
    refetchInterval: (current) => (current?.shippingReady ? false : SHIPPING_POLL_MS),
  });
  const ready = Boolean(order?.shippingReady);
  // This page was itself such a reload that the server did not forward: do not loop.
  const [reloaded] = useState(() => reloadedRecently(id));

  useEffect(() => {
    if (!ready || reloaded) return;
    markReload(id);
    window.location.replace(window.location.href);
  }, [ready, reloaded, id]);

  return (
    <div className="flex min-h-[calc(100dvh-4rem)] items-center justify-center bg-surface px-4 py-10">
      {error && isOrderNotFound(error) ? (
        <OrderNotFound />
      ) : error && !order ? (
        <OrderLoadError error={error} onRetry={() => void refetch()} retrying={isFetching} />
      ) : order?.status === 'refunded' ? (
        <ShippingRefunded order={order} />
      ) : order?.hold ? (
        <ShippingOnHold order={order} hold={order.hold} />
      ) : order && !order.needsShipping && !ready ? (
        <ShippingReceived order={order} />
      ) : (
        <Preparing id={id} formReady={ready && reloaded} shippingUrl={order?.shippingUrl} />
      )}
    </div>
  );
}

function Preparing({ id, formReady, shippingUrl }: { id: string; formReady: boolean; shippingUrl: string | undefined }) {
  return (
    <Card className="grid w-full max-w-md justify-items-center gap-4 p-8 text-center" data-testid="preparing-shipping">
      {formReady && shippingUrl ? (
        <>
          <h1 className="text-xl font-bold">Your shipping form is ready</h1>
          <a href={shippingUrl} className={cn(buttonVariants({ size: 'lg' }), 'w-full')}>
            Complete Shipping Information
          </a>
        </>
      ) : (
        <>
          <LoaderCircle aria-hidden className="size-12 text-brand motion-safe:animate-spin" />
          <h1 role="status" className="text-xl font-bold">
            Preparing your shipping form…
          </h1>
          <p className="text-sm text-muted-foreground">
            Your payment is confirmed. The form for your shipping details is being set up; this page moves on by itself in a moment.
          </p>
        </>
      )}
      <Link to={`/order-confirmation?id=${encodeURIComponent(id)}`} className={cn(buttonVariants({ variant: 'link', size: 'sm' }))}>
        View your order
      </Link>
    </Card>
  );
}

function ShippingOnHold({ order, hold }: { order: Order; hold: NonNullable<Order['hold']> }) {
  return (
    <Card className="grid w-full max-w-md gap-4 p-6 sm:p-8" data-testid="shipping-on-hold">
      <h1 className="text-xl font-bold">No shipping form yet</h1>
      <OrderHoldNotice hold={hold} />
      <Link to={`/order-confirmation?id=${encodeURIComponent(order.id)}`} className={buttonVariants({ variant: 'outline' })}>
        View your order
      </Link>
    </Card>
  );
}

function ShippingRefunded({ order }: { order: Order }) {
  return (
    <Card className="grid w-full max-w-md justify-items-center gap-3 p-8 text-center" data-testid="shipping-refunded">
      <Undo2 aria-hidden className="size-10 text-slate-600" />
      <h1 className="text-xl font-bold">This order was refunded</h1>
      <p className="text-sm text-muted-foreground">Its payment went back to your wallet, so there is nothing to ship.</p>
      <Link to={`/order-confirmation?id=${encodeURIComponent(order.id)}`} className={buttonVariants()}>
        View your order
      </Link>
    </Card>
  );
}

function ShippingReceived({ order }: { order: Order }) {
  return (
    <Card className="grid w-full max-w-md justify-items-center gap-3 p-8 text-center" data-testid="shipping-received">
      <CircleCheck aria-hidden className="size-10 text-green-700" />
      <h1 className="text-xl font-bold">Your shipping details are in</h1>
      <p className="text-sm text-muted-foreground">Nothing more to do for this order.</p>
      <Link to={`/order-confirmation?id=${encodeURIComponent(order.id)}`} className={buttonVariants()}>
        View your order
      </Link>
    </Card>
  );
}

export { OrderShippingPage as Component };
