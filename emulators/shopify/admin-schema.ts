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
    inventoryItem(id: ID!): InventoryItem
    bulkOperation(id: ID!): BulkOperation
    currentBulkOperation(type: BulkOperationType = QUERY): BulkOperation
  }

  extend type Mutation {
    bulkOperationRunQuery(query: String!, groupObjects: Boolean): BulkOperationRunQueryPayload
  }

  enum BulkOperationStatus {
    CANCELED
    CANCELING
    COMPLETED
    CREATED
    EXPIRED
    FAILED
    RUNNING
  }

  enum BulkOperationType {
    MUTATION
    QUERY
  }

  enum BulkOperationErrorCode {
    ACCESS_DENIED
    INTERNAL_SERVER_ERROR
    TIMEOUT
  }

  enum BulkOperationUserErrorCode {
    INVALID
    OPERATION_IN_PROGRESS
  }

  type BulkOperation {
    id: ID!
    status: BulkOperationStatus!
    errorCode: BulkOperationErrorCode
    type: BulkOperationType!
    query: String!
    createdAt: DateTime!
    completedAt: DateTime
    objectCount: UnsignedInt64!
    rootObjectCount: UnsignedInt64!
    fileSize: UnsignedInt64
    url: URL
    partialDataUrl: URL
  }

  type BulkOperationUserError {
    field: [String!]
    message: String!
    code: BulkOperationUserErrorCode
  }

  type BulkOperationRunQueryPayload {
    bulkOperation: BulkOperation
    userErrors: [BulkOperationUserError!]!
  }

  type InventoryItem {
    id: ID!
    legacyResourceId: UnsignedInt64!
    variant: ProductVariant!
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
    edges: [ProductEdge!]!
    nodes: [Product!]!
    pageInfo: PageInfo!
  }

  type ProductEdge {
    cursor: String!
    node: Product!
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
    inventoryItem: InventoryItem!
    product: Product!
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
