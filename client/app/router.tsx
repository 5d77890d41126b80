import { createElement, lazy, type ComponentType, type ReactElement } from 'react';
import { matchRoutes, useRoutes, type RouteObject } from 'react-router-dom';
import { AppLayout } from './app-layout';

/** A page whose code loads on demand, and a way to load it ahead of its first render. */
interface LazyPage {
  (): ReactElement;
  preload: () => Promise<unknown>;
}

/**
 * A page loaded on demand. Once its code is in (after `preload()`, or its first render, which
 * suspends until then: the layout's Suspense shows 'Loading...' on a first visit, and a navigation
 * keeps the previous page until it arrives) it renders at once, without suspending. That is what
 * lets the browser hydrate a server-rendered product page: main.tsx preloads the page before
 * hydrating, and the server preloads it before rendering (entry-server.tsx).
 */
function lazyPage(load: () => Promise<ComponentType>): LazyPage {
  let loaded: ComponentType | undefined;
  let loading: Promise<ComponentType> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (component) => (loaded = component),
      (err: unknown) => {
        // Not kept: a failed preload (main.tsx's, offline) leaves the page's first render to try
        // again. A failure there shows the layout's error page, whose Reload is the way on
        // (after a release the old file is gone for good).
        loading = undefined;
        throw err;
      },
    ));
  const Suspending = lazy(async () => ({ default: await preload() }));
  const Page = () => createElement(loaded ?? Suspending);
  return Object.assign(Page, { preload });
}

// The pages the server renders (common/shop-render.ts names their modules, whose code it preloads).
const ShopHomePage = lazyPage(async () => (await import('../features/catalogue/routes/shop-home-page')).ShopHomePage);
const ProductPage = lazyPage(async () => (await import('../features/catalogue/routes/product-page')).ProductPage);
const SimpleProductPage = lazyPage(async () => (await import('../features/catalogue/routes/simple-product-page')).SimpleProductPage);
const CartPage = lazyPage(async () => (await import('../features/cart/routes/cart-page')).CartPage);
const OrderConfirmationPage = lazyPage(
  async () => (await import('../features/orders/routes/order-confirmation-page')).OrderConfirmationPage,
);
const OrderShippingPage = lazyPage(async () => (await import('../features/orders/routes/order-shipping-page')).OrderShippingPage);
const NotFoundPage = lazyPage(async () => (await import('../features/layout/routes/not-found-page')).NotFoundPage);
const OrderReceiptPage = lazyPage(async () => (await import('../features/orders/routes/order-receipt-page')).OrderReceiptPage);
const OrdersPage = lazyPage(async () => (await import('../features/orders/routes/orders-page')).OrdersPage);
// None of the admin's code loads with the shop: the frame (login, section tabs) and each section
// load on demand; the payments desk brings the wallet code only for a refund.
const AdminPage = lazyPage(async () => (await import('../features/admin/routes/admin-page')).AdminPage);
const AdminProductsPage = lazyPage(async () => (await import('../features/admin/routes/admin-page')).AdminProductsPage);
const PaymentsPage = lazyPage(async () => (await import('../features/admin/routes/payments-page')).PaymentsPage);
const AdminOrdersPage = lazyPage(async () => (await import('../features/admin/routes/admin-orders-page')).AdminOrdersPage);
const WebhooksPage = lazyPage(async () => (await import('../features/admin/routes/webhooks-page')).WebhooksPage);
const WebhookLogPage = lazyPage(async () => (await import('../features/admin/routes/webhooks-page')).WebhookLogPage);

/** The route's page, to load before it renders (see loadMatchedRoutes). */
const page = (Page: LazyPage) => ({ element: <Page />, handle: Page });

/**
 * The app's routes. Every page's code loads on demand, the home's too: a product page does not
 * carry the home's, and the server preloads the page's chunks beside the entry script. A plain
 * (declarative) router: the shop has no loaders or actions, and the data router's code was a
 * fifth of the first screen's JavaScript. The same routes render the home and the product pages
 * on the server (entry-server.tsx).
 */
const appRoutes: RouteObject[] = [
  {
    element: <AppLayout />,
    children: [
      { index: true, ...page(ShopHomePage) },
      { path: 'product/:id', ...page(ProductPage) },
      { path: 'products/:id', ...page(SimpleProductPage) },
      { path: 'cart', ...page(CartPage) },
      { path: 'order-confirmation', ...page(OrderConfirmationPage) },
      // Reached only when the server could not forward to Shopify's shipping form yet.
      { path: 'orders/:id/shipping', ...page(OrderShippingPage) },
      { path: 'orders/:id/receipt', ...page(OrderReceiptPage) },
      { path: 'orders', ...page(OrdersPage) },
      {
        path: 'admin',
        ...page(AdminPage),
        children: [
          { index: true, ...page(AdminProductsPage) },
          { path: 'payments', ...page(PaymentsPage) },
          { path: 'orders', ...page(AdminOrdersPage) },
          { path: 'webhooks', ...page(WebhooksPage) },
          { path: 'webhooks/:id', ...page(WebhookLogPage) },
        ],
      },
      { path: '*', ...page(NotFoundPage) },
    ],
  },
];

/** The page for the current location, inside the layout; under a BrowserRouter or a StaticRouter. */
export function AppRoutes() {
  return useRoutes(appRoutes);
}

/**
 * Loads the code of the pages matching `pathname` (a product page) before hydrating the server's
 * HTML, or before the server renders it: the page then renders at once, as the server did,
 * instead of suspending (its loading text would not match the server's markup).
 */
export async function loadMatchedRoutes(pathname: string): Promise<void> {
  const matches = matchRoutes(appRoutes, pathname) ?? [];
  await Promise.all(matches.map(({ route }) => (route.handle as LazyPage | undefined)?.preload()));
}
