/**
 * The merchant's webhook endpoints (docs/webhooks.md): order, payment and catalogue events sent,
 * signed in the Standard Webhooks format, to the merchant's own systems. The modules whose changes
 * are events queue them in their own transactions (queueWebhookEvent); this module imports none of
 * them: each event's data comes from the composer the owning module exports, handed in by
 * server/wiring.ts.
 */
/** Queues an event in the caller's transaction: once per key, one delivery per enabled endpoint that chose its type. */
export { queueWebhookEvent } from './queue';
/** The admin's endpoints: list, create, update, rotate, deliveries, one delivery, redeliver (audited through `audit`). */
export { WebhookEndpoints, type WebhookAudit } from './endpoints';
/** The job that sends due deliveries (server/workers.ts), and the composers it takes per event type. */
export { WebhookSender } from './sender';
