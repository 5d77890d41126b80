import { createBrowserRouter, matchRoutes, type RouteObject } from 'react-router-dom';
import { ShopHomePage } from '../features/catalogue/routes/shop-home-page';
import { NotFoundPage } from '../features/layout/routes/not-found-page';
import { AppLayout } from './app-layout';
import { RouteErrorPage } from './route-error-page';

/** Shown while a lazily loaded page's code arrives on a first visit straight to it. */
function PageLoading() {
  return (
    <p role="status" className="py-16 text-center text-lg text-muted-foreground">
      Loading...
    </p>
  );
}

/**
 * Routes (spec §2). The shop home is in the main bundle (it is the usual first page); the
 * other pages load on demand. The same routes render the home and the product pages on the
 * server (entry-server.tsx).
 */
export const appRoutes: RouteObject[] = [
  {
    element: <AppLayout />,
    children: [
      {
        errorElement: <RouteErrorPage />,
        children: [
          { index: true, element: <ShopHomePage /> },
          {
            path: 'product/:id',
            hydrateFallbackElement: <PageLoading />,
            lazy: async () => ({ Component: (await import('../features/catalogue/routes/product-page')).ProductPage }),
          },
          {
            path: 'products/:id',
            hydrateFallbackElement: <PageLoading />,
            lazy: async () => ({
              Component: (await import('../features/catalogue/routes/simple-product-page')).SimpleProductPage,
            }),
          },
          {
            path: 'cart',
            hydrateFallbackElement: <PageLoading />,
            lazy: async () => ({ Component: (await import('../features/cart/routes/cart-page')).CartPage }),
          },
          {
            path: 'order-confirmation',
            hydrateFallbackElement: <PageLoading />,
            lazy: async () => ({
              Component: (await import('../features/orders/routes/order-confirmation-page')).OrderConfirmationPage,
            }),
          },
          {
            // Reached only when the server could not forward to Shopify's shipping form yet.
            path: 'orders/:id/shipping',
            hydrateFallbackElement: <PageLoading />,
            lazy: async () => ({ Component: (await import('../features/orders/routes/order-shipping-page')).OrderShippingPage }),
          },
          {
            path: 'orders',
            hydrateFallbackElement: <PageLoading />,
            lazy: async () => ({ Component: (await import('../features/orders/routes/orders-page')).OrdersPage }),
          },
          {
            // Lazy: none of the admin's code loads with the shop. The frame (login, section tabs)
            // and each section load on demand; the payments desk brings the wallet code only for a refund.
            path: 'admin',
            hydrateFallbackElement: <PageLoading />,
            lazy: async () => ({ Component: (await import('../features/admin/routes/admin-page')).AdminPage }),
            children: [
              {
                index: true,
                lazy: async () => ({ Component: (await import('../features/admin/routes/admin-page')).AdminProductsPage }),
              },
              {
                path: 'payments',
                lazy: async () => ({ Component: (await import('../features/admin/routes/payments-page')).PaymentsPage }),
              },
              {
                path: 'orders',
                lazy: async () => ({ Component: (await import('../features/admin/routes/admin-orders-page')).AdminOrdersPage }),
              },
            ],
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(appRoutes);
}

/**
 * Loads the code of the lazy routes matching the current URL (a product page) before hydrating
 * the server's HTML: the router then renders the page at once, as the server did, instead of its
 * loading fallback (which would not match the server's markup).
 */
export async function loadMatchedRoutes(location: Pick<Location, 'pathname'>): Promise<void> {
  const matches = matchRoutes(appRoutes, location.pathname) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const loaded = await route.lazy();
      Object.assign(route, loaded, { lazy: undefined });
    }),
  );
}
