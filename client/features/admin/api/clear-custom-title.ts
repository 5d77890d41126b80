import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../../components/ui/use-toast';
import { apiFetch } from '../../../lib/api-client';
import { adminErrorText, answerMessage } from './admin-errors';
import { refreshAfterAdminWrite } from './admin-cache';
import { handleAdminSessionLoss } from './admin-session';
import { customTitlePath, type TitledProduct } from './set-custom-title';

/** DELETE the custom title: shoppers see Shopify's title again. */
export async function clearCustomTitle(product: TitledProduct): Promise<string | null> {
  return answerMessage(await apiFetch<unknown>(customTitlePath(product), { method: 'DELETE' }));
}

/** 'Custom Title Cleared', or a destructive 'Error' with the server's text. */
export function useClearCustomTitle() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['admin', 'custom-title', 'clear'],
    mutationFn: (product: TitledProduct) => clearCustomTitle(product),
    onSuccess: (message) => toast({ title: 'Custom Title Cleared', description: message ?? undefined }),
    onError: (error) => {
      if (handleAdminSessionLoss(queryClient, error)) return;
      toast({ title: 'Error', description: adminErrorText(error, 'An error occurred. Please try again.'), variant: 'destructive' });
    },
    onSettled: () => refreshAfterAdminWrite(queryClient),
  });
}
