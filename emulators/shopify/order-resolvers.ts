import type { AdminContext } from './admin-resolvers';
import { paginate, type ConnectionArgs, type SortValue } from './connection';
import { toGid } from './gid';
import { formatDecimal, type AppliedDiscount } from './money';
import { filterDraftOrders, filterOrders } from './order-search';
import {
  addressName,
  displayFulfillmentStatus,
  totalsOf,
  type DraftOrderInput,
  type EmulatorAddress,
  type EmulatorDraftOrder,
  type EmulatorFulfillment,
  type EmulatorLineItem,
  type EmulatorOrder,
  type EmulatorOrders,
  type EmulatorShippingLine,
  type UserError,
} from './order-state';
import { requireGid, variantRefs, type Resolver } from './resolver-kit';
import type { WebhookSubscription, WebhookSubscriptionInput, WebhookTopic, Webhooks } from './webhooks';

// Resolvers for order-schema.ts. Draft orders, orders and subscriptions are plain state records
// (default resolvers read most fields); line items and fulfilments travel as small refs that carry
// what their fields need from the parent (discount share, fulfilment state, owning order).

export interface OrderContext {
  orders: EmulatorOrders;
  webhooks: Webhooks;
  /** The draft's hosted invoice page. */
  invoiceUrl(draft: EmulatorDraftOrder): string;
  orderStatusUrl(order: EmulatorOrder): string;
  /** API version of the request being answered (webhook subscriptions remember it). */
  apiVersion: string;
}

interface LineItemRef {
  line: EmulatorLineItem;
  discountCents: number;
  fulfilled: boolean;
}

interface FulfillmentRef {
  fulfillment: EmulatorFulfillment;
  order: EmulatorOrder;
}

const CURRENCY = 'USD';

const moneyBag = (cents: number) => {
  const money = { amount: formatDecimal(cents), currencyCode: CURRENCY };
  return { shopMoney: money, presentmentMoney: money };
};

function addressObject(a: EmulatorAddress | null) {
  return a && { ...a, name: addressName(a), countryCodeV2: a.countryCode };
}

function discountObject(d: AppliedDiscount | null, cents: number) {
  return d && { title: d.title, description: d.description ?? '', value: d.value, valueType: d.valueType, amountSet: moneyBag(cents) };
}

function shippingLineObject(s: EmulatorShippingLine | null) {
  return (
    s && {
      title: s.title ?? '',
      code: s.title,
      custom: true,
      source: 'shopify',
      originalPriceSet: moneyBag(s.cents),
      discountedPriceSet: moneyBag(s.cents),
    }
  );
}

function lineItemRefs(p: EmulatorDraftOrder | EmulatorOrder, fulfilled: boolean): LineItemRef[] {
  const { lineDiscountCents } = totalsOf(p);
  return p.lineItems.map((line, i) => ({ line, discountCents: lineDiscountCents[i], fulfilled }));
}

const pageLineItems = (field: string, refs: LineItemRef[], args: ConnectionArgs) => {
  const position = new Map(refs.map((r, i) => [r, i]));
  return paginate(field, refs, args, (r) => [position.get(r) ?? 0, Number(r.line.legacyId)]);
};

const userErrorsOnly = (key: string, userErrors: UserError[]) => ({ [key]: null, userErrors });

const DRAFT_SORT: Record<string, (d: EmulatorDraftOrder) => SortValue> = {
  ID: (d) => Number(d.legacyId),
  NUMBER: (d) => Number(d.name.slice(2)),
  STATUS: (d) => d.status,
  TOTAL_PRICE: (d) => totalsOf(d).totalCents,
  UPDATED_AT: (d) => Date.parse(d.updatedAt),
};

const ORDER_SORT: Record<string, (o: EmulatorOrder) => SortValue> = {
  CREATED_AT: (o) => Date.parse(o.createdAt),
  ID: (o) => Number(o.legacyId),
  ORDER_NUMBER: (o) => o.number,
  PROCESSED_AT: (o) => Date.parse(o.processedAt),
  TOTAL_PRICE: (o) => totalsOf(o).totalCents,
  UPDATED_AT: (o) => Date.parse(o.updatedAt),
};

