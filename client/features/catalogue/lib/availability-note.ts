import type { Variant } from '../../../../common/api';

/** The short availability line under a product's controls. */
export function availabilityNote(variant: Pick<Variant, 'isSoldOut' | 'availableStock'> | null): string {
  if (!variant) return 'Choose a variant to see availability';
  if (variant.isSoldOut) return 'This variant is sold out';
  if (variant.availableStock > 0) return `${variant.availableStock} in stock`;
  return 'Available to order';
}
