import { useCallback, useEffect, useMemo, useState } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router-dom';
import { CartDrawer, cartItemCount, OPEN_CART_EVENT, useCart, type CartDrawerWallet } from '../features/cart';
import { useConfig, useShopNames } from '../features/catalogue';
import { SiteHeader } from '../features/layout/components/site-header';
import { toWalletConfig, useWallet, WalletButton, WalletProvider } from '../features/wallet';

/** The wallet session around the layout (it needs the public config: WalletConnect, Demo Wallet). */
export function AppLayout() {
  const { data: config, isError } = useConfig();
  const walletConfig = useMemo(() => toWalletConfig(config, isError), [config, isError]);
  return (
    <WalletProvider config={walletConfig}>
      <AppShell />
    </WalletProvider>
  );
}

/**
 * Header, the current page (fades/slides in over 0.3 s; reduced motion: no animation) and the
 * cart drawer, mounted once here and opened by the header's cart button or the 'open-cart' event.
 */
function AppShell() {
  const { shopName } = useShopNames();
  const { data: cart } = useCart();
  const location = useLocation();
  const [cartOpen, setCartOpen] = useState(false);
  const toggleCart = useCallback(() => setCartOpen((open) => !open), []);
  const wallet = useWallet();
  const { setChooserOpen } = wallet;
  const walletConnected = wallet.status === 'connected' && wallet.provider !== null;
  const cartWallet = useMemo<CartDrawerWallet>(
    () => ({ connected: walletConnected, openChooser: () => setChooserOpen(true) }),
    [walletConnected, setChooserOpen],
  );

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
      <SiteHeader
        shopName={shopName}
        cartCount={cartItemCount(cart)}
        cartOpen={cartOpen}
        onCartClick={toggleCart}
        walletControl={<WalletButton />}
      />
      <main id="main" tabIndex={-1} className="flex-1 outline-none">
        <div key={location.pathname} data-testid="page" className="motion-safe:animate-page-in">
          <Outlet />
        </div>
      </main>
      {/* onPay: the checkout release plugs the payment in here (default: 'Checkout is not available yet'). */}
      <CartDrawer open={cartOpen} onOpenChange={setCartOpen} wallet={cartWallet} />
      {/* Fresh page loads all have the key 'default'; key those by path so one page's scroll
          position is not applied to another. */}
      <ScrollRestoration getKey={(loc) => (loc.key === 'default' ? loc.pathname : loc.key)} />
    </div>
  );
}
