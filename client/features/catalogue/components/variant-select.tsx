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

const PLACEHOLDER = 'Select a variant';

/**
 * A native select (the phone's own picker) with variantOptionLabel's labels; sold-out options
 * disabled. A closed native select shows one line and cuts the label's end (" - SOLD OUT",
 * " - 3 left") on a phone or a 4-column card, so the select is laid transparent over a box that
 * shows the chosen label whole, wrapping onto a second line when it must. The select stays the
 * control: it takes the taps, the focus and the keyboard, and is what assistive technology reads.
 */
export function VariantSelect({ variants, value, onChange, disabled }: VariantSelectProps) {
  const id = useId();
  const selected = variants.find((variant) => variant.id === value);
  const shown = selected ? variantOptionLabel(selected) : PLACEHOLDER;
  return (
    <div className="grid gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        Variant
      </label>
      <div
        className={
          'relative flex min-h-11 items-center rounded-[1.375rem] border border-input bg-background py-2 pr-10 pl-4 ' +
          'has-[select:focus-visible]:outline-2 has-[select:focus-visible]:outline-offset-2 has-[select:focus-visible]:outline-ring ' +
          'has-[select:disabled]:opacity-50'
        }
      >
        <span aria-hidden data-testid="variant-select-label" className="min-w-0 text-base leading-snug break-words">
          {shown}
        </span>
        <select
          id={id}
          data-testid="variant-select"
          value={value ?? ''}
          disabled={disabled}
          onChange={(event) => onChange(event.target.value)}
          className="absolute inset-0 size-full cursor-pointer appearance-none rounded-[1.375rem] text-base opacity-0 disabled:cursor-not-allowed"
        >
          {value === null && (
            <option value="" disabled>
              {PLACEHOLDER}
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
