import { ShoppingCart } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../../../lib/utils';

/**
 * 'Your cart is empty', as the drawer and the /cart page show it; `children` is the way back.
 * `titleClassName` replaces the title's own classes (font-semibold), rather than fight them.
 */
export function CartEmpty({ children, className, titleClassName }: { children: ReactNode; className?: string; titleClassName?: string }) {
  return (
    <div className={cn('grid justify-items-center gap-3 text-center', className)}>
      <span className="flex size-16 items-center justify-center rounded-full bg-brand-soft text-brand">
        <ShoppingCart aria-hidden className="size-8" />
      </span>
      <p className={titleClassName ?? 'font-semibold'} data-testid="cart-empty">
        Your cart is empty
      </p>
      {children}
    </div>
  );
}
