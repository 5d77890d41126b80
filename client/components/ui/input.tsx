import { forwardRef, type InputHTMLAttributes } from 'react';
import { cn } from '../../lib/utils';

/** A text field with a 44 px touch target; 16 px text so phones do not zoom in on focus. */
export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(function Input({ className, ...props }, ref) {
  return (
    <input
      ref={ref}
      className={cn(
        'h-11 w-full min-w-0 rounded-xl border border-input bg-background px-3 text-base text-foreground placeholder:text-muted-foreground',
        'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring disabled:cursor-not-allowed disabled:bg-muted disabled:text-muted-foreground',
        className,
      )}
      {...props}
    />
  );
});
