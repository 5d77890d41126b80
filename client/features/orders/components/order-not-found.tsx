import { PackageSearch, RefreshCw, TriangleAlert } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Button, buttonVariants } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { cn } from '../../../lib/utils';

/** 'Order Not Found - We couldn't find your order. Please check your order history.' */
export function OrderNotFound() {
  return (
    <Card className="mx-auto grid w-full max-w-md justify-items-center gap-3 p-8 text-center" data-testid="order-not-found">
      <PackageSearch aria-hidden className="size-10 text-muted-foreground" />
      <h1 className="text-xl font-bold">Order Not Found</h1>
      <p className="text-sm text-muted-foreground">We couldn&apos;t find your order. Please check your order history.</p>
      <Link to="/orders" className={cn(buttonVariants(), 'mt-1')}>
        View Orders
      </Link>
    </Card>
  );
}

/** The order could not be read (server or network trouble, not a missing order). */
export function OrderLoadError({ error, onRetry, retrying }: { error: Error; onRetry: () => void; retrying: boolean }) {
  return (
    <Card role="alert" className="mx-auto grid w-full max-w-md justify-items-center gap-3 p-8 text-center" data-testid="order-error">
      <TriangleAlert aria-hidden className="size-10 text-destructive" />
      <h1 className="text-xl font-bold">We couldn&apos;t load your order</h1>
      <p className="text-sm break-words text-muted-foreground">{error.message}</p>
      <Button onClick={onRetry} disabled={retrying}>
        <RefreshCw aria-hidden className={retrying ? 'motion-safe:animate-spin' : undefined} />
        Try Again
      </Button>
    </Card>
  );
}
