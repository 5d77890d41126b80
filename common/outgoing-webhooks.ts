/**
 * The merchant's webhook endpoints: order, payment and catalogue events sent, signed, to the
 * merchant's own systems in the Standard Webhooks format (docs/webhooks.md). Shared by the server,
 * which validates every request with these schemas, and the admin's client, which types what it
 * reads. Every route is behind the admin session (common/admin.ts).
 */
import { z } from 'zod';

/** The events an endpoint can choose, in the order the admin sees them. */
export const WEBHOOK_EVENT_TYPES = [
  'order.paid',
  'order.confirmed',
  'order.shipped',
  'order.refunded',
  'payment.needs_attention',
  'payment.refund_recorded',
  'catalogue.synced',
] as const;
export const webhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES, {
  error: `an event is one of ${WEBHOOK_EVENT_TYPES.join(', ')}`,
});
export type WebhookEventType = z.infer<typeof webhookEventTypeSchema>;

/** At most this many endpoints (enabled or not): each event is one delivery per endpoint. */
export const MAX_WEBHOOK_ENDPOINTS = 20;
export const WEBHOOK_URL_MAX = 2000;
export const WEBHOOK_DESCRIPTION_MAX = 200;
/** Deliveries on one page of an endpoint's log. */
export const WEBHOOK_DELIVERIES_PAGE_SIZE = 50;
/** After a rotation, the previous secret still signs (beside the new one) this long. */
export const WEBHOOK_PREVIOUS_SECRET_MS = 24 * 60 * 60_000;
/** An endpoint whose every attempt has failed this long is disabled, and the admin is told. */
export const WEBHOOK_DISABLE_AFTER_MS = 24 * 60 * 60_000;

const endpointUrl = z
  .string({ error: 'send url as a string' })
  .trim()
  .min(1, 'enter the URL the shop should send events to')
  .max(WEBHOOK_URL_MAX, `the URL must be at most ${WEBHOOK_URL_MAX} characters`)
  .refine((u) => URL.canParse(u), 'the URL is not a full address: it starts with https://');

const description = z
  .string({ error: 'send description as a string' })
  .trim()
  .max(WEBHOOK_DESCRIPTION_MAX, `the description must be at most ${WEBHOOK_DESCRIPTION_MAX} characters`);

const events = z
  .array(webhookEventTypeSchema, { error: 'send events as a list of event names' })
  .min(1, 'choose at least one event')
  .max(WEBHOOK_EVENT_TYPES.length)
  .refine((list) => new Set(list).size === list.length, 'each event is listed once');

/** POST /api/admin/webhooks: a new endpoint, enabled. Answered 201 with `{ endpoint, secret }`. */
export const createWebhookEndpointSchema = z.strictObject({ url: endpointUrl, description: description.optional(), events });
export type CreateWebhookEndpointRequest = z.infer<typeof createWebhookEndpointSchema>;

/** PATCH /api/admin/webhooks/:id: any of these; `enabled: true` turns a disabled endpoint back on. */
export const updateWebhookEndpointSchema = z
  .strictObject({
    url: endpointUrl.optional(),
    description: description.optional(),
    events: events.optional(),
    enabled: z.boolean().optional(),
  })
  .refine((p) => Object.values(p).some((v) => v !== undefined), 'send at least one of url, description, events, enabled');
export type UpdateWebhookEndpointRequest = z.infer<typeof updateWebhookEndpointSchema>;

/** Why an endpoint is not sent to: the admin turned it off, or it failed for a day. */
export const webhookDisabledReasonSchema = z.enum(['admin', 'failing']);

