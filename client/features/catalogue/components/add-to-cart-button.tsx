import { LoaderCircle, ShoppingCart } from 'lucide-react';
import { SOLD_OUT_LABEL } from '../../../../common/availability';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/utils';
import type { ProductPurchase } from '../hooks/use-product-purchase';

interface AddToCartButtonProps {
  purchase: ProductPurchase;
  /** 'card': 'Add to Cart' and the compact disable rule; 'detail': 'Add {n} to Cart'. */
  variant: 'card' | 'detail';
  className?: string;
}

/** Labels: 'SOLD OUT', 'Adding to Cart...', then 'Add to Cart' / 'Add {n} to Cart'. */
export function AddToCartButton({ purchase, variant, className }: AddToCartButtonProps) {
  const disabled = variant === 'card' ? purchase.compactDisabled : purchase.disabled;
  const label = purchase.isSoldOut
    ? SOLD_OUT_LABEL
    : purchase.isPending
      ? 'Adding to Cart...'
      : variant === 'card'
        ? 'Add to Cart'
        : `Add ${purchase.quantity} to Cart`;
  return (
    <Button
      data-testid="add-to-cart"
      size="lg"
      className={cn('w-full', className)}
      variant={purchase.isSoldOut ? 'secondary' : 'default'}
      disabled={disabled}
      aria-busy={purchase.isPending || undefined}
      onClick={purchase.add}
    >
      {purchase.isPending ? (
        <LoaderCircle aria-hidden className="motion-safe:animate-spin" />
      ) : (
        !purchase.isSoldOut && <ShoppingCart aria-hidden />
      )}
      {label}
    </Button>
  );
}