/** node(id:) for the order-side types; null for anything else. */
export function lookupOrderNode(ctx: AdminContext, gid: { type: string; legacyId: string }): unknown {
  switch (gid.type) {
    case 'DraftOrder': {
      const draft = ctx.orders.getDraftOrder(gid.legacyId);
      return draft ? { __typename: 'DraftOrder', ...draft } : null;
    }
    case 'Order': {
      const order = ctx.orders.getOrder(gid.legacyId);
      return order ? { __typename: 'Order', ...order } : null;
    }
    case 'Fulfillment': {
      for (const order of ctx.orders.listOrders()) {
        const fulfillment = order.fulfillments.find((f) => f.legacyId === gid.legacyId);
        if (fulfillment) return { __typename: 'Fulfillment', fulfillment, order };
      }
      return null;
    }
    case 'WebhookSubscription': {
      const sub = ctx.webhooks.getSubscription(gid.legacyId);
      return sub ? { __typename: 'WebhookSubscription', ...sub } : null;
    }
    default:
      return null;
  }
}

function typedLookup(ctx: AdminContext, id: string, type: string): unknown {
  const gid = requireGid(id);
  return gid.type === type ? lookupOrderNode(ctx, gid) : null;
}

const lineItemFields = {
  id: ((r, _args, _ctx, info) => toGid(info.parentType.name, r.line.legacyId)) as Resolver<LineItemRef>,
  title: ((r) => r.line.title) as Resolver<LineItemRef>,
  name: ((r) => (r.line.variantTitle ? `${r.line.title} - ${r.line.variantTitle}` : r.line.title)) as Resolver<LineItemRef>,
  quantity: ((r) => r.line.quantity) as Resolver<LineItemRef>,
  sku: ((r) => r.line.sku) as Resolver<LineItemRef>,
  variantTitle: ((r) => r.line.variantTitle) as Resolver<LineItemRef>,
  requiresShipping: ((r) => r.line.requiresShipping) as Resolver<LineItemRef>,
  taxable: ((r) => r.line.taxable) as Resolver<LineItemRef>,
  variant: ((r, _args, ctx) => {
    const hit = r.line.variantLegacyId ? ctx.state.findVariant(r.line.variantLegacyId) : undefined;
    return hit ? variantRefs(hit.product).find((v) => v.variant === hit.variant) : null;
  }) as Resolver<LineItemRef>,
  product: ((r, _args, ctx) =>
    r.line.productLegacyId ? (ctx.state.getProduct(r.line.productLegacyId) ?? null) : null) as Resolver<LineItemRef>,
  customAttributes: ((r) => r.line.customAttributes) as Resolver<LineItemRef>,
  originalUnitPriceSet: ((r) => moneyBag(r.line.unitCents)) as Resolver<LineItemRef>,
  originalTotalSet: ((r) => moneyBag(r.line.unitCents * r.line.quantity)) as Resolver<LineItemRef>,
  totalDiscountSet: ((r) => moneyBag(r.discountCents)) as Resolver<LineItemRef>,
  discountedTotalSet: ((r) => moneyBag(r.line.unitCents * r.line.quantity - r.discountCents)) as Resolver<LineItemRef>,
};

const purchaseFields = {
  legacyResourceId: ((p) => p.legacyId) as Resolver<EmulatorDraftOrder | EmulatorOrder>,
  shippingAddress: ((p) => addressObject(p.shippingAddress)) as Resolver<EmulatorDraftOrder | EmulatorOrder>,
  billingAddress: ((p) => addressObject(p.billingAddress)) as Resolver<EmulatorDraftOrder | EmulatorOrder>,
  shippingLine: ((p) => shippingLineObject(p.shippingLine)) as Resolver<EmulatorDraftOrder | EmulatorOrder>,
  currencyCode: (() => CURRENCY) as Resolver,
  totalDiscountsSet: ((p) => moneyBag(totalsOf(p).discountsCents)) as Resolver<EmulatorDraftOrder | EmulatorOrder>,
  subtotalPriceSet: ((p) => moneyBag(totalsOf(p).subtotalCents)) as Resolver<EmulatorDraftOrder | EmulatorOrder>,
  totalShippingPriceSet: ((p) => moneyBag(totalsOf(p).shippingCents)) as Resolver<EmulatorDraftOrder | EmulatorOrder>,
  totalTaxSet: ((p) => moneyBag(totalsOf(p).taxCents)) as Resolver<EmulatorDraftOrder | EmulatorOrder>,
  totalPriceSet: ((p) => moneyBag(totalsOf(p).totalCents)) as Resolver<EmulatorDraftOrder | EmulatorOrder>,
};

