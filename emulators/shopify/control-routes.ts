import { bodyParser } from '@koa/bodyparser';
import { Router, type RouterContext } from '@koa/router';
import { z } from 'zod';
import { isCountryCode } from './countries';
import type { EmulatorProductInput } from './emulator-state';
import { toGid } from './gid';
import type { EmulatorRuntime } from './graphql-endpoint';
import type { ShopifyEmulator } from './emulator';
import { loopbackOnly } from './loopback';
import { formatRestMoney } from './money';
import {
  displayFulfillmentStatus,
  OrderStateError,
  totalsOf,
  type EmulatorAddressInput,
  type EmulatorDraftOrder,
  type EmulatorOrder,
} from './order-state';

// Test/dev-only controls, mounted under /__emulator, for clients on this machine only (see
// loopback.ts). Inputs are validated strictly so a typo in a test fixture fails loudly instead of
// silently producing a default.

const legacyId = z.string().regex(/^\d{1,16}$/, 'decimal id');
const money = z.string().regex(/^\d+(\.\d{1,2})?$/, 'decimal amount such as "29.99"');
const isoDate = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'ISO-8601 timestamp');

const variantInput = z.strictObject({
  legacyId: legacyId.optional(),
  title: z.string().min(1).optional(),
  sku: z.string().nullable().optional(),
  barcode: z.string().nullable().optional(),
  price: money.optional(),
  compareAtPrice: money.nullable().optional(),
  inventoryQuantity: z.number().int().optional(),
  availableForSale: z.boolean().optional(),
  selectedOptions: z.array(z.strictObject({ name: z.string().min(1), value: z.string().min(1) })).optional(),
  imagePosition: z.number().int().positive().nullable().optional(),
  createdAt: isoDate.optional(),
  updatedAt: isoDate.optional(),
});

const productInput = z.strictObject({
  legacyId: legacyId.optional(),
  handle: z
    .string()
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'lower-case handle')
    .optional(),
  title: z.string().min(1).optional(),
  descriptionHtml: z.string().optional(),
  vendor: z.string().optional(),
  productType: z.string().optional(),
  tags: z.array(z.string()).optional(),
  status: z.enum(['ACTIVE', 'DRAFT', 'ARCHIVED']).optional(),
  createdAt: isoDate.optional(),
  updatedAt: isoDate.optional(),
  images: z
    .array(
      z.strictObject({
        legacyId: legacyId.optional(),
        alt: z.string().nullable().optional(),
        url: z.url().optional(),
        width: z.number().int().positive().optional(),
        height: z.number().int().positive().optional(),
      }),
    )
    .optional(),
  variants: z.array(variantInput).max(2048).optional(),
}) satisfies z.ZodType<EmulatorProductInput>;

const addressInput = z.strictObject({
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  company: z.string().optional(),
  address1: z.string().optional(),
  address2: z.string().optional(),
  city: z.string().optional(),
  province: z.string().optional(),
  provinceCode: z.string().optional(),
  zip: z.string().optional(),
  countryCode: z.string().refine(isCountryCode, 'ISO 3166 alpha-2 country code such as "US"').optional(),
  phone: z.string().optional(),
}) satisfies z.ZodType<EmulatorAddressInput>;
const completeInput = z.strictObject({ email: z.email().optional(), shippingAddress: addressInput.optional() });
const fulfillInput = z.strictObject({
  trackingUrl: z
    .url({ protocol: /^https?$/ })
    .max(1000)
    .optional(),
});

function parseOr400<T>(ctx: RouterContext, schema: z.ZodType<T>): T | undefined {
  const parsed = schema.safeParse(ctx.request.body ?? {});
  if (parsed.success) return parsed.data;
  ctx.status = 400;
  ctx.body = { error: z.prettifyError(parsed.error) };
  return undefined;
}

type ControlledEmulator = Pick<
  ShopifyEmulator,
  | 'reset'
  | 'completeDraftOrder'
  | 'fulfillOrder'
  | 'expireAccessTokens'
  | 'changeProduct'
  | 'removeProduct'
  | 'setInventory'
  | 'bulkOperations'
>;
const inventoryInput = z.strictObject({ variantId: legacyId, quantity: z.number().int().min(-1_000_000).max(1_000_000) });
const holdInput = z.strictObject({ hold: z.boolean() });

/** Runs a state change, answering 404/409 for an unknown id or a wrong state. */
function guarded(ctx: RouterContext, change: () => unknown): void {
  try {
    ctx.body = change();
  } catch (err) {
    if (!(err instanceof OrderStateError)) throw err;
    ctx.status = err.status;
    ctx.body = { error: err.message };
  }
}

