import { useCallback, useEffect, useState } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router-dom';
import { CartDrawer, cartItemCount, OPEN_CART_EVENT, useCart } from '../features/cart';
import { useShopNames } from '../features/catalogue';
import { SiteHeader } from '../features/layout/components/site-header';

/**
 * Header, the current page (fades/slides in over 0.3 s; reduced motion: no animation) and the
 * cart drawer, mounted once here and opened by the header's cart button or the 'open-cart' event.
 */
export function AppLayout() {
  const { shopName } = useShopNames();
  const { data: cart } = useCart();
  const location = useLocation();
  const [cartOpen, setCartOpen] = useState(false);
  const toggleCart = useCallback(() => setCartOpen((open) => !open), []);

  useEffect(() => {
    const open = () => setCartOpen(true);
    window.addEventListener(OPEN_CART_EVENT, open);
    return () => window.removeEventListener(OPEN_CART_EVENT, open);
  }, []);

  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-full bg-brand px-4 py-2 text-brand-foreground focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <SiteHeader shopName={shopName} cartCount={cartItemCount(cart)} cartOpen={cartOpen} onCartClick={toggleCart} />
      <main id="main" tabIndex={-1} className="flex-1 outline-none">
        <div key={location.pathname} data-testid="page" className="motion-safe:animate-page-in">
          <Outlet />
        </div>
      </main>
      <CartDrawer open={cartOpen} onOpenChange={setCartOpen} />
      {/* Fresh page loads all have the key 'default'; key those by path so one page's scroll
          position is not applied to another. */}
      <ScrollRestoration getKey={(loc) => (loc.key === 'default' ? loc.pathname : loc.key)} />
    </div>
  );
}
