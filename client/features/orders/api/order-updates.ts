import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PushKeyAnswer, PushSubscriptionJson, PushSubscriptionStatus } from '../../../../common/api';
import { apiFetch } from '../../../lib/api-client';

/**
 * The order updates' calls (docs/order-updates.md): the shop's VAPID public key (null while it sends
 * no updates), and the signed-in wallet's subscription of this browser's endpoint.
 */
export const orderUpdatesQueryKey = ['notifications'] as const;

export function usePushKey(enabled: boolean) {
  return useQuery(
    queryOptions({
      queryKey: [...orderUpdatesQueryKey, 'key'],
      queryFn: ({ signal }) => apiFetch<PushKeyAnswer>('/api/notifications/key', { signal }),
      staleTime: 60 * 60_000,
      enabled,
    }),
  );
}

/** GET /api/notifications/subscription?endpoint=: whether this endpoint gets the signed-in wallet's updates. */
export async function isSubscribed(endpoint: string): Promise<boolean> {
  const answer = await apiFetch<PushSubscriptionStatus>(`/api/notifications/subscription?endpoint=${encodeURIComponent(endpoint)}`);
  return answer.subscribed;
}

/** PUT /api/notifications/subscription. */
export function saveSubscription(subscription: PushSubscriptionJson): Promise<PushSubscriptionStatus> {
  return apiFetch<PushSubscriptionStatus>('/api/notifications/subscription', { method: 'PUT', json: subscription });
}

/** DELETE /api/notifications/subscription. */
export function removeSubscription(endpoint: string): Promise<PushSubscriptionStatus> {
  return apiFetch<PushSubscriptionStatus>('/api/notifications/subscription', { method: 'DELETE', json: { endpoint } });
}
