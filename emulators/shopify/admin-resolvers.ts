import {
  buildSchema,
  isAbstractType,
  isObjectType,
  type GraphQLFieldResolver,
  type GraphQLSchema,
  type GraphQLTypeResolver,
} from 'graphql';
import { ADMIN_SCHEMA_SDL } from './admin-schema';
import { paginate, type ConnectionArgs } from './connection';
import type { EmulatorImage, EmulatorProduct, EmulatorState, EmulatorVariant } from './emulator-state';
import { toGid } from './gid';
import { orderFieldResolvers, type OrderContext } from './order-resolvers';
import { requireGid } from './resolver-kit';
import type { BulkOperations } from './bulk-operations';

export const EMULATOR_SHOP = {
  id: '548380009',
  name: 'POGS Demo Shop',
  myshopifyDomain: 'demo-shop.myshopify.com',
  currencyCode: 'USD',
} as const;

export interface AdminContext extends OrderContext {
  state: EmulatorState;
  bulkOperations: BulkOperations;
  /** Inside a bulk query: connections take no page size and answer every item. */
  bulk?: boolean;
  /** Absolute URL under which the emulator serves a generated product image. */
  imageUrl(product: EmulatorProduct, position: number): string;
}

type Resolver<TParent = unknown, TArgs = Record<string, unknown>> = GraphQLFieldResolver<TParent, AdminContext, TArgs>;

// Media and variants need their product (image URLs), so resolvers pass these small refs around
// instead of the bare state records; `__typename` picks the concrete type for the Media interface.
interface MediaRef {
  __typename: 'MediaImage';
  product: EmulatorProduct;
  image: EmulatorImage;
  position: number;
}

interface VariantRef {
  product: EmulatorProduct;
  variant: EmulatorVariant;
  position: number;
}

const mediaRefs = (product: EmulatorProduct): MediaRef[] =>
  product.images.map((image, i) => ({ __typename: 'MediaImage', product, image, position: i + 1 }));

const variantRefs = (product: EmulatorProduct): VariantRef[] =>
  product.variants.map((variant, i) => ({ product, variant, position: i + 1 }));

function imageObject(ctx: AdminContext, product: EmulatorProduct, position: number) {
  const image = product.images[position - 1];
  if (!image) return null;
  return { url: image.url ?? ctx.imageUrl(product, position), altText: image.alt };
}

