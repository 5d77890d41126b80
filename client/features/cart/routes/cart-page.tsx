import { ArrowLeft, CreditCard, RefreshCw, TriangleAlert } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { formatPogPrice } from '../../../lib/format-pog-price';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useCart } from '../api/get-cart';
import { CartEmpty } from '../components/cart-empty';
import { CartLineItem } from '../components/cart-line-item';
import { openCart } from '../lib/cart-events';
import type { Cart } from '../types';
import { UsdReferenceFigure as UsdReference } from '../../../components/ui/usd-reference-figure';

const linkClass =
  'inline-flex h-11 items-center gap-2 rounded-full px-4 font-semibold text-brand hover:bg-brand-soft ' +
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring';

/**
 * /cart — a simple cart page: the lines with image, title and price in $POGS, and an
 * order summary whose 'Proceed to Checkout' opens the cart drawer, where payment happens.
 */
export function CartPage() {
  useDocumentTitle('Your Cart');
  const { data: cart, isError, isFetching, refetch } = useCart();

  return (
    <div className="min-h-[calc(100dvh-4rem)] bg-surface">
      <div data-testid="cart-page" className="mx-auto grid max-w-5xl gap-5 px-4 py-6 sm:px-6 sm:py-8 lg:px-8">
        <div className="grid gap-1">
          <div className="-ml-4">
            <Link to="/" className={linkClass}>
              <ArrowLeft aria-hidden className="size-5" />
              Back to shop
            </Link>
          </div>
          <h1 className="text-3xl font-black tracking-tight">Your Cart</h1>
        </div>
        {cart ? (
          cart.items.length > 0 ? (
            <CartPageContent cart={cart} />
          ) : (
            <CartPageEmpty />
          )
        ) : isError ? (
          <Card role="alert" data-testid="cart-error" className="mx-auto grid w-full max-w-md justify-items-center gap-3 p-8 text-center">
            <TriangleAlert aria-hidden className="size-10 text-destructive" />
            <h2 className="text-lg font-bold">Failed to fetch cart</h2>
            <Button onClick={() => void refetch()} disabled={isFetching}>
              <RefreshCw aria-hidden className={isFetching ? 'motion-safe:animate-spin' : undefined} />
              Try Again
            </Button>
          </Card>
        ) : (
          <CartPageSkeleton />
        )}
      </div>
    </div>
  );
}

function CartPageContent({ cart }: { cart: Cart }) {
  // Units, as an order summary counts them (the header's 'Cart (n)' counts lines, not units).
  const units = cart.items.reduce((sum, item) => sum + item.quantity, 0);
  const excluded = cart.items.filter((item) => item.problem).length;
  return (
    <div className="grid items-start gap-5 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <Card className="px-4 sm:px-6">
        <h2 className="sr-only">Items</h2>
        <ul className="divide-y divide-border" data-testid="cart-items">
          {cart.items.map((item) => (
            <CartLineItem key={item.id} item={item} formatPrice={formatPogPrice} size="comfortable" />
          ))}
        </ul>
      </Card>
      <Card className="grid gap-4 p-5 lg:sticky lg:top-20" aria-labelledby="order-summary-title" role="region">
        <h2 id="order-summary-title" className="text-lg font-bold">
          Order Summary
        </h2>
        <dl className="grid gap-2 text-sm">
          <div className="flex justify-between gap-3">
            <dt className="text-muted-foreground">Items</dt>
            <dd className="font-semibold tabular-nums" data-testid="cart-summary-units">
              {units}
            </dd>
          </div>
          <div className="flex items-baseline justify-between gap-3 border-t border-border pt-3">
            <dt className="text-base font-semibold">Total</dt>
            <dd className="grid justify-items-end">
              <span className="text-xl font-extrabold text-brand tabular-nums" data-testid="cart-summary-total">
                {formatPogPrice(cart.total)}
              </span>
              <UsdReference pogs={cart.total} className="text-xs" />
            </dd>
          </div>
        </dl>
        {excluded > 0 && (
          <p className="text-sm text-destructive">
            {excluded === 1 ? 'One item is' : `${excluded} items are`} not available as listed and not included in the total.
          </p>
        )}
        <Button size="lg" className="w-full" data-testid="proceed-to-checkout" onClick={openCart}>
          <CreditCard aria-hidden />
          Proceed to Checkout
        </Button>
        <p className="text-center text-xs text-muted-foreground">Paid in POG on the Base Network.</p>
      </Card>
    </div>
  );
}

function CartPageEmpty() {
  return (
    <Card className="mx-auto w-full max-w-md p-8">
      <CartEmpty titleClassName="text-lg font-bold">
        <Link
          to="/"
          className="inline-flex h-11 items-center rounded-full bg-brand px-5 font-semibold text-brand-foreground hover:bg-brand-hover focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        >
          Continue shopping
        </Link>
      </CartEmpty>
    </Card>
  );
}

function CartPageSkeleton() {
  return (
    <div role="status" className="grid items-start gap-5 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <span className="sr-only">Loading your cart…</span>
      <Card className="grid gap-4 p-4 sm:p-6">
        {[0, 1, 2].map((i) => (
          <div key={i} className="flex gap-3">
            <Skeleton className="size-20 shrink-0" />
            <div className="grid flex-1 content-start gap-2">
              <Skeleton className="h-5 w-4/5" />
              <Skeleton className="h-4 w-1/3" />
            </div>
          </div>
        ))}
      </Card>
      <Card className="grid gap-3 p-5">
        <Skeleton className="h-6 w-1/2" />
        <Skeleton className="h-6 w-full" />
        <Skeleton shape="pill" className="h-12 w-full" />
      </Card>
    </div>
  );
}

export { CartPage as Component };
