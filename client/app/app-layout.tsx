import { Outlet, ScrollRestoration, useLocation } from 'react-router-dom';
import { useCart } from '../features/cart';
import { useShopNames } from '../features/catalogue';
import { SiteHeader } from '../features/layout/components/site-header';

/** Header plus the current page, which fades/slides in over 0.3 s (reduced motion: no animation). */
export function AppLayout() {
  const { shopName } = useShopNames();
  const { itemCount } = useCart();
  const location = useLocation();
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-full bg-brand px-4 py-2 text-brand-foreground focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <SiteHeader shopName={shopName} cartCount={itemCount} />
      <main id="main" tabIndex={-1} className="flex-1 outline-none">
        <div key={location.pathname} data-testid="page" className="motion-safe:animate-page-in">
          <Outlet />
        </div>
      </main>
      {/* Fresh page loads all have the key 'default'; key those by path so one page's scroll
          position is not applied to another. */}
      <ScrollRestoration getKey={(loc) => (loc.key === 'default' ? loc.pathname : loc.key)} />
    </div>
  );
}
