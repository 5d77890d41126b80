import { ORDER_SCHEMA_SDL } from './order-schema';

// Hand-written subset of Shopify's Admin GraphQL schema (names and nullability follow the
// 2026-07 reference), cut down to what the shop sends: the catalogue sync's products/product
// queries here, the hand-off's draft orders and webhook subscriptions in order-schema.ts.
// graphql-js validates against it, so a field the emulator lacks fails the way a field Shopify
// lacks does ("Field 'x' doesn't exist on type 'Product'"): when the shop starts selecting a new
// field, add it here (checking the reference) and its resolver in admin-resolvers.ts.

export const ADMIN_SCHEMA_SDL = /* GraphQL */ `
  scalar DateTime
  scalar HTML
  scalar Money
  scalar URL
  scalar UnsignedInt64

  type Query {
    products(first: Int, after: String, sortKey: ProductSortKeys = ID): ProductConnection!
    product(id: ID!): Product
    shop: Shop!
  }

  type Shop {
    id: ID!
    name: String!
    myshopifyDomain: String!
    currencyCode: CurrencyCode!
  }

  enum CurrencyCode {
    USD
  }

  enum ProductSortKeys {
    ID
  }

  enum ProductStatus {
    ACTIVE
    ARCHIVED
    DRAFT
  }

  type PageInfo {
    hasNextPage: Boolean!
    endCursor: String
  }

  type Product {
    id: ID!
    legacyResourceId: UnsignedInt64!
    handle: String!
    title: String!
    descriptionHtml: HTML!
    vendor: String!
    productType: String!
    tags: [String!]!
    status: ProductStatus!
    updatedAt: DateTime!
    featuredMedia: Media
    media(first: Int, after: String): MediaConnection!
    variants(first: Int, after: String): ProductVariantConnection!
  }

  type ProductConnection {
    nodes: [Product!]!
    pageInfo: PageInfo!
  }

  type ProductVariant {
    id: ID!
    legacyResourceId: UnsignedInt64!
    title: String!
    sku: String
    price: Money!
    inventoryQuantity: Int
    availableForSale: Boolean!
    selectedOptions: [SelectedOption!]!
    image: Image
  }

  type SelectedOption {
    name: String!
    value: String!
  }

  type ProductVariantConnection {
    nodes: [ProductVariant!]!
    pageInfo: PageInfo!
  }

  enum MediaContentType {
    EXTERNAL_VIDEO
    IMAGE
    MODEL_3D
    VIDEO
  }

  interface Media {
    id: ID!
    alt: String
    mediaContentType: MediaContentType!
  }

  type MediaImage implements Media {
    id: ID!
    alt: String
    mediaContentType: MediaContentType!
    image: Image
  }

  type Image {
    url: URL!
    altText: String
  }

  type MediaConnection {
    nodes: [Media!]!
    pageInfo: PageInfo!
  }

  ${ORDER_SCHEMA_SDL}
`;
