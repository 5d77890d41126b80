import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AddToCartRequest } from '../../../../common/api';
import { apiRequest, errorFromResponse } from '../../../lib/api-client';
import { connectionNeededText } from '../../../lib/online-status';
import { preloadToaster } from '../../../components/ui/lazy-toaster';
import { toast, whenToastShown } from '../../../components/ui/use-toast';
import { preloadCartDrawer } from '../components/lazy-cart-drawer';
import { notifyCartUpdated, openCart } from '../lib/cart-events';
import { applyCartResponse } from './get-cart';

export const ADD_TO_CART_FALLBACK_ERROR = 'Failed to add item to cart';
/** The request got no answer: the shopper is offline (or the shop out of reach). */
export const ADD_TO_CART_OFFLINE_ERROR = connectionNeededText('add to your cart');

/**
 * POST /api/cart/add with the session cookie; answers the whole cart. A failure's message is
 * the server's text (its `message` when the body is `{ code, message }` JSON, else the raw
 * body), or 'Failed to add item to cart' when the body is empty. No answer at all
 * (offline) says a connection is needed.
 */
export async function addToCart(variantId: string, quantity: number): Promise<unknown> {
  let response: Response;
  try {
    response = await apiRequest('/api/cart/add', { method: 'POST', json: { variantId, quantity } satisfies AddToCartRequest });
  } catch {
    throw new Error(ADD_TO_CART_OFFLINE_ERROR);
  }
  if (!response.ok) {
    const error = await errorFromResponse(response);
    throw new Error(error.serverMessage?.trim() || error.bodyText.trim() || ADD_TO_CART_FALLBACK_ERROR);
  }
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The add-to-cart mutation: on success 'Added to cart' and the drawer opens; on failure an 'Error' toast. */
export function useAddToCart() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['cart', 'add'],
    mutationFn: ({ variantId, quantity }: AddToCartRequest) => addToCart(variantId, quantity),
    // Both answers open the drawer or show a toast: fetch their code while the request runs.
    onMutate: () => {
      void preloadCartDrawer();
      void preloadToaster();
    },
    onSuccess: async (cart, { quantity }) => {
      await applyCartResponse(queryClient, cart);
      // Both in hand before either shows.
      // The item is in the cart either way: a chunk that fails to load must not turn this into an error.
      await Promise.all([preloadCartDrawer(), preloadToaster()]).catch(() => undefined);
      notifyCartUpdated();
      const { id } = toast({ title: 'Added to cart', description: `Added ${quantity} item(s) to your cart.` });
      // The toast's layer is on the page before the drawer's opens above it, so Escape closes the
      // drawer (the modal one) first, however late the toast area arrived.
      await whenToastShown(id);
      openCart();
    },
    onError: (error) => {
      const offline = error.message === ADD_TO_CART_OFFLINE_ERROR;
      toast({
        title: offline ? 'No connection' : 'Error',
        description: error.message || ADD_TO_CART_FALLBACK_ERROR,
        variant: 'destructive',
      });
    },
  });
}
