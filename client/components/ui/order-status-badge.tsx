import { orderStatusStyle } from '../../lib/order-status';
import { cn } from '../../lib/utils';

/** An order's status as a badge (coloured, and in words): the orders pages and the admin's orders view. */
export function OrderStatusBadge({ status, className }: { status: string; className?: string }) {
  const { label, className: colours } = orderStatusStyle(status);
  return (
    <span
      data-testid="order-status"
      data-status={status}
      className={cn(
        'inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-bold tracking-wide uppercase',
        colours,
        className,
      )}
    >
      {label}
    </span>
  );
}
