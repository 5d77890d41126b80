import { ArrowLeft, PackageOpen, TriangleAlert } from 'lucide-react';
import { Link } from 'react-router-dom';
import { ErrorCode } from '../../../../common/errors';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import type { ApiError } from '../../../lib/api-client';

/** A product id that does not exist or is no longer sold. */
export function ProductNotFound() {
  return (
    <Card className="mx-auto grid max-w-md justify-items-center gap-3 p-8 text-center" data-testid="product-not-found">
      <PackageOpen aria-hidden className="size-10 text-muted-foreground" />
      <h1 className="text-xl font-bold">Product Not Found</h1>
      <p className="text-sm text-muted-foreground">
        This product isn&apos;t in the shop. It may have been removed or is no longer for sale.
      </p>
      <BackToShop />
    </Card>
  );
}

export function ProductLoadError({ error, onRetry, retrying }: { error: Error; onRetry: () => void; retrying: boolean }) {
  return (
    <Card role="alert" className="mx-auto grid max-w-md justify-items-center gap-3 p-8 text-center">
      <TriangleAlert aria-hidden className="size-10 text-destructive" />
      <h1 className="text-xl font-bold">We couldn&apos;t load this product</h1>
      <p className="text-sm break-words text-muted-foreground">{error.message}</p>
      <div className="flex flex-wrap justify-center gap-2">
        <Button onClick={onRetry} disabled={retrying}>
          Try Again
        </Button>
        <BackToShop />
      </div>
    </Card>
  );
}

export function BackToShop() {
  return (
    <Link
      to="/"
      className="inline-flex h-11 items-center gap-2 rounded-full px-4 font-semibold text-brand hover:bg-brand-soft focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
    >
      <ArrowLeft aria-hidden className="size-5" />
      Back to shop
    </Link>
  );
}

export function isNotFound(error: unknown): boolean {
  const e = error as Partial<ApiError> | null;
  return Boolean(e && (e.code === ErrorCode.productNotFound || e.status === 404 || e.status === 400));
}
