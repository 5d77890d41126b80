import { cva, type VariantProps } from 'class-variance-authority';
import type { HTMLAttributes } from 'react';
import { cn } from '../../lib/utils';

export const badgeVariants = cva('inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-bold whitespace-nowrap', {
  variants: {
    variant: {
      default: 'border-transparent bg-brand text-brand-foreground',
      secondary: 'border-transparent bg-muted text-foreground',
      outline: 'border-border text-foreground',
      success: 'border-green-200 bg-green-100 text-green-800',
      warning: 'border-yellow-200 bg-yellow-100 text-yellow-900',
      destructive: 'border-transparent bg-destructive text-destructive-foreground',
    },
  },
  defaultVariants: { variant: 'default' },
});

export interface BadgeProps extends HTMLAttributes<HTMLSpanElement>, VariantProps<typeof badgeVariants> {}

export function Badge({ className, variant, ...props }: BadgeProps) {
  return <span className={cn(badgeVariants({ variant }), className)} {...props} />;
}
