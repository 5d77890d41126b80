import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  redeliverFailedResultSchema,
  webhookDeliveryDetailSchema,
  webhookDeliveriesPageSchema,
  webhookDeliverySchema,
  webhookEndpointListSchema,
  webhookEndpointSchema,
  webhookEndpointWithSecretSchema,
  type CreateWebhookEndpointRequest,
  type UpdateWebhookEndpointRequest,
  type WebhookDeliveryStatus,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
} from '../../../../common/outgoing-webhooks';
import { apiFetch } from '../../../lib/api-client';
import { deliveriesPath, deliveryLogRefreshMs, failingDisabledCount, mergeDeliveryPages } from '../lib/webhook-text';
import { handleAdminSessionLoss, useSessionLossOf } from './admin-session';

/** Every read of the webhooks section; `['admin', …]`, so logging out forgets it and nothing persists it. */
export const webhooksQueryKey = ['admin', 'webhooks'] as const;
const endpointsKey = [...webhooksQueryKey, 'endpoints'] as const;

/** While the admin area is open the endpoints (and the tab's badge) are read every minute and on focus. */
const ENDPOINTS_REFRESH_MS = 60_000;

const base = (id: string) => `/api/admin/webhooks/${encodeURIComponent(id)}`;

/** GET /api/admin/webhooks: every endpoint, newest first. */
export async function getWebhookEndpoints(signal?: AbortSignal): Promise<WebhookEndpoint[]> {
  return webhookEndpointListSchema.parse(await apiFetch<unknown>('/api/admin/webhooks', { signal, cache: 'no-store' })).endpoints;
}

function endpointsQueryOptions() {
  return queryOptions({
    queryKey: endpointsKey,
    queryFn: ({ signal }) => getWebhookEndpoints(signal),
    staleTime: 0,
    gcTime: 5 * 60_000,
    refetchInterval: ENDPOINTS_REFRESH_MS,
    refetchOnWindowFocus: true,
    // A server without the webhooks routes (404) is not asked again and again.
    retry: 1,
  });
}

export function useWebhookEndpoints() {
  const query = useQuery(endpointsQueryOptions());
  useSessionLossOf(query.error);
  return query;
}

/** How many endpoints the shop turned off because they kept failing, for the admin tab's badge; 0 until known. */
export function useFailingWebhookCount(): number {
  const query = useQuery({ ...endpointsQueryOptions(), select: failingDisabledCount });
  useSessionLossOf(query.error);
  return query.data ?? 0;
}

/** An endpoint's delivery log, newest first, a page at a time ('Load more' sends the last page's nextBefore). */
export function deliveriesQueryOptions(endpointId: string, status: WebhookDeliveryStatus | null) {
  return infiniteQueryOptions({
    queryKey: [...webhooksQueryKey, 'deliveries', endpointId, status ?? 'all'],
    queryFn: async ({ pageParam, signal }) =>
      webhookDeliveriesPageSchema.parse(
        await apiFetch<unknown>(deliveriesPath(endpointId, status, pageParam), { signal, cache: 'no-store' }),
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextBefore,
    staleTime: 0,
    gcTime: 5 * 60_000,
    // Soon while a shown delivery waits, so the admin sees it arrive.
    refetchInterval: (query) => deliveryLogRefreshMs(mergeDeliveryPages(query.state.data?.pages)),
    refetchOnWindowFocus: true,
  });
}

export function useDeliveries(endpointId: string, status: WebhookDeliveryStatus | null) {
  const query = useInfiniteQuery(deliveriesQueryOptions(endpointId, status));
  useSessionLossOf(query.error);
  return query;
}

/** GET /api/admin/webhooks/deliveries/:deliveryId: the delivery, its payload and its latest attempts. */
export function useDeliveryDetail(deliveryId: string | null) {
  const query = useQuery({
    queryKey: [...webhooksQueryKey, 'delivery', deliveryId],
    queryFn: async ({ signal }) =>
      webhookDeliveryDetailSchema.parse(
        await apiFetch<unknown>(`/api/admin/webhooks/deliveries/${encodeURIComponent(deliveryId ?? '')}`, { signal, cache: 'no-store' }),
      ),
    enabled: deliveryId !== null,
    staleTime: 0,
    refetchInterval: (q) => (q.state.data?.delivery.status === 'pending' ? 3_000 : false),
  });
  useSessionLossOf(query.error);
  return query;
}

/** Every write reads the endpoints and the logs again. */
function useWebhookWrite<V, R>(name: string, write: (vars: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...webhooksQueryKey, name],
    mutationFn: write,
    onError: (error) => void handleAdminSessionLoss(queryClient, error),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhooksQueryKey }),
  });
}

/** POST /api/admin/webhooks: answered with the endpoint and its secret, shown this once. */
export function useCreateWebhookEndpoint() {
  return useWebhookWrite('create', async (request: CreateWebhookEndpointRequest): Promise<WebhookEndpointWithSecret> =>
    webhookEndpointWithSecretSchema.parse(await apiFetch<unknown>('/api/admin/webhooks', { method: 'POST', json: request })),
  );
}

/** PATCH /api/admin/webhooks/:id: URL, description, events, or enabled. */
export function useUpdateWebhookEndpoint() {
  return useWebhookWrite(
    'update',
    async ({ id, changes }: { id: string; changes: UpdateWebhookEndpointRequest }): Promise<WebhookEndpoint> =>
      webhookEndpointSchema.parse(await apiFetch<unknown>(base(id), { method: 'PATCH', json: changes })),
  );
}

/** POST /api/admin/webhooks/:id/rotate-secret: a new secret, shown this once; the old one still signs for 24 hours. */
export function useRotateWebhookSecret() {
  return useWebhookWrite('rotate', async (id: string): Promise<WebhookEndpointWithSecret> =>
    webhookEndpointWithSecretSchema.parse(await apiFetch<unknown>(`${base(id)}/rotate-secret`, { method: 'POST' })),
  );
}

/** POST /api/admin/webhooks/deliveries/:deliveryId/redeliver: the same event sent again. */
export function useRedeliver() {
  return useWebhookWrite('redeliver', async (deliveryId: string) =>
    webhookDeliverySchema.parse(
      await apiFetch<unknown>(`/api/admin/webhooks/deliveries/${encodeURIComponent(deliveryId)}/redeliver`, { method: 'POST' }),
    ),
  );
}

/** POST /api/admin/webhooks/:id/redeliver-failed {since}: answered with how many were queued. */
export function useRedeliverFailed() {
  return useWebhookWrite('redeliver-failed', async ({ id, since }: { id: string; since: string }) =>
    redeliverFailedResultSchema.parse(await apiFetch<unknown>(`${base(id)}/redeliver-failed`, { method: 'POST', json: { since } })),
  );
}
