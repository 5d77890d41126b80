import { cva } from 'class-variance-authority';

/**
 * The header's round controls (44 px touch target; icon-only on phones, with the label from 640 px
 * up): Orders, Admin, the wallet control and the cart button share it. The colours are a variant
 * and the side padding is each caller's (`cn` does not resolve conflicting utilities, so the base
 * sets neither).
 */
export const navItem = cva(
  'relative inline-flex h-11 min-w-11 items-center justify-center gap-1.5 rounded-full text-sm font-semibold ' +
    'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring [&_svg]:size-5 [&_svg]:shrink-0',
  {
    variants: {
      tone: {
        plain: 'text-foreground hover:bg-muted',
        /** The link to the page that is open. */
        active: 'text-brand hover:bg-muted',
        muted: 'text-muted-foreground hover:bg-muted',
        soft: 'bg-brand-soft text-brand hover:bg-brand-soft/70',
        brand: 'bg-brand text-brand-foreground hover:bg-brand-hover',
      },
    },
    defaultVariants: { tone: 'plain' },
  },
);