export const orderFieldResolvers: Record<string, Record<string, Resolver<never, never>>> = {
  Query: {
    draftOrder: ((_root, { id }, ctx) => typedLookup(ctx, id, 'DraftOrder')) as Resolver<unknown, { id: string }>,
    draftOrders: ((_root, args, ctx) => {
      const sort = DRAFT_SORT[args.sortKey ?? 'ID'];
      return paginate('draftOrders', filterDraftOrders(ctx.orders.listDraftOrders(), args.query), args, (d) => [
        sort(d),
        Number(d.legacyId),
      ]);
    }) as Resolver<unknown, ConnectionArgs & { query?: string | null; sortKey?: string }>,
    draftOrdersCount: ((_root, { query }, ctx) => ({
      count: filterDraftOrders(ctx.orders.listDraftOrders(), query).length,
      precision: 'EXACT',
    })) as Resolver<unknown, { query?: string | null }>,
    order: ((_root, { id }, ctx) => typedLookup(ctx, id, 'Order')) as Resolver<unknown, { id: string }>,
    orders: ((_root, args, ctx) => {
      const sort = ORDER_SORT[args.sortKey ?? 'PROCESSED_AT'];
      return paginate('orders', filterOrders(ctx.orders.listOrders(), args.query), args, (o) => [sort(o), Number(o.legacyId)]);
    }) as Resolver<unknown, ConnectionArgs & { query?: string | null; sortKey?: string }>,
    webhookSubscription: ((_root, { id }, ctx) => typedLookup(ctx, id, 'WebhookSubscription')) as Resolver<unknown, { id: string }>,
    webhookSubscriptions: ((_root, args, ctx) => {
      const uri = args.uri ?? args.callbackUrl;
      const subs = ctx.webhooks
        .listSubscriptions()
        .filter(
          (s) =>
            (!args.topics?.length || args.topics.includes(s.topic)) &&
            (!uri || s.uri === uri) &&
            (!args.format || s.format === args.format),
        );
      return paginate('webhookSubscriptions', subs, args, (s) => [Number(s.legacyId), Number(s.legacyId)]);
    }) as Resolver<
      unknown,
      ConnectionArgs & { topics?: string[] | null; uri?: string | null; callbackUrl?: string | null; format?: string | null }
    >,
  },

  Mutation: {
    draftOrderCreate: ((_root, { input }, ctx) => {
      // A malformed variant gid is a top-level error, like any other malformed id argument.
      for (const line of input.lineItems ?? []) if (line.variantId) requireGid(line.variantId);
      const result = ctx.orders.createDraftOrder(input);
      return 'userErrors' in result ? userErrorsOnly('draftOrder', result.userErrors) : { draftOrder: result.draftOrder, userErrors: [] };
    }) as Resolver<unknown, { input: DraftOrderInput }>,
    draftOrderComplete: ((_root, { id }, ctx) => {
      const gid = requireGid(id);
      const draft = gid.type === 'DraftOrder' ? ctx.orders.getDraftOrder(gid.legacyId) : undefined;
      if (!draft) return userErrorsOnly('draftOrder', [{ field: ['id'], message: 'Draft order not found' }]);
      // Live capture (API 2025-01): completing twice keeps the draft and answers this error.
      if (draft.status === 'COMPLETED') return { draftOrder: draft, userErrors: [{ field: null, message: 'This order has been paid' }] };
      return { draftOrder: ctx.orders.completeDraftOrder(draft.legacyId).draftOrder, userErrors: [] };
    }) as Resolver<unknown, { id: string }>,
    webhookSubscriptionCreate: ((_root, { topic, webhookSubscription }, ctx) => {
      const result = ctx.webhooks.createSubscription(topic, webhookSubscription, ctx.apiVersion);
      return 'userErrors' in result
        ? userErrorsOnly('webhookSubscription', result.userErrors)
        : { webhookSubscription: result.subscription, userErrors: [] };
    }) as Resolver<unknown, { topic: WebhookTopic; webhookSubscription: WebhookSubscriptionInput }>,
  },

  DraftOrder: {
    ...purchaseFields,
    id: ((d) => toGid('DraftOrder', d.legacyId)) as Resolver<EmulatorDraftOrder>,
    ready: (() => true) as Resolver,
    invoiceUrl: ((d, _args, ctx) => ctx.invoiceUrl(d)) as Resolver<EmulatorDraftOrder>,
    invoiceSentAt: (() => null) as Resolver,
    note2: ((d) => d.note) as Resolver<EmulatorDraftOrder>,
    taxesIncluded: (() => false) as Resolver,
    presentmentCurrencyCode: (() => CURRENCY) as Resolver,
    appliedDiscount: ((d) => discountObject(d.appliedDiscount, totalsOf(d).orderDiscountCents)) as Resolver<EmulatorDraftOrder>,
    lineItems: ((d, args) => pageLineItems('lineItems', lineItemRefs(d, false), args)) as Resolver<EmulatorDraftOrder, ConnectionArgs>,
    totalQuantityOfLineItems: ((d) => d.lineItems.reduce((n, l) => n + l.quantity, 0)) as Resolver<EmulatorDraftOrder>,
    totalLineItemsPriceSet: ((d) => moneyBag(totalsOf(d).lineItemsCents)) as Resolver<EmulatorDraftOrder>,
    order: ((d, _args, ctx) => ctx.orders.orderOf(d)) as Resolver<EmulatorDraftOrder>,
  },

  DraftOrderLineItem: {
    ...lineItemFields,
    custom: ((r) => r.line.custom) as Resolver<LineItemRef>,
    appliedDiscount: ((r) => discountObject(r.line.appliedDiscount, r.discountCents)) as Resolver<LineItemRef>,
  },

  Order: {
    ...purchaseFields,
    id: ((o) => toGid('Order', o.legacyId)) as Resolver<EmulatorOrder>,
    closedAt: (() => null) as Resolver,
    cancelledAt: (() => null) as Resolver,
    displayFinancialStatus: ((o) => o.financialStatus) as Resolver<EmulatorOrder>,
    displayFulfillmentStatus: ((o) => displayFulfillmentStatus(o)) as Resolver<EmulatorOrder>,
    fullyPaid: (() => true) as Resolver,
    unpaid: (() => false) as Resolver,
    test: (() => false) as Resolver,
    statusPageUrl: ((o, _args, ctx) => ctx.orderStatusUrl(o)) as Resolver<EmulatorOrder>,
    lineItems: ((o, args) => pageLineItems('lineItems', lineItemRefs(o, displayFulfillmentStatus(o) === 'FULFILLED'), args)) as Resolver<
      EmulatorOrder,
      ConnectionArgs
    >,
    fulfillments: ((o, { first }) =>
      o.fulfillments.slice(0, first ?? undefined).map((fulfillment) => ({ fulfillment, order: o }))) as Resolver<
      EmulatorOrder,
      { first?: number | null }
    >,
    currentTotalPriceSet: ((o) => moneyBag(totalsOf(o).totalCents)) as Resolver<EmulatorOrder>,
  },

  LineItem: {
    ...lineItemFields,
    currentQuantity: ((r) => r.line.quantity) as Resolver<LineItemRef>,
    unfulfilledQuantity: ((r) => (r.fulfilled ? 0 : r.line.quantity)) as Resolver<LineItemRef>,
  },

  Fulfillment: {
    id: ((r) => toGid('Fulfillment', r.fulfillment.legacyId)) as Resolver<FulfillmentRef>,
    legacyResourceId: ((r) => r.fulfillment.legacyId) as Resolver<FulfillmentRef>,
    name: ((r) => r.fulfillment.name) as Resolver<FulfillmentRef>,
    status: ((r) => r.fulfillment.status) as Resolver<FulfillmentRef>,
    createdAt: ((r) => r.fulfillment.createdAt) as Resolver<FulfillmentRef>,
    updatedAt: ((r) => r.fulfillment.updatedAt) as Resolver<FulfillmentRef>,
    trackingInfo: ((r, { first }) => (r.fulfillment.tracking ? [r.fulfillment.tracking] : []).slice(0, first ?? undefined)) as Resolver<
      FulfillmentRef,
      { first?: number | null }
    >,
    order: ((r) => r.order) as Resolver<FulfillmentRef>,
  },

  WebhookSubscription: {
    id: ((s) => toGid('WebhookSubscription', s.legacyId)) as Resolver<WebhookSubscription>,
    legacyResourceId: ((s) => s.legacyId) as Resolver<WebhookSubscription>,
    callbackUrl: ((s) => s.uri) as Resolver<WebhookSubscription>,
  },
};
