import { cva, type VariantProps } from 'class-variance-authority';
import { forwardRef, type ButtonHTMLAttributes } from 'react';
import { cn } from '../../lib/utils';

/**
 * Every property is set by one variant only (`cn` does not resolve conflicting utilities): a
 * caller's className may add layout (width, margins, position) but not change the colours, height,
 * padding, wrapping or disabled look; those are variants.
 */
export const buttonVariants = cva(
  'inline-flex shrink-0 items-center justify-center gap-2 rounded-full font-semibold transition-colors ' +
    'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring ' +
    'disabled:pointer-events-none [&_svg]:pointer-events-none [&_svg]:size-5 [&_svg]:shrink-0',
  {
    variants: {
      variant: {
        default: 'bg-brand text-brand-foreground hover:bg-brand-hover',
        destructive: 'bg-destructive text-destructive-foreground hover:bg-destructive-hover',
        outline: 'border border-input bg-background text-foreground hover:bg-muted',
        /** An outline button for a destructive step (Disconnect), filled red on hover. */
        'outline-destructive':
          'border border-destructive/50 bg-background text-destructive hover:bg-destructive hover:text-destructive-foreground',
        /** An outline button laid over a picture (a carousel's arrows): its background lets a little through. */
        overlay: 'border border-input bg-background/90 text-foreground hover:bg-muted',
        secondary: 'bg-muted text-foreground hover:bg-border',
        ghost: 'text-foreground hover:bg-muted',
        /** A quiet icon button that removes something (a cart line's bin): red only on hover. */
        'ghost-destructive': 'text-muted-foreground hover:bg-destructive/10 hover:text-destructive',
        link: 'text-brand underline-offset-4 hover:underline',
      },
      size: {
        // Every size keeps a 44 px touch target; 'sm' is only tighter sideways.
        default: 'h-11 px-5 text-base whitespace-nowrap',
        sm: 'h-11 px-3 text-sm whitespace-nowrap',
        lg: 'h-12 px-7 text-base whitespace-nowrap',
        icon: 'size-11 whitespace-nowrap',
        // Full width, growing in height when a long label wraps (at least 44 or 48 px).
        block: 'min-h-11 w-full px-4 py-2 text-center text-base whitespace-normal',
        'block-lg': 'min-h-12 w-full px-4 py-2 text-center text-base whitespace-normal',
      },
      /**
       * Unavailable is grey text (on grey for the filled variants): a faded colour would leave white
       * on pale violet, below the 4.5:1 contrast text needs. Busy is not unavailable: a button
       * disabled while its step runs keeps its colours at (almost) full strength (white on 85 %
       * violet is 5.3:1).
       */
      busy: { false: 'disabled:text-muted-foreground', true: 'disabled:opacity-85' },
    },
    compoundVariants: [
      { busy: false, variant: ['default', 'destructive'], class: 'disabled:bg-muted' },
      { busy: false, variant: ['outline-destructive'], class: 'disabled:border-input' },
    ],
    defaultVariants: { variant: 'default', size: 'default', busy: false },
  },
);

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement>, VariantProps<typeof buttonVariants> {}

/** The shop's button (shadcn vocabulary: variants default/destructive/outline/secondary/ghost/link). */
export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { className, variant, size, busy, type = 'button', ...props },
  ref,
) {
  return <button ref={ref} type={type} className={cn(buttonVariants({ variant, size, busy }), className)} {...props} />;
});