const fieldResolvers: Record<string, Record<string, Resolver<never, never>>> = {
  Query: {
    products: ((_root, args, ctx) =>
      paginate('products', ctx.state.listProducts(), args, (p) => [Number(p.legacyId), Number(p.legacyId)], ctx.bulk)) as Resolver<
      unknown,
      ConnectionArgs
    >,
    product: ((_root, { id }, ctx) => {
      const gid = requireGid(id);
      return gid.type === 'Product' ? (ctx.state.getProduct(gid.legacyId) ?? null) : null;
    }) as Resolver<unknown, { id: string }>,
    shop: (() => ({ ...EMULATOR_SHOP, id: toGid('Shop', EMULATOR_SHOP.id) })) as Resolver,
    inventoryItem: ((_root, { id }, ctx) => {
      const gid = requireGid(id);
      const found = gid.type === 'InventoryItem' ? ctx.state.findInventoryItem(gid.legacyId) : undefined;
      return found ? { product: found.product, variant: found.variant, position: found.product.variants.indexOf(found.variant) + 1 } : null;
    }) as Resolver<unknown, { id: string }>,
    bulkOperation: ((_root, { id }, ctx) => {
      const gid = requireGid(id);
      const op = gid.type === 'BulkOperation' ? ctx.bulkOperations.get(gid.legacyId) : undefined;
      return op ? ctx.bulkOperations.view(op) : null;
    }) as Resolver<unknown, { id: string }>,
    currentBulkOperation: ((_root, { type }, ctx) => {
      const op = type === 'QUERY' ? ctx.bulkOperations.current() : undefined;
      return op ? ctx.bulkOperations.view(op) : null;
    }) as Resolver<unknown, { type: string }>,
  },

  Mutation: {
    bulkOperationRunQuery: ((_root, { query }, ctx) => {
      const outcome = ctx.bulkOperations.run(query);
      return 'userErrors' in outcome
        ? { bulkOperation: null, userErrors: outcome.userErrors }
        : { bulkOperation: ctx.bulkOperations.view(outcome.operation), userErrors: [] };
    }) as Resolver<unknown, { query: string }>,
  },

  InventoryItem: {
    id: ((r) => toGid('InventoryItem', r.variant.inventoryItemLegacyId)) as Resolver<VariantRef>,
    legacyResourceId: ((r) => r.variant.inventoryItemLegacyId) as Resolver<VariantRef>,
    variant: ((r) => r) as Resolver<VariantRef>,
  },

  Product: {
    id: ((p) => toGid('Product', p.legacyId)) as Resolver<EmulatorProduct>,
    legacyResourceId: ((p) => p.legacyId) as Resolver<EmulatorProduct>,
    featuredMedia: ((p) => mediaRefs(p)[0] ?? null) as Resolver<EmulatorProduct>,
    media: ((p, args, ctx) => paginate('media', mediaRefs(p), args, (m) => [m.position, Number(m.image.legacyId)], ctx.bulk)) as Resolver<
      EmulatorProduct,
      ConnectionArgs
    >,
    variants: ((p, args, ctx) =>
      paginate('variants', variantRefs(p), args, (v) => [v.position, Number(v.variant.legacyId)], ctx.bulk)) as Resolver<
      EmulatorProduct,
      ConnectionArgs
    >,
  },

  ProductVariant: {
    id: ((r) => toGid('ProductVariant', r.variant.legacyId)) as Resolver<VariantRef>,
    legacyResourceId: ((r) => r.variant.legacyId) as Resolver<VariantRef>,
    title: ((r) => r.variant.title) as Resolver<VariantRef>,
    sku: ((r) => r.variant.sku) as Resolver<VariantRef>,
    price: ((r) => r.variant.price) as Resolver<VariantRef>,
    inventoryQuantity: ((r) => r.variant.inventoryQuantity) as Resolver<VariantRef>,
    availableForSale: ((r) => r.variant.availableForSale) as Resolver<VariantRef>,
    selectedOptions: ((r) => r.variant.selectedOptions) as Resolver<VariantRef>,
    image: ((r, _args, ctx) =>
      r.variant.imagePosition ? imageObject(ctx, r.product, r.variant.imagePosition) : null) as Resolver<VariantRef>,
    inventoryItem: ((r) => r) as Resolver<VariantRef>,
    product: ((r) => r.product) as Resolver<VariantRef>,
  },

  MediaImage: {
    id: ((m) => toGid('MediaImage', m.image.legacyId)) as Resolver<MediaRef>,
    alt: ((m) => m.image.alt ?? '') as Resolver<MediaRef>,
    mediaContentType: (() => 'IMAGE') as Resolver,
    image: ((m, _args, ctx) => imageObject(ctx, m.product, m.position)) as Resolver<MediaRef>,
  },
};

const byTypename: GraphQLTypeResolver<unknown, AdminContext> = (value) => (value as { __typename: string }).__typename;

export function createAdminSchema(): GraphQLSchema {
  const schema = buildSchema(ADMIN_SCHEMA_SDL);
  for (const resolvers of [fieldResolvers, orderFieldResolvers]) {
    for (const [typeName, fields] of Object.entries(resolvers)) {
      const type = schema.getType(typeName);
      if (!isObjectType(type)) throw new Error(`Resolvers given for unknown object type ${typeName}`);
      const defs = type.getFields();
      for (const [fieldName, resolve] of Object.entries(fields)) {
        if (!defs[fieldName]) throw new Error(`Resolver given for unknown field ${typeName}.${fieldName}`);
        defs[fieldName].resolve = resolve as GraphQLFieldResolver<unknown, AdminContext>;
      }
    }
  }
  for (const type of Object.values(schema.getTypeMap())) {
    if (isAbstractType(type)) type.resolveType = byTypename;
  }
  return schema;
}
