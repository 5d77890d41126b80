import { Minus, Plus } from 'lucide-react';
import { useId, useState } from 'react';
import { MAX_QUANTITY, MIN_QUANTITY } from '../../../../common/cart';
import { Button } from '../../../components/ui/button';

interface QuantityStepperProps {
  value: number;
  /** Receives raw input; the owner clamps it (1..10, non-numeric → 1). */
  onChange: (value: unknown) => void;
  disabled?: boolean;
}

/**
 * Quantity 1..10: minus disabled at 1, plus at 10; typed input is clamped as it is
 * typed, except that an emptied field may stay empty while focused and becomes 1 on blur.
 */
export function QuantityStepper({ value, onChange, disabled }: QuantityStepperProps) {
  const id = useId();
  const [draft, setDraft] = useState<string | null>(null);
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm font-medium">
        Qty
      </label>
      <div className="flex items-center rounded-full border border-input">
        <Button
          variant="ghost"
          size="icon"
          data-testid="qty-minus"
          aria-label="Decrease quantity"
          disabled={disabled || value <= MIN_QUANTITY}
          onClick={() => onChange(value - 1)}
        >
          <Minus aria-hidden />
        </Button>
        <input
          id={id}
          data-testid="qty-input"
          type="text"
          inputMode="numeric"
          pattern="[0-9]*"
          autoComplete="off"
          aria-describedby={`${id}-range`}
          disabled={disabled}
          value={draft ?? String(value)}
          onChange={(event) => {
            const raw = event.target.value;
            if (raw.trim() === '') {
              setDraft('');
              return;
            }
            setDraft(null);
            onChange(raw);
          }}
          onBlur={() => {
            if (draft !== null) {
              setDraft(null);
              onChange(draft);
            }
          }}
          className="h-11 w-10 bg-transparent text-center text-base font-semibold tabular-nums focus-visible:outline-2 focus-visible:outline-ring"
        />
        <span id={`${id}-range`} className="sr-only">
          From {MIN_QUANTITY} to {MAX_QUANTITY}
        </span>
        <Button
          variant="ghost"
          size="icon"
          data-testid="qty-plus"
          aria-label="Increase quantity"
          disabled={disabled || value >= MAX_QUANTITY}
          onClick={() => onChange(value + 1)}
        >
          <Plus aria-hidden />
        </Button>
      </div>
    </div>
  );
}
