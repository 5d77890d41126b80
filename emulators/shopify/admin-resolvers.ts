import {
  buildSchema,
  isAbstractType,
  isObjectType,
  type GraphQLFieldResolver,
  type GraphQLSchema,
  type GraphQLTypeResolver,
} from 'graphql';
import { ADMIN_SCHEMA_SDL } from './admin-schema';
import { paginate, type ConnectionArgs, type SortValue } from './connection';
import type { EmulatorImage, EmulatorProduct, EmulatorState } from './emulator-state';
import { toGid } from './gid';
import { htmlToPlainText } from './html-text';
import { lookupOrderNode, orderFieldResolvers, type OrderContext } from './order-resolvers';
import { matchesProductQuery, parseProductQuery } from './product-search';
import { requireGid, variantRefs, type Resolver, type VariantRef } from './resolver-kit';

export const EMULATOR_SHOP = {
  id: '548380009',
  name: 'POGS Demo Shop',
  myshopifyDomain: 'demo-shop.myshopify.com',
  currencyCode: 'USD',
} as const;

export interface AdminContext extends OrderContext {
  state: EmulatorState;
  /** Numeric id of the shop (Shop.id, invoice URLs). */
  shopId: string;
  /** Absolute URL under which the emulator serves a generated product image. */
  imageUrl(product: EmulatorProduct, position: number): string;
}

// Media need their product (URLs), so resolvers pass this small ref around instead of the bare
// state record; `__typename` picks the concrete type for the Node/Media interfaces.
interface MediaRef {
  __typename: 'MediaImage';
  product: EmulatorProduct;
  image: EmulatorImage;
  position: number;
}

const mediaRefs = (product: EmulatorProduct): MediaRef[] =>
  product.images.map((image, i) => ({ __typename: 'MediaImage', product, image, position: i + 1 }));

function imageObject(ctx: AdminContext, product: EmulatorProduct, position: number) {
  const image = product.images[position - 1];
  if (!image) return null;
  return {
    id: toGid('ImageSource', image.legacyId),
    url: image.url ?? ctx.imageUrl(product, position),
    altText: image.alt,
    width: image.width,
    height: image.height,
  };
}

function lookupNode(ctx: AdminContext, id: string): unknown {
  const { state } = ctx;
  const gid = requireGid(id);
  if (gid.type === 'Product') return state.getProduct(gid.legacyId) ?? null;
  if (gid.type === 'ProductVariant') {
    const hit = state.findVariant(gid.legacyId);
    return hit ? variantRefs(hit.product).find((r) => r.variant === hit.variant) : null;
  }
  if (gid.type === 'MediaImage') {
    const hit = state.findImage(gid.legacyId);
    return hit ? { __typename: 'MediaImage', product: hit.product, image: hit.image, position: hit.position } : null;
  }
  return lookupOrderNode(ctx, gid);
}

const totalInventory = (p: EmulatorProduct) => p.variants.reduce((n, v) => n + v.inventoryQuantity, 0);

const PRODUCT_SORT: Record<string, (p: EmulatorProduct) => SortValue> = {
  ID: (p) => Number(p.legacyId),
  TITLE: (p) => p.title.toLowerCase(),
  UPDATED_AT: (p) => Date.parse(p.updatedAt),
  CREATED_AT: (p) => Date.parse(p.createdAt),
  VENDOR: (p) => p.vendor.toLowerCase(),
  PRODUCT_TYPE: (p) => p.productType.toLowerCase(),
  INVENTORY_TOTAL: totalInventory,
};

const filterProducts = (state: EmulatorState, query: string | null | undefined) => {
  const groups = parseProductQuery(query);
  return state.listProducts().filter((p) => matchesProductQuery(p, groups));
};

