import { ChevronDown } from 'lucide-react';
import { useId } from 'react';
import type { Variant } from '../../../../common/api';
import { variantOptionLabel } from '../../../lib/variant-option-label';

interface VariantSelectProps {
  variants: Variant[];
  value: string | null;
  onChange: (variantId: string) => void;
  disabled?: boolean;
}

/** A native select (the phone's own picker) with the spec's option labels; sold-out options disabled. */
export function VariantSelect({ variants, value, onChange, disabled }: VariantSelectProps) {
  const id = useId();
  return (
    <div className="grid gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        Variant
      </label>
      <div className="relative">
        <select
          id={id}
          data-testid="variant-select"
          value={value ?? ''}
          disabled={disabled}
          onChange={(event) => onChange(event.target.value)}
          className="h-11 w-full appearance-none truncate rounded-full border border-input bg-background pr-10 pl-4 text-base focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:opacity-50"
        >
          {value === null && (
            <option value="" disabled>
              Select a variant
            </option>
          )}
          {variants.map((variant) => (
            <option key={variant.id} value={variant.id} disabled={variant.isSoldOut}>
              {variantOptionLabel(variant)}
            </option>
          ))}
        </select>
        <ChevronDown aria-hidden className="pointer-events-none absolute top-1/2 right-3 size-5 -translate-y-1/2 text-muted-foreground" />
      </div>
    </div>
  );
}
