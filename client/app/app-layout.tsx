import { useQueryClient } from '@tanstack/react-query';
import type { PayWith } from '../../common/swap-pay';
import { Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { ToastSpace } from '../components/ui/toast-space';
import { useSignOutOnWalletChange } from '../features/auth';
import {
  CartDrawer,
  cartItemCount,
  notifyCartUpdated,
  refreshCart,
  OPEN_CART_EVENT,
  useCart,
  type CartDrawerWallet,
  type PayHandler,
} from '../features/cart';
import { CheckoutProvider, useCheckout } from '../features/checkout';
import { LazyInstallPrompt, OfflineNotice, SiteHeader } from '../features/layout';
import { clearOrderHistory } from '../features/orders';
import { toWalletConfig, useWallet, WalletButton, WalletProvider } from '../features/wallet';
import { useConfig, useShopNames } from '../lib/public-config';
import { useOnServerRenderedPage } from '../lib/server-rendered';
import { useScrollRestoration } from '../lib/use-scroll-restoration';
import { RouteErrorBoundary } from './route-error-page';

/** Until the config is known the shop takes POGS only (one array, so the payment's callbacks stay the same). */
const NO_OTHER_COINS: readonly PayWith[] = [];

/**
 * The wallet session and the payment around the layout (they need the public config: WalletConnect,
 * Demo Wallet, Base's RPC and explorer). The payment's state lives here, above the cart drawer.
 */
export function AppLayout() {
  const { data: config, isError } = useConfig();
  const walletConfig = useMemo(() => toWalletConfig(config, isError), [config, isError]);
  const network = useMemo(
    () => (walletConfig ? { rpcUrl: walletConfig.chainRpcUrl, explorerUrl: walletConfig.explorerUrl } : null),
    [walletConfig],
  );
  const queryClient = useQueryClient();
  // After an order the server has emptied the cart: every reader refetches.
  const refreshAfterOrder = useCallback(() => {
    notifyCartUpdated();
    return refreshCart(queryClient);
  }, [queryClient]);
  return (
    <WalletProvider config={walletConfig}>
      <CheckoutProvider
        network={network}
        gasPaidByShop={config?.gasPaidByShop === true}
        payWith={config?.payWith ?? NO_OTHER_COINS}
        refreshCart={refreshAfterOrder}
      >
        <AppShell />
      </CheckoutProvider>
    </WalletProvider>
  );
}

/**
 * Header, the current page (fades/slides in over 0.3 s; reduced motion: no animation) and the
 * cart drawer, opened by the header's cart button or the 'open-cart' event (its code loads on the
 * first opening, see the cart feature's lazy-cart-drawer.tsx).
 */
function AppShell() {
  const { shopName } = useShopNames();
  const { data: cart } = useCart();
  const location = useLocation();
  const fromServer = useOnServerRenderedPage();
  useScrollRestoration();
  const [cartOpen, setCartOpen] = useState(false);
  const toggleCart = useCallback(() => setCartOpen((open) => !open), []);
  const wallet = useWallet();
  const { setChooserOpen, address, provider } = wallet;
  const walletConnected = wallet.status === 'connected' && provider !== null && address !== null;
  const cartWallet = useMemo<CartDrawerWallet>(
    () => ({ connected: walletConnected, openChooser: () => setChooserOpen(true) }),
    [walletConnected, setChooserOpen],
  );
  // Another account or a disconnect ends the order history's sign-in, and its data leaves the cache.
  const queryClient = useQueryClient();
  const forgetOrders = useCallback(() => clearOrderHistory(queryClient), [queryClient]);
  useSignOutOnWalletChange(wallet.status === 'connected' ? address : null, forgetOrders);
  const checkout = useCheckout();
  const { pay } = checkout;
  const onPay = useCallback<PayHandler>(
    (cart) => {
      if (walletConnected) pay(cart, { address, provider });
    },
    [walletConnected, pay, address, provider],
  );

  // The drawer's pay button is a tap away: fetch the payment's code now.
  const { prepare: preparePayment } = checkout;
  useEffect(() => {
    if (cartOpen) preparePayment();
  }, [cartOpen, preparePayment]);

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
      <ToastSpace />
      <OfflineNotice />
      <main id="main" tabIndex={-1} className="flex-1 outline-none">
        {/* Moving to a page fades it in; the page a visit starts on, when the server rendered it,
            shows as it arrived (it is the first paint, and its largest text). */}
        <RouteErrorBoundary pathname={location.pathname}>
          {/* A page's code arrives on its first visit: 'Loading...' on a fresh load, the previous
              page kept meanwhile when navigating (the router's updates are transitions). */}
          <Suspense fallback={<PageLoading />}>
            <div key={location.pathname} data-testid="page" className={fromServer ? undefined : 'motion-safe:animate-page-in'}>
              <Outlet />
            </div>
          </Suspense>
        </RouteErrorBoundary>
      </main>
      <LazyInstallPrompt />
      <CartDrawer
        open={cartOpen}
        onOpenChange={setCartOpen}
        wallet={cartWallet}
        onPay={onPay}
        progress={checkout.progress}
        onPayElsewhere={checkout.payElsewhere}
      />
    </div>
  );
}

/** Shown while a page's code arrives on a first visit straight to it. */
function PageLoading() {
  return (
    <p role="status" className="py-16 text-center text-lg text-muted-foreground">
      Loading...
    </p>
  );
}
