/**
 * The admin's routes for the merchant's webhook endpoints (common/outgoing-webhooks.ts names each
 * one and its answer; docs/webhooks.md says what they do). Each is behind the admin session and
 * answers only the shop's own pages (`guarded`); every change is audited by the service.
 */
import type { Router } from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { z } from 'zod';
import { ErrorCode } from '../../../common/errors';
import {
  createWebhookEndpointSchema,
  redeliverFailedResultSchema,
  redeliverFailedSchema,
  updateWebhookEndpointSchema,
  webhookDeliveriesQuerySchema,
  webhookEndpointListSchema,
  type WebhookDeliveriesPage,
  type WebhookDelivery,
  type WebhookDeliveryDetail,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
} from '../../../common/outgoing-webhooks';
import { AppError } from '../../lib/errors';
import { describeIssues, parseJsonBody } from '../../lib/validation';
import type { WebhookEndpoints } from '../outgoing-webhooks';

const EVENTS_EXAMPLE = '["order.paid", "order.shipped"]';

export function webhookRoutes(router: Router, webhooks: WebhookEndpoints, guard: Middleware[], label: (ctx: Context) => string): void {
  router.get('/api/admin/webhooks', ...guard, async (ctx) => {
    ctx.body = { endpoints: await webhooks.list() } satisfies z.infer<typeof webhookEndpointListSchema>;
  });

  router.post('/api/admin/webhooks', ...guard, async (ctx) => {
    const input = parseJsonBody(
      ctx,
      createWebhookEndpointSchema,
      `{"url": "https://example.com/pogs-events", "events": ${EVENTS_EXAMPLE}}`,
    );
    ctx.status = 201;
    ctx.body = (await webhooks.create(input, label(ctx))) satisfies WebhookEndpointWithSecret;
  });

  // Registered before /:id, which would take "deliveries" for an endpoint's id.
  router.get('/api/admin/webhooks/deliveries/:deliveryId', ...guard, async (ctx) => {
    ctx.body = (await webhooks.delivery(ctx.params.deliveryId!)) satisfies WebhookDeliveryDetail;
  });

  router.post('/api/admin/webhooks/deliveries/:deliveryId/redeliver', ...guard, async (ctx) => {
    ctx.body = (await webhooks.redeliver(ctx.params.deliveryId!, label(ctx))) satisfies WebhookDelivery;
  });

  router.patch('/api/admin/webhooks/:id', ...guard, async (ctx) => {
    const patch = parseJsonBody(
      ctx,
      updateWebhookEndpointSchema,
      `{"url": "https://…", "description": "…", "events": ${EVENTS_EXAMPLE}, "enabled": true}`,
    );
    ctx.body = (await webhooks.update(ctx.params.id!, patch, label(ctx))) satisfies WebhookEndpoint;
  });

  router.post('/api/admin/webhooks/:id/rotate-secret', ...guard, async (ctx) => {
    ctx.body = (await webhooks.rotate(ctx.params.id!, label(ctx))) satisfies WebhookEndpointWithSecret;
  });

  router.get('/api/admin/webhooks/:id/deliveries', ...guard, async (ctx) => {
    const parsed = webhookDeliveriesQuerySchema.safeParse(ctx.query);
    if (!parsed.success)
      throw new AppError(
        ErrorCode.badRequest,
        `${describeIssues(parsed.error)}. Expected ?status=failed&before=<nextBefore of the previous page>`,
      );
    ctx.body = (await webhooks.deliveries(ctx.params.id!, parsed.data)) satisfies WebhookDeliveriesPage;
  });

  router.post('/api/admin/webhooks/:id/redeliver-failed', ...guard, async (ctx) => {
    const { since } = parseJsonBody(ctx, redeliverFailedSchema, '{"since": "2026-11-28T09:00:00Z"}');
    ctx.body = (await webhooks.redeliverFailed(ctx.params.id!, new Date(since), label(ctx))) satisfies z.infer<
      typeof redeliverFailedResultSchema
    >;
  });
}
