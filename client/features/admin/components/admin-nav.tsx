import { Boxes, Receipt, Wallet, Webhook } from 'lucide-react';
import { NavLink } from 'react-router-dom';
import { cn } from '../../../lib/utils';
import { useUnresolvedCount } from '../api/get-attention';
import { useFailingWebhookCount } from '../api/webhooks';

const tab = ({ isActive }: { isActive: boolean }) =>
  cn(
    'inline-flex h-11 min-w-0 flex-1 items-center justify-center gap-1 rounded-full px-1 text-[0.8125rem] font-semibold sm:flex-none sm:gap-1.5 sm:px-5 sm:text-sm',
    // Icons from 640 px: on a phone the four names and the counts fill the row.
    'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring [&_svg]:size-5 [&_svg]:shrink-0 max-sm:[&_svg]:hidden',
    isActive ? 'bg-background text-foreground shadow-sm' : 'text-muted-foreground hover:text-foreground',
  );

const count =
  'flex h-6 min-w-6 items-center justify-center rounded-full bg-destructive px-1.5 text-xs font-bold text-destructive-foreground tabular-nums';

/**
 * The admin area's sections: Products (the inventory), Payments (the desk, with how many
 * transfers wait for a person), Orders and Webhooks (with how many endpoints the shop stopped
 * sending to because they kept failing). The desk's count is read every 30 s, the endpoints every
 * minute, and both when the tab comes back into focus while the admin area is open.
 */
export function AdminNav() {
  const unresolved = useUnresolvedCount(true);
  const failingWebhooks = useFailingWebhookCount();
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
            <span className={count} data-testid="attention-count">
              {unresolved}
              <span className="sr-only"> need attention</span>
            </span>
          )}
        </NavLink>
        <NavLink to="/admin/orders" className={tab} data-testid="admin-tab-orders">
          <Receipt aria-hidden />
          Orders
        </NavLink>
        <NavLink to="/admin/webhooks" className={tab} data-testid="admin-tab-webhooks">
          <Webhook aria-hidden />
          Webhooks
          {failingWebhooks > 0 && (
            <span className={count} data-testid="webhooks-failing-count">
              {failingWebhooks}
              <span className="sr-only"> disabled after failing</span>
            </span>
          )}
        </NavLink>
      </div>
    </nav>
  );
}