export const webhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(webhookEventTypeSchema),
  enabled: z.boolean(),
  disabledReason: webhookDisabledReasonSchema.nullable(),
  disabledAt: z.string().nullable(),
  /** ISO time of the first failure since its last success; null while it is answering. */
  failingSince: z.string().nullable(),
  /** Until when the secret before the last rotation still signs; null when there is none. */
  previousSecretUntil: z.string().nullable(),
  createdAt: z.string(),
  /** Deliveries waiting (new or being retried) and given up, all time. */
  pending: z.number().int(),
  failed: z.number().int(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

/** GET /api/admin/webhooks: every endpoint (at most MAX_WEBHOOK_ENDPOINTS), newest first. */
export const webhookEndpointListSchema = z.object({ endpoints: z.array(webhookEndpointSchema) });

/**
 * POST /api/admin/webhooks/:id/rotate-secret (no body): a new signing secret; the previous one
 * still signs beside it until `previousSecretUntil` (WEBHOOK_PREVIOUS_SECRET_MS). Answered with
 * `{ endpoint, secret }`.
 *
 * The answer of a create or a rotation: the endpoint and its signing secret (`whsec_…`), shown this once.
 */
export const webhookEndpointWithSecretSchema = z.object({ endpoint: webhookEndpointSchema, secret: z.string() });
export type WebhookEndpointWithSecret = z.infer<typeof webhookEndpointWithSecretSchema>;

/** A delivery's state: waiting (new or between retries), delivered (a 2xx answer), or given up. */
export const webhookDeliveryStatusSchema = z.enum(['pending', 'delivered', 'failed']);
export type WebhookDeliveryStatus = z.infer<typeof webhookDeliveryStatusSchema>;

/** One event to one endpoint. */
export const webhookDeliverySchema = z.object({
  id: z.string(),
  /** The event's id (`msg_…`), the `webhook-id` header: the same on every attempt and redelivery. */
  eventId: z.string(),
  eventType: webhookEventTypeSchema,
  status: webhookDeliveryStatusSchema,
  attempts: z.number().int(),
  createdAt: z.string(),
  lastAttemptAt: z.string().nullable(),
  /** When it is tried next; null when delivered or given up. */
  nextAttemptAt: z.string().nullable(),
  /** The endpoint's HTTP status on the last attempt; null when it did not answer. */
  lastResponseStatus: z.number().int().nullable(),
  /** Why the last attempt failed, in a sentence (no answer, a refused address, a status). */
  lastError: z.string().nullable(),
  deliveredAt: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

/** GET /api/admin/webhooks/:id/deliveries?status=&before=: newest first, a page at a time. */
export const webhookDeliveriesQuerySchema = z.strictObject({
  status: webhookDeliveryStatusSchema.optional(),
  /** Cursor: the `nextBefore` of the previous page. */
  before: z
    .string()
    .regex(/^[1-9]\d{0,18}$/, 'before must be the nextBefore of the previous page, as it was given (or leave it out for the first page)')
    .optional(),
});
export const webhookDeliveriesPageSchema = z.object({ deliveries: z.array(webhookDeliverySchema), nextBefore: z.string().nullable() });
export type WebhookDeliveriesPage = z.infer<typeof webhookDeliveriesPageSchema>;

/** One attempt of a delivery. */
export const webhookAttemptSchema = z.object({
  at: z.string(),
  responseStatus: z.number().int().nullable(),
  durationMs: z.number().int(),
  error: z.string().nullable(),
});

/** GET /api/admin/webhooks/deliveries/:deliveryId: the delivery, its event as sent, and its latest attempts (at most 20). */
export const webhookDeliveryDetailSchema = z.object({
  delivery: webhookDeliverySchema,
  /** The body the endpoint receives (JSON text), null until the event is first sent. */
  payload: z.string().nullable(),
  attempts: z.array(webhookAttemptSchema),
});
export type WebhookDeliveryDetail = z.infer<typeof webhookDeliveryDetailSchema>;

/**
 * POST /api/admin/webhooks/deliveries/:deliveryId/redeliver: the same event (same id, same body)
 * sent again as soon as possible, whatever its state. Answered with the delivery.
 */

/** Deliveries one redeliver-failed call queues again at most (the oldest first): call again for the rest. */
export const WEBHOOK_REDELIVER_MAX = 500;

/**
 * POST /api/admin/webhooks/:id/redeliver-failed: the deliveries given up since `since` (their last
 * attempt at or after it) queued again, at most WEBHOOK_REDELIVER_MAX per call.
 */
export const redeliverFailedSchema = z.strictObject({
  since: z.iso.datetime({ offset: true, error: 'since is an ISO date and time, e.g. 2026-11-28T09:00:00Z' }),
});
/** Its answer: how many deliveries were queued again. */
export const redeliverFailedResultSchema = z.object({ queued: z.number().int() });

/** The body of every event: `type`, when it happened (ISO), and its data (amounts as exact decimal strings). */
export interface WebhookEventBody<T = unknown> {
  type: WebhookEventType;
  timestamp: string;
  data: T;
}
