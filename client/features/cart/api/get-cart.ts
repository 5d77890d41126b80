import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { apiFetch } from '../../../lib/api-client';
import { CART_UPDATED_EVENT } from '../lib/cart-events';
import { isCart } from '../lib/is-cart';
import type { Cart } from '../types';

export const cartQueryKey = ['cart'] as const;

/** The one message a failed cart read shows. */
export const CART_FETCH_ERROR = 'Failed to fetch cart';

/**
 * GET /api/cart with the session cookie, never from a cache. Any failure, including
 * a body that is not a cart, is 'Failed to fetch cart'; the reason stays in `cause`.
 */
export async function getCart(signal?: AbortSignal): Promise<Cart> {
  let body: unknown;
  try {
    body = await apiFetch<unknown>('/api/cart', { cache: 'no-store', signal });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new Error(CART_FETCH_ERROR, { cause });
  }
  if (!isCart(body)) throw new Error(CART_FETCH_ERROR, { cause: 'not a cart' });
  return body;
}

export function cartQueryOptions() {
  return queryOptions({
    queryKey: cartQueryKey,
    queryFn: ({ signal }) => getCart(signal),
    // Never cached: every mount, focus and event reads it again. This is the only
    // query that refetches on focus; the global default stays off.
    staleTime: 0,
    refetchOnWindowFocus: true,
    gcTime: 5 * 60_000,
    // Offline, fail (and show 'Failed to fetch cart' with Try Again) rather than wait silently.
    networkMode: 'always',
  });
}

/** Refetches the cart unless a read is already under way (several listeners share one fetch). */
export function refreshCart(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: cartQueryKey }, { cancelRefetch: false });
}

/**
 * Takes a mutation's answer (the whole cart) into the cache, then refreshes it. A read started
 * before the mutation is cancelled first so its older answer cannot overwrite this one.
 */
export async function applyCartResponse(queryClient: QueryClient, body: unknown): Promise<void> {
  await queryClient.cancelQueries({ queryKey: cartQueryKey });
  if (isCart(body)) queryClient.setQueryData(cartQueryKey, body);
  void refreshCart(queryClient);
}

/** The shopper's cart; also refetched whenever a 'cart-updated' event is fired. */
export function useCart() {
  const queryClient = useQueryClient();
  useEffect(() => {
    const onUpdated = () => void refreshCart(queryClient);
    window.addEventListener(CART_UPDATED_EVENT, onUpdated);
    return () => window.removeEventListener(CART_UPDATED_EVENT, onUpdated);
  }, [queryClient]);
  return useQuery(cartQueryOptions());
}

/** 'Cart (n)': the number of lines (items.length), 0 until the cart is known. */
export function cartItemCount(cart: Cart | undefined): number {
  return cart?.items.length ?? 0;
}
