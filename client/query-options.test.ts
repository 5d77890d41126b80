// The shop's reads as their options resolve in the app's query client: fresh for 30 s, no
// polling, no retries, and no read again when the shopper comes back to the tab, except the cart.
// Queries the product's list of reads does not have (a checkout's status, the admin's live
// panels) may choose otherwise, each saying why beside its options.
import { describe, expect, it } from 'vitest';
import { adminProductsQueryOptions } from './features/admin/api/get-admin-products';
import { cartQueryOptions } from './features/cart/api/get-cart';
import { cataloguePagesQueryOptions } from './features/catalogue/api/get-catalogue-page';
import { productQueryOptions } from './features/catalogue/api/get-product';
import { orderQueryOptions } from './features/orders/api/get-order';
import { orderHistoryQueryOptions } from './features/orders/api/get-orders';
import { DEFAULT_CATALOGUE_FILTER } from '../common/catalogue-view';
import { createQueryClient } from './lib/query-client';

const WALLET = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

describe("the shop's reads", () => {
  const client = createQueryClient();
  const resolved = (options: object) => client.defaultQueryOptions(options as Parameters<typeof client.defaultQueryOptions>[0]);
  const reads = {
    'GET /api/catalogue/products (the products)': cataloguePagesQueryOptions(DEFAULT_CATALOGUE_FILTER),
    'GET /api/products/:id': productQueryOptions('1'),
    'GET /api/cart': cartQueryOptions(),
    'GET /api/orders?wallet=': orderHistoryQueryOptions(WALLET),
    'GET /api/orders/:id': orderQueryOptions('PG0000000000'),
    'GET /api/admin/products (the inventory)': adminProductsQueryOptions({ q: '', status: 'all' }),
  };

  it('are not read again on focus, the cart alone excepted', () => {
    const onFocus = Object.fromEntries(Object.entries(reads).map(([name, options]) => [name, resolved(options).refetchOnWindowFocus]));
    expect(onFocus).toEqual(Object.fromEntries(Object.keys(reads).map((name) => [name, name === 'GET /api/cart'])));
  });

  it('are not retried and not polled', () => {
    for (const [name, options] of Object.entries(reads)) {
      const o = resolved(options);
      expect(o.retry, name).toBe(false);
      expect(o.refetchInterval ?? false, name).toBe(false);
    }
  });

  it('are fresh for 30 s unless the read says otherwise', () => {
    expect(resolved(reads['GET /api/orders?wallet=']).staleTime).toBe(30_000);
    expect(resolved(reads['GET /api/cart']).staleTime).toBe(0);
  });
});