export const fieldResolvers: Record<string, Record<string, Resolver<never, never>>> = {
  Query: {
    products: ((_root, args, ctx) => {
      const sort = PRODUCT_SORT[args.sortKey ?? 'ID'];
      return paginate('products', filterProducts(ctx.state, args.query), args, (p) => [sort(p), Number(p.legacyId)]);
    }) as Resolver<unknown, ConnectionArgs & { query?: string | null; sortKey?: string }>,
    product: ((_root, { id }, ctx) => {
      const gid = requireGid(id);
      return gid.type === 'Product' ? (ctx.state.getProduct(gid.legacyId) ?? null) : null;
    }) as Resolver<unknown, { id: string }>,
    productVariant: ((_root, { id }, ctx) => {
      const node = lookupNode(ctx, id) as { __typename?: string } | null;
      return node?.__typename === 'ProductVariant' ? node : null;
    }) as Resolver<unknown, { id: string }>,
    productsCount: ((_root, { query }, ctx) => ({ count: filterProducts(ctx.state, query).length, precision: 'EXACT' })) as Resolver<
      unknown,
      { query?: string | null }
    >,
    node: ((_root, { id }, ctx) => lookupNode(ctx, id)) as Resolver<unknown, { id: string }>,
    nodes: ((_root, { ids }, ctx) => ids.map((id) => lookupNode(ctx, id))) as Resolver<unknown, { ids: string[] }>,
    shop: ((_root, _args, ctx) => ({ __typename: 'Shop', ...EMULATOR_SHOP, id: toGid('Shop', ctx.shopId) })) as Resolver,
  },

  Product: {
    id: ((p) => toGid('Product', p.legacyId)) as Resolver<EmulatorProduct>,
    legacyResourceId: ((p) => p.legacyId) as Resolver<EmulatorProduct>,
    description: ((p, { truncateAt }) => htmlToPlainText(p.descriptionHtml, truncateAt)) as Resolver<
      EmulatorProduct,
      { truncateAt?: number | null }
    >,
    totalInventory: ((p) => totalInventory(p)) as Resolver<EmulatorProduct>,
    tracksInventory: (() => true) as Resolver,
    hasOnlyDefaultVariant: ((p) => p.variants.length === 1 && p.variants[0].title === 'Default Title') as Resolver<EmulatorProduct>,
    options: ((p, { first }) => {
      const byName = new Map<string, string[]>();
      for (const v of p.variants) {
        for (const o of v.selectedOptions) {
          const values = byName.get(o.name) ?? [];
          if (!values.includes(o.value)) values.push(o.value);
          byName.set(o.name, values);
        }
      }
      return [...byName.entries()].slice(0, first ?? undefined).map(([name, values], i) => ({
        __typename: 'ProductOption',
        id: toGid('ProductOption', `${p.legacyId}${i + 1}`),
        name,
        position: i + 1,
        values,
      }));
    }) as Resolver<EmulatorProduct, { first?: number | null }>,
    featuredMedia: ((p) => mediaRefs(p)[0] ?? null) as Resolver<EmulatorProduct>,
    featuredImage: ((p, _args, ctx) => imageObject(ctx, p, 1)) as Resolver<EmulatorProduct>,
    media: ((p, args) => paginate('media', mediaRefs(p), args, (m) => [m.position, Number(m.image.legacyId)])) as Resolver<
      EmulatorProduct,
      ConnectionArgs
    >,
    mediaCount: ((p) => ({ count: p.images.length, precision: 'EXACT' })) as Resolver<EmulatorProduct>,
    variantsCount: ((p) => ({ count: p.variants.length, precision: 'EXACT' })) as Resolver<EmulatorProduct>,
    variants: ((p, args) => paginate('variants', variantRefs(p), args, (v) => [v.position, Number(v.variant.legacyId)])) as Resolver<
      EmulatorProduct,
      ConnectionArgs
    >,
  },

  ProductVariant: {
    id: ((r) => toGid('ProductVariant', r.variant.legacyId)) as Resolver<VariantRef>,
    legacyResourceId: ((r) => r.variant.legacyId) as Resolver<VariantRef>,
    title: ((r) => r.variant.title) as Resolver<VariantRef>,
    displayName: ((r) => `${r.product.title} - ${r.variant.title}`) as Resolver<VariantRef>,
    sku: ((r) => r.variant.sku) as Resolver<VariantRef>,
    barcode: ((r) => r.variant.barcode) as Resolver<VariantRef>,
    price: ((r) => r.variant.price) as Resolver<VariantRef>,
    compareAtPrice: ((r) => r.variant.compareAtPrice) as Resolver<VariantRef>,
    inventoryQuantity: ((r) => r.variant.inventoryQuantity) as Resolver<VariantRef>,
    availableForSale: ((r) => r.variant.availableForSale) as Resolver<VariantRef>,
    selectedOptions: ((r) => r.variant.selectedOptions) as Resolver<VariantRef>,
    image: ((r, _args, ctx) =>
      r.variant.imagePosition ? imageObject(ctx, r.product, r.variant.imagePosition) : null) as Resolver<VariantRef>,
    product: ((r) => r.product) as Resolver<VariantRef>,
    createdAt: ((r) => r.variant.createdAt) as Resolver<VariantRef>,
    updatedAt: ((r) => r.variant.updatedAt) as Resolver<VariantRef>,
  },

  MediaImage: {
    id: ((m) => toGid('MediaImage', m.image.legacyId)) as Resolver<MediaRef>,
    alt: ((m) => m.image.alt ?? '') as Resolver<MediaRef>,
    mediaContentType: (() => 'IMAGE') as Resolver,
    status: (() => 'READY') as Resolver,
    image: ((m, _args, ctx) => imageObject(ctx, m.product, m.position)) as Resolver<MediaRef>,
    preview: ((m, _args, ctx) => ({ image: imageObject(ctx, m.product, m.position), status: 'READY' })) as Resolver<MediaRef>,
    mimeType: ((m) => (m.image.url ? null : 'image/svg+xml')) as Resolver<MediaRef>,
  },
};

// Plain records (products) carry no __typename; everything else the resolvers hand out does.
const byTypename: GraphQLTypeResolver<unknown, AdminContext> = (value) => (value as { __typename?: string }).__typename ?? 'Product';

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
