import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, errorFromResponse } from '../../../lib/api-client';
import { connectionNeededText } from '../../../lib/online-status';
import { toast } from '../../../components/ui/use-toast';
import { notifyCartUpdated } from '../lib/cart-events';
import type { CartItem } from '../types';
import { applyCartResponse, refreshCart } from './get-cart';

export const REMOVE_FROM_CART_FALLBACK_ERROR = 'Failed to remove item from cart';

/**
 * DELETE /api/cart/{itemId} with the session cookie; answers the whole cart. A failure's
 * message is the server's text (the response body), or the fallback.
 */
export async function removeFromCart(itemId: string): Promise<unknown> {
  let response: Response;
  try {
    response = await apiRequest(`/api/cart/${encodeURIComponent(itemId)}`, { method: 'DELETE' });
  } catch {
    // No answer at all: offline, or the shop out of reach.
    throw new Error(connectionNeededText('change your cart'));
  }
  if (!response.ok) {
    const error = await errorFromResponse(response);
    throw new Error(error.serverMessage?.trim() || error.bodyText.trim() || REMOVE_FROM_CART_FALLBACK_ERROR);
  }
  return response.json().catch(() => null);
}

/** Removes one line, then 'Item Removed' or a destructive 'Error' toast. */
export function useRemoveFromCart() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['cart', 'remove'],
    mutationFn: (item: Pick<CartItem, 'id' | 'title'>) => removeFromCart(item.id),
    onSuccess: async (cart, item) => {
      await applyCartResponse(queryClient, cart);
      notifyCartUpdated();
      toast({ title: 'Item Removed', description: `${item.title} was removed from your cart.` });
    },
    onError: (error) => {
      toast({ title: 'Error', description: error.message || REMOVE_FROM_CART_FALLBACK_ERROR, variant: 'destructive' });
      // The line may already be gone (another tab, an expired session): show what is there now.
      void refreshCart(queryClient);
    },
  });
}
