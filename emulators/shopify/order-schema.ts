import { WEBHOOK_TOPICS } from './webhooks';

// Draft orders and webhook subscriptions: the part of the Admin schema the crypto checkout
// hand-off and the shop's start checks use, appended to ADMIN_SCHEMA_SDL. Names and nullability
// follow the 2026-07 reference; DraftOrderInput holds the fields the hand-off sends.

export const ORDER_SCHEMA_SDL = /* GraphQL */ `
  scalar Decimal

  extend type Query {
    draftOrder(id: ID!): DraftOrder
    draftOrders(first: Int, after: String, query: String): DraftOrderConnection!
    webhookSubscriptions(first: Int, after: String, topics: [WebhookSubscriptionTopic!]): WebhookSubscriptionConnection!
  }

  type Mutation {
    draftOrderCreate(input: DraftOrderInput!): DraftOrderCreatePayload
    webhookSubscriptionCreate(topic: WebhookSubscriptionTopic!, webhookSubscription: WebhookSubscriptionInput!): WebhookSubscriptionCreatePayload
  }

  type UserError {
    field: [String!]
    message: String!
  }

  input AttributeInput {
    key: String!
    value: String!
  }

  input MoneyInput {
    amount: Decimal!
    currencyCode: CurrencyCode!
  }

  enum DraftOrderStatus {
    COMPLETED
    INVOICE_SENT
    OPEN
  }

  enum DraftOrderAppliedDiscountType {
    FIXED_AMOUNT
    PERCENTAGE
  }

  input DraftOrderAppliedDiscountInput {
    description: String
    title: String
    value: Float!
    valueType: DraftOrderAppliedDiscountType!
  }

  input DraftOrderLineItemInput {
    quantity: Int!
    variantId: ID
  }

  input ShippingLineInput {
    priceWithCurrency: MoneyInput
    title: String
  }

  input DraftOrderInput {
    appliedDiscount: DraftOrderAppliedDiscountInput
    customAttributes: [AttributeInput!]
    lineItems: [DraftOrderLineItemInput!]
    note: String
    shippingLine: ShippingLineInput
    sourceName: String
    tags: [String!]
    taxExempt: Boolean
  }

  type DraftOrderCreatePayload {
    draftOrder: DraftOrder
    userErrors: [UserError!]!
  }

  type DraftOrder {
    id: ID!
    name: String!
    status: DraftOrderStatus!
    invoiceUrl: URL
    order: Order
  }

  type DraftOrderConnection {
    nodes: [DraftOrder!]!
    pageInfo: PageInfo!
  }

  enum OrderDisplayFulfillmentStatus {
    FULFILLED
    IN_PROGRESS
    ON_HOLD
    OPEN
    PARTIALLY_FULFILLED
    PENDING_FULFILLMENT
    REQUEST_DECLINED
    RESTOCKED
    SCHEDULED
    UNFULFILLED
  }

  type Order {
    id: ID!
    name: String!
    displayFulfillmentStatus: OrderDisplayFulfillmentStatus!
  }

  enum WebhookSubscriptionTopic {
    ${WEBHOOK_TOPICS.join(' ')}
  }

  enum WebhookSubscriptionFormat {
    JSON
    XML
  }

  input WebhookSubscriptionInput {
    uri: String
    format: WebhookSubscriptionFormat
  }

  type WebhookSubscription {
    id: ID!
    topic: WebhookSubscriptionTopic!
    uri: String!
    format: WebhookSubscriptionFormat!
  }

  type WebhookSubscriptionConnection {
    nodes: [WebhookSubscription!]!
    pageInfo: PageInfo!
  }

  type WebhookSubscriptionCreatePayload {
    webhookSubscription: WebhookSubscription
    userErrors: [UserError!]!
  }
`;
