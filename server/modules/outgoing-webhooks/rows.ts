/** The rows of the webhook tables, and how the admin's answers read them (common/outgoing-webhooks.ts). */
import type { WebhookDelivery, WebhookEndpoint, WebhookEventType } from '../../../common/outgoing-webhooks';

type Time = Date | string;

export interface EndpointRow {
  id: string;
  url: string;
  description: string;
  events: WebhookEventType[] | string;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: Time | null;
  enabled: boolean;
  disabled_reason: 'admin' | 'failing' | null;
  disabled_at: Time | null;
  failing_since: Time | null;
  created_at: Time;
  updated_at: Time;
}

export interface DeliveryRow {
  id: string | number;
  message_id: string;
  endpoint_id: string;
  status: WebhookDelivery['status'];
  attempts: number;
  schedule_step: number;
  next_attempt_at: Time | null;
  last_attempt_at: Time | null;
  last_response_status: number | null;
  last_error: string | null;
  delivered_at: Time | null;
  created_at: Time;
}

export const iso = (t: Time | null): string | null => (t === null ? null : new Date(t).toISOString());

/** jsonb comes back parsed from Postgres and PGlite alike; text is read too. */
export const eventsOf = (row: Pick<EndpointRow, 'events'>): WebhookEventType[] =>
  typeof row.events === 'string' ? (JSON.parse(row.events) as WebhookEventType[]) : row.events;

/** An endpoint as the admin sees it: never its secrets. */
export function endpointOf(row: EndpointRow, counts: { pending: number; failed: number }, now: Date): WebhookEndpoint {
  const until = row.previous_secret && row.previous_secret_until ? new Date(row.previous_secret_until) : null;
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: eventsOf(row),
    enabled: row.enabled,
    disabledReason: row.enabled ? null : row.disabled_reason,
    disabledAt: row.enabled ? null : iso(row.disabled_at),
    failingSince: iso(row.failing_since),
    previousSecretUntil: until && until > now ? until.toISOString() : null,
    createdAt: iso(row.created_at)!,
    pending: counts.pending,
    failed: counts.failed,
  };
}

export function deliveryOf(row: DeliveryRow & { type: WebhookEventType }): WebhookDelivery {
  const waiting = row.status === 'pending';
  return {
    id: String(row.id),
    eventId: row.message_id,
    eventType: row.type,
    status: row.status,
    attempts: row.attempts,
    createdAt: iso(row.created_at)!,
    lastAttemptAt: iso(row.last_attempt_at),
    nextAttemptAt: waiting ? iso(row.next_attempt_at) : null,
    lastResponseStatus: row.last_response_status,
    lastError: row.last_error,
    deliveredAt: iso(row.delivered_at),
  };
}
