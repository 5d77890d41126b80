import { bodyParser } from '@koa/bodyparser';
import { Router, type RouterContext } from '@koa/router';
import { z } from 'zod';
import type { EmulatorProductInput } from './emulator-state';
import type { EmulatorRuntime } from './graphql-endpoint';

// Test/dev-only controls, mounted under /__emulator. Inputs are validated strictly so a typo in a
// test fixture fails loudly instead of silently producing a default.

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
  handle: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'lower-case handle').optional(),
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

const throttleInput = z.strictObject({ count: z.number().int().min(0) });
const failInput = z.strictObject({
  count: z.number().int().min(0),
  status: z.union([z.literal(429), z.literal(500), z.literal(503)]),
  retryAfter: z.number().min(0).optional(),
});

function parseOr400<T>(ctx: RouterContext, schema: z.ZodType<T>): T | undefined {
  const parsed = schema.safeParse(ctx.request.body ?? {});
  if (parsed.success) return parsed.data;
  ctx.status = 400;
  ctx.body = { error: z.prettifyError(parsed.error) };
  return undefined;
}

export function controlRoutes(rt: EmulatorRuntime, emulator: { reset(): void }): Router {
  const router = new Router({ prefix: '/__emulator' });
  router.use(bodyParser({ onError: (_err, ctx) => ctx.throw(400, 'Body must be JSON') }));

  router.get('/products', (ctx) => {
    ctx.body = { products: rt.state.listProducts() };
  });

  router.post('/products', (ctx) => {
    const input = parseOr400(ctx, productInput);
    if (!input) return;
    try {
      ctx.body = { product: rt.state.upsertProduct(input) };
    } catch (err) {
      ctx.status = 400;
      ctx.body = { error: (err as Error).message };
    }
  });

  router.delete('/products/:legacyId', (ctx) => {
    const id = ctx.params.legacyId ?? '';
    if (!rt.state.getProduct(id)) {
      ctx.status = 404;
      ctx.body = { error: `No product with legacyId ${id}` };
      return;
    }
    rt.state.deleteProduct(id);
    ctx.body = { deleted: id };
  });

  router.post('/throttle', (ctx) => {
    const input = parseOr400(ctx, throttleInput);
    if (!input) return;
    rt.faults.throttle = input.count;
    ctx.body = { throttle: rt.faults.throttle };
  });

  router.post('/fail', (ctx) => {
    const input = parseOr400(ctx, failInput);
    if (!input) return;
    rt.faults.fail = { count: input.count, status: input.status, retryAfterSeconds: input.retryAfter };
    ctx.body = { fail: rt.faults.fail };
  });

  router.post('/reset', (ctx) => {
    emulator.reset();
    ctx.body = { reset: true, products: rt.state.listProducts().length };
  });

  router.get('/requests', (ctx) => {
    ctx.body = { requests: rt.requestLog };
  });

  return router;
}
