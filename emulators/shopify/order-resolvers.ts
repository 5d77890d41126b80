import type { GraphQLFieldResolver } from 'graphql';
import { paginate, type ConnectionArgs } from './connection';
import { toGid } from './gid';
import { filterDraftOrders } from './order-search';
import {
  displayFulfillmentStatus,
  type DraftOrderInput,
  type EmulatorDraftOrder,
  type EmulatorOrder,
  type EmulatorOrders,
} from './order-state';
import { requireGid } from './resolver-kit';
import type { WebhookSubscription, WebhookSubscriptionInput, WebhookTopic, Webhooks } from './webhooks';

// Resolvers for order-schema.ts. Draft orders, orders and subscriptions are plain state records;
// default resolvers read most fields.

export interface OrderContext {
  orders: EmulatorOrders;
  webhooks: Webhooks;
  /** The draft's hosted invoice page. */
  invoiceUrl(draft: EmulatorDraftOrder): string;
  /** API version of the request being answered (webhook subscriptions remember it). */
  apiVersion: string;
}

type Resolver<TParent = unknown, TArgs = Record<string, unknown>> = GraphQLFieldResolver<TParent, OrderContext, TArgs>;

export const orderFieldResolvers: Record<string, Record<string, Resolver<never, never>>> = {
  Query: {
    draftOrder: ((_root, { id }, ctx) => {
      const gid = requireGid(id);
      return gid.type === 'DraftOrder' ? (ctx.orders.getDraftOrder(gid.legacyId) ?? null) : null;
    }) as Resolver<unknown, { id: string }>,
    draftOrders: ((_root, args, ctx) =>
      paginate('draftOrders', filterDraftOrders(ctx.orders.listDraftOrders(), args.query), args, (d) => [
        Number(d.legacyId),
        Number(d.legacyId),
      ])) as Resolver<unknown, ConnectionArgs & { query?: string | null }>,
    // Oldest first; `topics` keeps those of the listed topics (absent or empty: every topic).
    webhookSubscriptions: ((_root, args, ctx) => {
      const topics = args.topics?.length ? new Set(args.topics) : null;
      const subscriptions = ctx.webhooks.listSubscriptions().filter((s) => !topics || topics.has(s.topic));
      return paginate('webhookSubscriptions', subscriptions, args, (s) => [Number(s.legacyId), Number(s.legacyId)]);
    }) as Resolver<unknown, ConnectionArgs & { topics?: WebhookTopic[] | null }>,
  },

  Mutation: {
    draftOrderCreate: ((_root, { input }, ctx) => {
      // A malformed variant gid is a top-level error, like any other malformed id argument.
      for (const line of input.lineItems ?? []) if (line.variantId) requireGid(line.variantId);
      const result = ctx.orders.createDraftOrder(input);
      return 'userErrors' in result
        ? { draftOrder: null, userErrors: result.userErrors }
        : { draftOrder: result.draftOrder, userErrors: [] };
    }) as Resolver<unknown, { input: DraftOrderInput }>,
    webhookSubscriptionCreate: ((_root, { topic, webhookSubscription }, ctx) => {
      const result = ctx.webhooks.createSubscription(topic, webhookSubscription, ctx.apiVersion);
      return 'userErrors' in result
        ? { webhookSubscription: null, userErrors: result.userErrors }
        : { webhookSubscription: result.subscription, userErrors: [] };
    }) as Resolver<unknown, { topic: WebhookTopic; webhookSubscription: WebhookSubscriptionInput }>,
  },

  DraftOrder: {
    id: ((d) => toGid('DraftOrder', d.legacyId)) as Resolver<EmulatorDraftOrder>,
    invoiceUrl: ((d, _args, ctx) => ctx.invoiceUrl(d)) as Resolver<EmulatorDraftOrder>,
    order: ((d, _args, ctx) => ctx.orders.orderOf(d)) as Resolver<EmulatorDraftOrder>,
  },

  Order: {
    id: ((o) => toGid('Order', o.legacyId)) as Resolver<EmulatorOrder>,
    displayFulfillmentStatus: ((o) => displayFulfillmentStatus(o)) as Resolver<EmulatorOrder>,
  },

  WebhookSubscription: {
    id: ((s) => toGid('WebhookSubscription', s.legacyId)) as Resolver<WebhookSubscription>,
  },
};
