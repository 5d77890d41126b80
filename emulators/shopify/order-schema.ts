import { COUNTRY_CODES } from './countries';
import { WEBHOOK_TOPICS } from './webhooks';

// Draft orders, orders, fulfilments and webhook subscriptions: the part of the Admin schema the
// crypto checkout hand-off uses (contract §4, §5.1), appended to ADMIN_SCHEMA_SDL. Names and
// nullability follow the 2026-07 reference. DraftOrderInput lists every field of the reference,
// but only the ones order-state.ts models have an effect (`localizedFields` is left out: its key
// enum is large and unused here).

export const ORDER_SCHEMA_SDL = /* GraphQL */ `
  scalar Decimal

  extend type Query {
    draftOrder(id: ID!): DraftOrder
    draftOrders(
      first: Int
      after: String
      last: Int
      before: String
      reverse: Boolean = false
      query: String
      sortKey: DraftOrderSortKeys = ID
    ): DraftOrderConnection!
    draftOrdersCount(query: String): Count
    order(id: ID!): Order
    orders(
      first: Int
      after: String
      last: Int
      before: String
      reverse: Boolean = false
      query: String
      sortKey: OrderSortKeys = PROCESSED_AT
    ): OrderConnection!
    webhookSubscription(id: ID!): WebhookSubscription
    webhookSubscriptions(
      first: Int
      after: String
      last: Int
      before: String
      reverse: Boolean = false
      topics: [WebhookSubscriptionTopic!]
      uri: String
      callbackUrl: URL
      format: WebhookSubscriptionFormat
    ): WebhookSubscriptionConnection!
  }

  type Mutation {
    draftOrderCreate(input: DraftOrderInput!): DraftOrderCreatePayload
    draftOrderComplete(id: ID!, paymentGatewayId: ID, sourceName: String, paymentPending: Boolean = false): DraftOrderCompletePayload
    webhookSubscriptionCreate(topic: WebhookSubscriptionTopic!, webhookSubscription: WebhookSubscriptionInput!): WebhookSubscriptionCreatePayload
  }

  type UserError {
    field: [String!]
    message: String!
  }

  enum CountryCode {
    ${COUNTRY_CODES.join(' ')}
  }

  type Attribute {
    key: String!
    value: String
  }

  input AttributeInput {
    key: String!
    value: String!
  }

  type MoneyV2 {
    amount: Decimal!
    currencyCode: CurrencyCode!
  }

  type MoneyBag {
    shopMoney: MoneyV2!
    presentmentMoney: MoneyV2!
  }

  input MoneyInput {
    amount: Decimal!
    currencyCode: CurrencyCode!
  }

  type MailingAddress {
    firstName: String
    lastName: String
    name: String
    company: String
    address1: String
    address2: String
    city: String
    province: String
    provinceCode: String
    zip: String
    country: String
    countryCodeV2: CountryCode
    phone: String
  }

  input MailingAddressInput {
    address1: String
    address2: String
    city: String
    company: String
    countryCode: CountryCode
    country: String @deprecated(reason: "Use countryCode instead.")
    firstName: String
    lastName: String
    phone: String
    provinceCode: String
    province: String @deprecated(reason: "Use provinceCode instead.")
    zip: String
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

  enum DraftOrderSortKeys {
    ID
    NUMBER
    STATUS
    TOTAL_PRICE
    UPDATED_AT
  }

  input DraftOrderAppliedDiscountInput {
    amount: Money @deprecated(reason: "Use amountWithCurrency instead.")
    amountWithCurrency: MoneyInput
    description: String
    title: String
    value: Float!
    valueType: DraftOrderAppliedDiscountType!
  }

  enum WeightUnit {
    GRAMS
    KILOGRAMS
    OUNCES
    POUNDS
  }

  input WeightInput {
    unit: WeightUnit!
    value: Float!
  }

  input DraftOrderLineItemInput {
    appliedDiscount: DraftOrderAppliedDiscountInput
    customAttributes: [AttributeInput!]
    originalUnitPrice: Money @deprecated(reason: "Use originalUnitPriceWithCurrency instead.")
    originalUnitPriceWithCurrency: MoneyInput
    quantity: Int!
    requiresShipping: Boolean
    sku: String
    taxable: Boolean
    title: String
    uuid: String
    variantId: ID
    weight: WeightInput
  }

  input ShippingLineInput {
    price: Money @deprecated(reason: "Use priceWithCurrency instead.")
    priceWithCurrency: MoneyInput
    shippingRateHandle: String
    title: String
  }

  input MetafieldInput {
    id: ID
    namespace: String
    key: String
    value: String
    type: String
  }

  input PaymentScheduleInput {
    issuedAt: DateTime
    dueAt: DateTime
  }

  input PaymentTermsInput {
    paymentTermsTemplateId: ID
    paymentSchedules: [PaymentScheduleInput!]
  }

  input PurchasingCompanyInput {
    companyId: ID!
    companyContactId: ID!
    companyLocationId: ID!
  }

  input PurchasingEntityInput {
    customerId: ID
    purchasingCompany: PurchasingCompanyInput
  }

  input DraftOrderInput {
    acceptAutomaticDiscounts: Boolean
    allowDiscountCodesInCheckout: Boolean
    appliedDiscount: DraftOrderAppliedDiscountInput
    billingAddress: MailingAddressInput
    customAttributes: [AttributeInput!]
    customerId: ID
    discountCodes: [String!]
    email: String
    lineItems: [DraftOrderLineItemInput!]
    marketRegionCountryCode: CountryCode
    metafields: [MetafieldInput!]
    note: String
    paymentTerms: PaymentTermsInput
    phone: String
    poNumber: String
    presentmentCurrencyCode: CurrencyCode
    purchasingEntity: PurchasingEntityInput
    reserveInventoryUntil: DateTime
    sessionToken: String
    shippingAddress: MailingAddressInput
    shippingLine: ShippingLineInput
    sourceName: String
    tags: [String!]
    taxExempt: Boolean
    transformerFingerprint: String
    useCustomerDefaultAddress: Boolean
    visibleToCustomer: Boolean
  }

  type DraftOrderCreatePayload {
    draftOrder: DraftOrder
    userErrors: [UserError!]!
  }

  type DraftOrderCompletePayload {
    draftOrder: DraftOrder
    userErrors: [UserError!]!
  }

  type DraftOrderAppliedDiscount {
    title: String
    description: String!
    value: Float!
    valueType: DraftOrderAppliedDiscountType!
    amountSet: MoneyBag!
  }

  type ShippingLine {
    title: String!
    code: String
    custom: Boolean!
    source: String
    originalPriceSet: MoneyBag!
    discountedPriceSet: MoneyBag!
  }

  type DraftOrder implements Node {
    id: ID!
    legacyResourceId: UnsignedInt64!
    name: String!
    status: DraftOrderStatus!
    ready: Boolean!
    invoiceUrl: URL
    invoiceSentAt: DateTime
    createdAt: DateTime!
    updatedAt: DateTime!
    completedAt: DateTime
    reserveInventoryUntil: DateTime
    note2: String
    email: String
    phone: String
    tags: [String!]!
    taxExempt: Boolean!
    taxesIncluded: Boolean!
    visibleToCustomer: Boolean!
    currencyCode: CurrencyCode!
    presentmentCurrencyCode: CurrencyCode!
    customAttributes: [Attribute!]!
    appliedDiscount: DraftOrderAppliedDiscount
    shippingLine: ShippingLine
    shippingAddress: MailingAddress
    billingAddress: MailingAddress
    lineItems(first: Int, after: String, last: Int, before: String, reverse: Boolean = false): DraftOrderLineItemConnection!
    totalQuantityOfLineItems: Int!
    totalLineItemsPriceSet: MoneyBag!
    totalDiscountsSet: MoneyBag!
    subtotalPriceSet: MoneyBag!
    totalShippingPriceSet: MoneyBag!
    totalTaxSet: MoneyBag!
    totalPriceSet: MoneyBag!
    order: Order
  }

  type DraftOrderLineItem implements Node {
    id: ID!
    title: String!
    name: String!
    quantity: Int!
    sku: String
    variantTitle: String
    custom: Boolean!
    requiresShipping: Boolean!
    taxable: Boolean!
    variant: ProductVariant
    product: Product
    customAttributes: [Attribute!]!
    appliedDiscount: DraftOrderAppliedDiscount
    originalUnitPriceSet: MoneyBag!
    originalTotalSet: MoneyBag!
    totalDiscountSet: MoneyBag!
    discountedTotalSet: MoneyBag!
  }

  type DraftOrderLineItemConnection {
    edges: [DraftOrderLineItemEdge!]!
    nodes: [DraftOrderLineItem!]!
    pageInfo: PageInfo!
  }

  type DraftOrderLineItemEdge {
    cursor: String!
    node: DraftOrderLineItem!
  }

  type DraftOrderConnection {
    edges: [DraftOrderEdge!]!
    nodes: [DraftOrder!]!
    pageInfo: PageInfo!
  }

  type DraftOrderEdge {
    cursor: String!
    node: DraftOrder!
  }

  enum OrderSortKeys {
    CREATED_AT
    ID
    ORDER_NUMBER
    PROCESSED_AT
    TOTAL_PRICE
    UPDATED_AT
  }

  enum OrderDisplayFinancialStatus {
    AUTHORIZED
    EXPIRED
    PAID
    PARTIALLY_PAID
    PARTIALLY_REFUNDED
    PENDING
    REFUNDED
    VOIDED
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

  type Order implements Node {
    id: ID!
    legacyResourceId: UnsignedInt64!
    name: String!
    confirmationNumber: String
    email: String
    phone: String
    note: String
    tags: [String!]!
    customAttributes: [Attribute!]!
    sourceName: String
    createdAt: DateTime!
    updatedAt: DateTime!
    processedAt: DateTime!
    closedAt: DateTime
    cancelledAt: DateTime
    displayFinancialStatus: OrderDisplayFinancialStatus
    displayFulfillmentStatus: OrderDisplayFulfillmentStatus!
    fullyPaid: Boolean!
    unpaid: Boolean!
    test: Boolean!
    taxExempt: Boolean!
    currencyCode: CurrencyCode!
    statusPageUrl: URL!
    shippingAddress: MailingAddress
    billingAddress: MailingAddress
    shippingLine: ShippingLine
    lineItems(first: Int, after: String, last: Int, before: String, reverse: Boolean = false): LineItemConnection!
    fulfillments(first: Int): [Fulfillment!]!
    totalDiscountsSet: MoneyBag
    subtotalPriceSet: MoneyBag
    totalShippingPriceSet: MoneyBag!
    totalTaxSet: MoneyBag
    totalPriceSet: MoneyBag!
    currentTotalPriceSet: MoneyBag!
  }

  type LineItem implements Node {
    id: ID!
    title: String!
    name: String!
    quantity: Int!
    currentQuantity: Int!
    unfulfilledQuantity: Int!
    sku: String
    variantTitle: String
    requiresShipping: Boolean!
    taxable: Boolean!
    variant: ProductVariant
    product: Product
    customAttributes: [Attribute!]!
    originalUnitPriceSet: MoneyBag!
    originalTotalSet: MoneyBag!
    totalDiscountSet: MoneyBag!
    discountedTotalSet: MoneyBag!
  }

  type LineItemConnection {
    edges: [LineItemEdge!]!
    nodes: [LineItem!]!
    pageInfo: PageInfo!
  }

  type LineItemEdge {
    cursor: String!
    node: LineItem!
  }

  type OrderConnection {
    edges: [OrderEdge!]!
    nodes: [Order!]!
    pageInfo: PageInfo!
  }

  type OrderEdge {
    cursor: String!
    node: Order!
  }

  enum FulfillmentStatus {
    CANCELLED
    ERROR
    FAILURE
    OPEN @deprecated(reason: "This is a legacy status and is no longer used.")
    PENDING @deprecated(reason: "This is a legacy status and is no longer used.")
    SUCCESS
  }

  type FulfillmentTrackingInfo {
    company: String
    number: String
    url: URL
  }

  type Fulfillment implements Node {
    id: ID!
    legacyResourceId: UnsignedInt64!
    name: String!
    status: FulfillmentStatus!
    createdAt: DateTime!
    updatedAt: DateTime!
    trackingInfo(first: Int): [FulfillmentTrackingInfo!]!
    order: Order!
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
    callbackUrl: URL @deprecated(reason: "Use uri instead.")
    format: WebhookSubscriptionFormat
    includeFields: [String!]
    metafieldNamespaces: [String!]
    filter: String
  }

  type WebhookSubscription implements Node {
    id: ID!
    legacyResourceId: UnsignedInt64!
    topic: WebhookSubscriptionTopic!
    uri: String!
    callbackUrl: URL! @deprecated(reason: "Use uri instead.")
    format: WebhookSubscriptionFormat!
    includeFields: [String!]!
    metafieldNamespaces: [String!]!
    filter: String
    createdAt: DateTime!
    updatedAt: DateTime!
  }

  type WebhookSubscriptionCreatePayload {
    webhookSubscription: WebhookSubscription
    userErrors: [UserError!]!
  }

  type WebhookSubscriptionConnection {
    edges: [WebhookSubscriptionEdge!]!
    nodes: [WebhookSubscription!]!
    pageInfo: PageInfo!
  }

  type WebhookSubscriptionEdge {
    cursor: String!
    node: WebhookSubscription!
  }
`;
