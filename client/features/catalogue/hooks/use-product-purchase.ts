import { useState } from 'react';
import type { Product, Variant } from '../../../../common/api';
import { clampQuantity } from '../../../../common/cart';
import { validateAddToCart } from '../../../lib/validate-add-to-cart';
import { toast } from '../../../components/ui/use-toast';
import { useAddToCart } from '../../cart';

export interface ProductPurchase {
  variants: Variant[];
  selectedVariant: Variant | null;
  selectVariant: (variantId: string) => void;
  quantity: number;
  setQuantity: (value: unknown) => void;
  isPending: boolean;
  isSoldOut: boolean;
  /** Detail panel: disabled when sold out, pending, or >1 variant and none chosen. */
  disabled: boolean;
  /** Compact card: also disabled whenever no variant is selected. */
  compactDisabled: boolean;
  add: () => void;
}

/**
 * Variant choice, quantity and the add-to-cart action for one product. The first
 * variant with an id is selected automatically (or `preferredVariantId` when given), and the
 * selection falls back to it if the chosen variant disappears from a refreshed product.
 */
export function useProductPurchase(product: Product, preferredVariantId?: string | null): ProductPurchase {
  const variants = product.variants;
  const [chosenId, setChosenId] = useState<string | null>(null);
  const [quantity, setQuantityState] = useState(1);
  const mutation = useAddToCart();

  const selectedVariant =
    variants.find((v) => v.id && v.id === chosenId) ??
    variants.find((v) => v.id && v.id === preferredVariantId) ??
    variants.find((v) => Boolean(v.id)) ??
    null;
  const isSoldOut = selectedVariant?.isSoldOut ?? false;
  const isPending = mutation.isPending;

  return {
    variants,
    selectedVariant,
    selectVariant: setChosenId,
    quantity,
    setQuantity: (value) => setQuantityState(clampQuantity(value)),
    isPending,
    isSoldOut,
    disabled: isSoldOut || isPending || (variants.length > 1 && !selectedVariant),
    compactDisabled: isSoldOut || isPending || !selectedVariant,
    add: () => {
      const problem = validateAddToCart(selectedVariant, quantity);
      if (problem || !selectedVariant) {
        toast({ title: 'Error', description: problem ?? 'Please select a variant', variant: 'destructive' });
        return;
      }
      mutation.mutate({ variantId: selectedVariant.id, quantity });
    },
  };
}
