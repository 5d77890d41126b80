import { cva, type VariantProps } from 'class-variance-authority';
import type { HTMLAttributes } from 'react';
import { cn } from '../../lib/utils';

/** The placeholder's corners: a variant, since `cn` does not let a caller's rounded-* replace these. */
export const skeletonVariants = cva('bg-muted motion-safe:animate-pulse', {
  variants: { shape: { block: 'rounded-xl', pill: 'rounded-full', cap: 'rounded-(--radius-cap)', square: 'rounded-none' } },
  defaultVariants: { shape: 'block' },
});

export function Skeleton({ className, shape, ...props }: HTMLAttributes<HTMLDivElement> & VariantProps<typeof skeletonVariants>) {
  return <div aria-hidden className={cn(skeletonVariants({ shape }), className)} {...props} />;
}
