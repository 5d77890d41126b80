import { Boxes, Receipt, Wallet } from 'lucide-react';
import { NavLink } from 'react-router-dom';
import { cn } from '../../../lib/utils';
import { useUnresolvedCount } from '../api/get-attention';

const tab = ({ isActive }: { isActive: boolean }) =>
  cn(
    'inline-flex h-11 min-w-0 flex-1 items-center justify-center gap-1.5 rounded-full px-2 text-sm font-semibold sm:flex-none sm:px-5',
    // Icons from 640 px: on a phone the three names and the count fill the row.
    'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring [&_svg]:size-5 [&_svg]:shrink-0 max-sm:[&_svg]:hidden',
    isActive ? 'bg-background text-foreground shadow-sm' : 'text-muted-foreground hover:text-foreground',
  );

/**
 * The admin area's sections: Products (the inventory), Payments (the desk, with how many
 * transfers wait for a person) and Orders. The count is read every 30 s and when the tab comes
 * back into focus while the admin area is open.
 */
export function AdminNav() {
  const unresolved = useUnresolvedCount(true);
  return (
    <nav aria-label="Admin" className="mx-auto max-w-7xl px-4 pt-4 sm:px-6" data-testid="admin-nav">
      <div className="flex w-full rounded-full bg-muted p-1 sm:inline-flex sm:w-auto">
        <NavLink to="/admin" end className={tab} data-testid="admin-tab-products">
          <Boxes aria-hidden />
          Products
        </NavLink>
        <NavLink to="/admin/payments" className={tab} data-testid="admin-tab-payments">
          <Wallet aria-hidden />
          Payments
          {unresolved !== undefined && unresolved > 0 && (
            <span
              className="flex h-6 min-w-6 items-center justify-center rounded-full bg-destructive px-1.5 text-xs font-bold text-destructive-foreground tabular-nums"
              data-testid="attention-count"
            >
              {unresolved}
              <span className="sr-only"> need attention</span>
            </span>
          )}
        </NavLink>
        <NavLink to="/admin/orders" className={tab} data-testid="admin-tab-orders">
          <Receipt aria-hidden />
          Orders
        </NavLink>
      </div>
    </nav>
  );
}
