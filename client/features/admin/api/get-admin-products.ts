import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { adminProductsPageSchema, type AdminProductsPage, type ProductFilter } from '../../../../common/admin';
import { apiFetch } from '../../../lib/api-client';
import { useSessionLossOf } from './admin-session';

/** Every admin query of the inventory starts with this key: the admin's writes invalidate them all (admin-cache.ts). */
export const inventoryQueryKey = ['admin', 'inventory'] as const;

export interface AdminProductsSearch {
  /** Words in a title or SKU; '' for all. */
  q: string;
  status: ProductFilter;
}

/** GET /api/admin/products?q=&status=&cursor=: the product groups a page at a time (24 a page). */
export function adminProductsPath({ q, status }: AdminProductsSearch, cursor: string | null): string {
  const query = new URLSearchParams();
  if (q.trim()) query.set('q', q.trim());
  if (status !== 'all') query.set('status', status);
  if (cursor) query.set('cursor', cursor);
  const text = query.toString();
  return `/api/admin/products${text ? `?${text}` : ''}`;
}

async function getAdminProducts(search: AdminProductsSearch, cursor: string | null, signal?: AbortSignal): Promise<AdminProductsPage> {
  const body = await apiFetch<unknown>(adminProductsPath(search, cursor), { signal, cache: 'no-store' });
  const parsed = adminProductsPageSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`The products have an unexpected shape (${issue.path.join('.') || 'body'}: ${issue.message})`);
  }
  return parsed.data;
}

/**
 * The admin's product groups for a search and filter, a page at a time ('Load more' asks for the
 * next with the last page's nextCursor). While another search loads, the last one's stay on screen.
 * A refusal for a lost session returns the page to 'Admin Access' with 'Session Expired'.
 */
export function adminProductsQueryOptions(search: AdminProductsSearch) {
  return infiniteQueryOptions({
    queryKey: [...inventoryQueryKey, 'products', search.q.trim().toLowerCase(), search.status],
    queryFn: ({ pageParam, signal }) => getAdminProducts(search, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
    gcTime: 5 * 60_000,
  });
}

export function useAdminProducts(search: AdminProductsSearch) {
  const query = useInfiniteQuery(adminProductsQueryOptions(search));
  useSessionLossOf(query.error);
  return query;
}
