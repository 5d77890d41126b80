import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CustomTitleRequest } from '../../../../common/admin';
import { toast } from '../../../components/ui/use-toast';
import { apiFetch } from '../../../lib/api-client';
import { adminErrorText, answerMessage } from './admin-errors';
import { refreshAfterAdminWrite } from './admin-cache';
import { handleAdminSessionLoss } from './admin-session';

/** A product's title: its Shopify title (the path's key) and its Shopify id (so only that product changes). */
export interface TitledProduct {
  originalTitle: string;
  productId: string;
}

/** The path of a product's custom title: its Shopify title, URL-encoded, limited to the one product. */
export function customTitlePath({ originalTitle, productId }: TitledProduct): string {
  return `/api/products/${encodeURIComponent(originalTitle)}/custom-title?productId=${encodeURIComponent(productId)}`;
}

/** PUT the custom title (trimmed) shoppers see instead of Shopify's. */
export async function setCustomTitle(product: TitledProduct, customTitle: string): Promise<string | null> {
  const json = { customTitle: customTitle.trim() } satisfies CustomTitleRequest;
  return answerMessage(await apiFetch<unknown>(customTitlePath(product), { method: 'PUT', json }));
}

/** 'Custom Title Updated', or a destructive 'Error' with the server's text. */
export function useSetCustomTitle() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['admin', 'custom-title', 'set'],
    mutationFn: ({ product, customTitle }: { product: TitledProduct; customTitle: string }) => setCustomTitle(product, customTitle),
    onSuccess: (message) => toast({ title: 'Custom Title Updated', description: message ?? undefined }),
    onError: (error) => {
      if (handleAdminSessionLoss(queryClient, error)) return;
      toast({ title: 'Error', description: adminErrorText(error, 'An error occurred. Please try again.'), variant: 'destructive' });
    },
    onSettled: () => refreshAfterAdminWrite(queryClient),
  });
}
