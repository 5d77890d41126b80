/**
 * Shopify Admin GraphQL access, shared by the catalogue sync, the order hand-off and the webhook
 * subscription. It lives outside `modules/` because it is an adapter to an outside service, not a
 * domain of the shop: any module may use it, and it imports no module.
 */
export {
  /** The Admin GraphQL client with the shop's retry policy (throttling, 429, 5xx back-off). */
  ShopifyGraphql,
  /** A request Shopify refused or could not answer, with its GraphQL error codes. */
  ShopifyRequestError,
} from './admin-client';
/**
 * Where the Admin API token comes from: a legacy app's permanent token, or the client-credentials
 * grant of a Dev Dashboard app (renewed ahead of expiry and after a 401).
 */
export { ClientCredentialsToken, requestGrant, StaticAccessToken } from './access-token';
/** Every GraphQL document the shop sends to Shopify, with the shape of its answer (documents.ts). */
export {
  PRODUCTS_PAGE_QUERY,
  PRODUCT_VARIANTS_QUERY,
  DRAFT_BY_TAG_QUERY,
  DRAFT_CREATE_MUTATION,
  DRAFT_STATUS_QUERY,
  WEBHOOK_SUBSCRIBE_MUTATION,
  WEBHOOK_SUBSCRIPTIONS_QUERY,
  SHOP_QUERY,
  BULK_PRODUCTS_QUERY,
  PRODUCT_QUERY,
  INVENTORY_ITEM_QUERY,
  /** @internal runBulkQuery sends it; exported for the emulator's tests, which send the shop's own document. */
  BULK_RUN_QUERY_MUTATION,
  /** @internal runBulkQuery sends it; exported for the emulator's tests, which send the shop's own document. */
  BULK_OPERATION_QUERY,
  /** @internal runBulkQuery sends it; exported for the emulator's tests, which send the shop's own document. */
  CURRENT_BULK_OPERATION_QUERY,
  /** @internal A bulk operation as Shopify answers it, for the emulator's tests. */
  type BulkOperationNode,
  type ShopifyVariantNode,
  type ProductResult,
  type InventoryItemResult,
  type ShopifyProductNode,
  type ProductsPageResult,
  type ProductVariantsResult,
  type DraftNode,
  type DraftByTagResult,
  type DraftCreateResult,
  type DraftStatusResult,
  type WebhookSubscribeResult,
  type WebhookSubscriptionsResult,
  type ShopResult,
} from './documents';
/** Bulk queries: run one, wait for it (polling with back-off, a total timeout), read its JSONL file as it downloads. */
export { runBulkQuery, bulkResultRows, BulkOperationFailed, type BulkQueryOptions } from './bulk';
/** A bulk result's JSON Lines file that could not be read (a line too long, or not a JSON object). */
export { JsonLinesError } from './jsonl';
