import { availabilityNote } from '../../../../common/availability';
import type { ProductPurchase } from '../hooks/use-product-purchase';
import { AddToCartButton } from './add-to-cart-button';
import { QuantityStepper } from './quantity-stepper';
import { VariantSelect } from './variant-select';

interface PurchaseControlsProps {
  purchase: ProductPurchase;
  variant: 'card' | 'detail';
}

/** Variant select (only with more than one variant), quantity, availability and the add button. */
export function PurchaseControls({ purchase, variant }: PurchaseControlsProps) {
  const note = availabilityNote(purchase.selectedVariant);
  return (
    <div className="grid gap-3">
      {purchase.variants.length > 1 && (
        <VariantSelect
          variants={purchase.variants}
          value={purchase.selectedVariant?.id ?? null}
          onChange={purchase.selectVariant}
          disabled={purchase.isPending}
        />
      )}
      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
        <QuantityStepper value={purchase.quantity} onChange={purchase.setQuantity} disabled={purchase.isPending} />
        <p
          data-testid="availability-note"
          className={purchase.isSoldOut ? 'text-sm font-medium text-destructive' : 'text-sm text-muted-foreground'}
        >
          {note}
        </p>
      </div>
      <AddToCartButton purchase={purchase} variant={variant} />
    </div>
  );
}
