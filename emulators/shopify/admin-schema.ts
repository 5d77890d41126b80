import { ORDER_SCHEMA_SDL } from './order-schema';

// Hand-written subset of Shopify's Admin GraphQL schema (names and nullability follow the
// 2026-07 reference). graphql-js validates against it, so a field Shopify lacks fails here too.
// Extend by adding types/fields here and their resolvers in admin-resolvers.ts; the order side
// lives in order-schema.ts and order-resolvers.ts.

export const ADMIN_SCHEMA_SDL = /* GraphQL */ `
  scalar DateTime
  scalar HTML
  scalar Money
  scalar URL
  scalar UnsignedInt64

  interface Node {
    id: ID!
  }

  type Query {
    products(
      first: Int
      after: String
      last: Int
      before: String
      reverse: Boolean = false
      query: String
      sortKey: ProductSortKeys = ID
    ): ProductConnection!
    product(id: ID!): Product
    productByHandle(handle: String!): Product
    productVariant(id: ID!): ProductVariant
    productsCount(query: String): Count
    node(id: ID!): Node
    nodes(ids: [ID!]!): [Node]!
    shop: Shop!
  }

  type Shop implements Node {
    id: ID!
    name: String!
    myshopifyDomain: String!
    currencyCode: CurrencyCode!
  }

  enum CurrencyCode {
    USD
  }

  enum ProductSortKeys {
    CREATED_AT
    ID
    INVENTORY_TOTAL
    PRODUCT_TYPE
    TITLE
    UPDATED_AT
    VENDOR
  }

  enum ProductStatus {
    ACTIVE
    ARCHIVED
    DRAFT
  }

  enum CountPrecision {
    AT_LEAST
    EXACT
  }

  type Count {
    count: Int!
    precision: CountPrecision!
  }

  type PageInfo {
    hasNextPage: Boolean!
    hasPreviousPage: Boolean!
    startCursor: String
    endCursor: String
  }

  type Product implements Node {
    id: ID!
    legacyResourceId: UnsignedInt64!
    handle: String!
    title: String!
    descriptionHtml: HTML!
    description(truncateAt: Int): String!
    vendor: String!
    productType: String!
    tags: [String!]!
    status: ProductStatus!
    createdAt: DateTime!
    updatedAt: DateTime!
    totalInventory: Int!
    tracksInventory: Boolean!
    hasOnlyDefaultVariant: Boolean!
    options(first: Int): [ProductOption!]!
    featuredMedia: Media
    featuredImage: Image @deprecated(reason: "Use featuredMedia instead.")
    media(first: Int, after: String, last: Int, before: String, reverse: Boolean = false): MediaConnection!
    mediaCount: Count
    variantsCount: Count
    variants(first: Int, after: String, last: Int, before: String, reverse: Boolean = false): ProductVariantConnection!
  }

  type ProductOption implements Node {
    id: ID!
    name: String!
    position: Int!
    values: [String!]!
  }

  type ProductConnection {
    edges: [ProductEdge!]!
    nodes: [Product!]!
    pageInfo: PageInfo!
  }

  type ProductEdge {
    cursor: String!
    node: Product!
  }

  type ProductVariant implements Node {
    id: ID!
    legacyResourceId: UnsignedInt64!
    title: String!
    displayName: String!
    sku: String
    barcode: String
    price: Money!
    compareAtPrice: Money
    inventoryQuantity: Int
    availableForSale: Boolean!
    position: Int!
    selectedOptions: [SelectedOption!]!
    image: Image
    product: Product!
    createdAt: DateTime!
    updatedAt: DateTime!
  }

  type SelectedOption {
    name: String!
    value: String!
  }

  type ProductVariantConnection {
    edges: [ProductVariantEdge!]!
    nodes: [ProductVariant!]!
    pageInfo: PageInfo!
  }

  type ProductVariantEdge {
    cursor: String!
    node: ProductVariant!
  }

  enum MediaContentType {
    EXTERNAL_VIDEO
    IMAGE
    MODEL_3D
    VIDEO
  }

  enum MediaStatus {
    FAILED
    PROCESSING
    READY
    UPLOADED
  }

  enum ImageContentType {
    JPG
    PNG
    WEBP
  }

  input ImageTransformInput {
    crop: CropRegion
    maxHeight: Int
    maxWidth: Int
    preferredContentType: ImageContentType
    scale: Int = 1
  }

  enum CropRegion {
    BOTTOM
    CENTER
    LEFT
    REGION
    RIGHT
    TOP
  }

  interface Media {
    id: ID!
    alt: String
    mediaContentType: MediaContentType!
    status: MediaStatus!
    preview: MediaPreviewImage
  }

  type MediaPreviewImage {
    image: Image
    status: MediaStatus!
  }

  type MediaImage implements Media & Node {
    id: ID!
    alt: String
    mediaContentType: MediaContentType!
    status: MediaStatus!
    preview: MediaPreviewImage
    image: Image
    mimeType: String
  }

  type Image {
    id: ID
    url(transform: ImageTransformInput): URL!
    altText: String
    width: Int
    height: Int
  }

  type MediaConnection {
    edges: [MediaEdge!]!
    nodes: [Media!]!
    pageInfo: PageInfo!
  }

  type MediaEdge {
    cursor: String!
    node: Media!
  }

  ${ORDER_SCHEMA_SDL}
`;