export function controlRoutes(rt: EmulatorRuntime, emulator: ControlledEmulator): Router {
  const router = new Router({ prefix: '/__emulator' });
  router.use(loopbackOnly);
  router.use(bodyParser({ onError: (_err, ctx) => ctx.throw(400, 'Body must be JSON') }));
  const { orders, webhooks } = rt.adminContext;

  // Summaries in the Admin API's vocabulary (gids, statuses), for tests and for a look by hand.
  const draftSummary = (d: EmulatorDraftOrder) => ({
    id: toGid('DraftOrder', d.legacyId),
    name: d.name,
    status: d.status,
    invoiceUrl: rt.adminContext.invoiceUrl(d),
    email: d.email,
    note: d.note,
    tags: d.tags,
    customAttributes: d.customAttributes,
    totalPrice: formatRestMoney(totalsOf(d).totalCents),
    shippingAddress: d.shippingAddress,
    orderId: d.orderLegacyId ? toGid('Order', d.orderLegacyId) : null,
    createdAt: d.createdAt,
    completedAt: d.completedAt,
  });
  const orderSummary = (o: EmulatorOrder) => ({
    id: toGid('Order', o.legacyId),
    name: o.name,
    draftOrderId: toGid('DraftOrder', o.draftOrderLegacyId),
    email: o.email,
    note: o.note,
    tags: o.tags,
    customAttributes: o.customAttributes,
    displayFinancialStatus: o.financialStatus,
    displayFulfillmentStatus: displayFulfillmentStatus(o),
    shippingAddress: o.shippingAddress,
    fulfillments: o.fulfillments.map((f) => ({
      id: toGid('Fulfillment', f.legacyId),
      status: f.status,
      createdAt: f.createdAt,
    })),
    createdAt: o.createdAt,
  });

  router.get('/draft-orders', (ctx) => {
    ctx.body = { draftOrders: orders.listDraftOrders().map(draftSummary) };
  });

  // What submitting the hosted invoice form does, without the form.
  router.post('/draft-orders/:id/complete', (ctx) => {
    const input = parseOr400(ctx, completeInput);
    if (!input) return;
    guarded(ctx, () => {
      const { draftOrder, order } = emulator.completeDraftOrder(ctx.params.id ?? '', input.shippingAddress, input.email);
      return { draftOrder: draftSummary(draftOrder), order: orderSummary(order) };
    });
  });

  router.post('/orders/:id/fulfill', (ctx) => {
    const input = parseOr400(ctx, fulfillInput);
    if (!input) return;
    guarded(ctx, () => ({ order: orderSummary(emulator.fulfillOrder(ctx.params.id ?? '', input.trackingUrl ?? null).order) }));
  });

  router.get('/webhooks', (ctx) => {
    ctx.body = { subscriptions: webhooks.listSubscriptions(), deliveries: webhooks.deliveries };
  });

  router.get('/products', (ctx) => {
    ctx.body = { products: rt.state.listProducts() };
  });

  // A merchant's edit: fires products/create or products/update.
  router.post('/products', (ctx) => {
    const input = parseOr400(ctx, productInput);
    if (!input) return;
    try {
      ctx.body = { product: emulator.changeProduct(input) };
    } catch (err) {
      ctx.status = 400;
      ctx.body = { error: (err as Error).message };
    }
  });

  // A merchant's delete: fires products/delete.
  router.delete('/products/:id', (ctx) => {
    const id = ctx.params.id ?? '';
    if (!rt.state.getProduct(id)) {
      ctx.status = 404;
      ctx.body = { error: `No product with legacyId ${id}` };
      return;
    }
    emulator.removeProduct(id);
    ctx.body = { deleted: id };
  });

  // A stock adjustment: fires inventory_levels/update.
  router.post('/inventory', (ctx) => {
    const input = parseOr400(ctx, inventoryInput);
    if (!input) return;
    if (!rt.state.findVariant(input.variantId)) {
      ctx.status = 404;
      ctx.body = { error: `No variant with legacyId ${input.variantId}` };
      return;
    }
    emulator.setInventory(input.variantId, input.quantity);
    ctx.body = { variantId: input.variantId, quantity: input.quantity };
  });

  // Bulk queries stay RUNNING while held; the next one can be made to fail.
  router.post('/bulk-operations/hold', (ctx) => {
    const input = parseOr400(ctx, holdInput);
    if (!input) return;
    emulator.bulkOperations.setHold(input.hold);
    ctx.body = { hold: input.hold };
  });
  router.post('/bulk-operations/fail-next', (ctx) => {
    emulator.bulkOperations.failNextOperation();
    ctx.body = { failNext: true };
  });

  // The grants, never the tokens: whoever reads this learns when tokens were made, not one to use.
  router.get('/access-tokens', (ctx) => {
    ctx.body = { count: rt.tokens.count, active: rt.tokens.activeCount, grants: rt.tokens.grants };
  });

  router.post('/access-tokens/expire', (ctx) => {
    ctx.body = { expired: emulator.expireAccessTokens() };
  });

  router.post('/reset', (ctx) => {
    emulator.reset();
    ctx.body = { reset: true, products: rt.state.listProducts().length };
  });

  return router;
}
