import { PackageX } from 'lucide-react';
import type { Order } from '../../../../common/api';
import { cn } from '../../../lib/utils';

/**
 * An order the shop holds instead of shipping (its payment arrived after the items were gone):
 * said plainly, with what happens next, wherever the order is shown.
 */
export function OrderHoldNotice({ hold, className }: { hold: NonNullable<Order['hold']>; className?: string }) {
  return (
    <div
      role="note"
      data-testid="order-hold"
      className={cn('grid gap-1 rounded-2xl border border-amber-300 bg-amber-50 p-3 text-sm', className)}
    >
      <p className="flex items-center gap-2 font-bold">
        <PackageX aria-hidden className="size-5 shrink-0 text-amber-700" />
        On hold: sold out before your payment arrived
      </p>
      <p>{hold.message}</p>
    </div>
  );
}
