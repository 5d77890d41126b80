import { Receipt, ShoppingCart, UserCog } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { navItem } from '../../../components/ui/nav-item';
import { useScreenEdge } from '../../../lib/screen-edges';
import { cn } from '../../../lib/utils';
import { CapLogo } from './cap-logo';

interface SiteHeaderProps {
  shopName: string;
  cartCount: number;
  /** Whether the cart drawer is open (the cart button toggles it). */
  cartOpen: boolean;
  onCartClick: () => void;
  /** The wallet connect / address / disconnect control (the wallet feature's, composed by app/). */
  walletControl: ReactNode;
}

/**
 * Sticky header: store name home link, wallet control, Orders, Admin, and 'Cart (n)'
 * (n = cart lines), which opens and closes the cart drawer; its badge shows when n > 0.
 * Below 640 px Orders and Admin show icons only (their names stay for assistive technology),
 * while the wallet control keeps a visible 'Connect' and the cart its visible 'Cart (n)', the
 * count badge on the button's corner, clear of the icon. So the store name fits, the cap logo shows only from 430 px (from
 * 768 px once the wallet shows its address), below 768 px the name may take two lines (it is
 * never cut while a word of it fits), below 400 px a connected header sets it one size smaller,
 * and below 380 px the cart button drops its icon ('Cart (n)' says what it is).
 */
export function SiteHeader({ shopName, cartCount, cartOpen, onCartClick, walletControl }: SiteHeaderProps) {
  // Toasts show below it on phones (lib/screen-edges.ts); an installed app's status bar stays above it.
  const edgeRef = useScreenEdge('top');
  return (
    <header
      ref={edgeRef}
      className="group/header sticky top-0 z-40 border-b print:hidden border-border bg-background/95 pt-[env(safe-area-inset-top)] backdrop-blur supports-[backdrop-filter]:bg-background/80"
    >
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-1 px-1.5 sm:gap-2 sm:px-6 lg:px-8">
        <Link
          to="/"
          data-testid="home-link"
          className="inline-flex h-11 min-w-0 items-center gap-2 rounded-full px-1.5 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        >
          <CapLogo className="hidden size-8 shrink-0 min-[430px]:block max-md:group-has-[[data-wallet-connected]]/header:hidden" />
          <span
            data-testid="store-name"
            className="line-clamp-2 text-lg leading-[1.1] font-black tracking-tight md:line-clamp-1 md:leading-tight max-[400px]:group-has-[[data-wallet-connected]]/header:text-base"
          >
            {shopName}
          </span>
        </Link>

        <nav aria-label="Main" className="flex shrink-0 items-center gap-0.5 sm:gap-1">
          {walletControl}
          <NavLink
            to="/orders"
            className={({ isActive }) => cn(navItem({ tone: isActive ? 'active' : 'plain' }), 'sm:px-3')}
            data-testid="orders-link"
          >
            <Receipt aria-hidden />
            <span className="sr-only sm:not-sr-only">Orders</span>
          </NavLink>
          <NavLink
            to="/admin"
            className={({ isActive }) => cn(navItem({ tone: isActive ? 'active' : 'plain' }), 'sm:px-3')}
            data-testid="admin-link"
          >
            <UserCog aria-hidden />
            <span className="sr-only sm:not-sr-only">Admin</span>
          </NavLink>
          <button
            type="button"
            data-testid="cart-button"
            data-cart-toggle=""
            aria-haspopup="dialog"
            aria-expanded={cartOpen}
            aria-controls={cartOpen ? 'cart-drawer' : undefined}
            onClick={onCartClick}
            className={cn(navItem({ tone: 'brand' }), 'ml-0.5 px-3 sm:px-4')}
          >
            <ShoppingCart aria-hidden data-testid="cart-icon" className="max-[379px]:hidden" />
            <span data-testid="cart-label" className="whitespace-nowrap">
              Cart (<span data-testid="cart-count">{cartCount}</span>)
            </span>
            {/* On the button's top-right corner, clear of both the icon and 'Cart (n)'. */}
            {cartCount > 0 && (
              <span
                data-testid="cart-badge"
                aria-hidden
                className="absolute -top-2 -right-1.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-sale px-1 text-xs font-bold text-sale-foreground ring-2 ring-background"
              >
                {cartCount}
              </span>
            )}
          </button>
        </nav>
      </div>
    </header>
  );
}
