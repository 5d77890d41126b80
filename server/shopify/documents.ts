/**
 * Every GraphQL document the shop sends to the Shopify Admin API, each next to the shape of its
 * answer. They live here, once, so the modules that send them and the Shopify emulator's tests
 * (which must answer exactly these documents) read the same text: a copy could drift.
 */

interface PageInfo {
  hasNextPage: boolean;
  endCursor: string | null;
}

interface ShopifyImage {
  url: string;
  altText: string | null;
}

interface UserError {
  field: string[] | null;
  message: string;
}

// The variant fields the catalogue sync stores; shared by both catalogue queries.
const SYNC_VARIANT_FRAGMENT = /* GraphQL */ `
  fragment SyncVariant on ProductVariant {
    id
    legacyResourceId
    title
    sku
    price
    inventoryQuantity
    availableForSale
    selectedOptions {
      name
      value
    }
    image {
      url
    }
  }
`;

export interface ShopifyVariantNode {
  id: string;
  legacyResourceId: string;
  title: string;
  sku: string | null;
  price: string;
  inventoryQuantity: number | null;
  availableForSale: boolean;
  selectedOptions: Array<{ name: string; value: string }>;
  image: { url: string } | null;
}

export interface ShopifyProductNode {
  id: string;
  legacyResourceId: string;
  handle: string;
  title: string;
  descriptionHtml: string;
  vendor: string;
  productType: string;
  tags: string[];
  status: string;
  updatedAt: string;
  featuredMedia: { image?: ShopifyImage | null } | null;
  media: { nodes: Array<{ mediaContentType: string; alt: string | null; image?: ShopifyImage | null }> };
  variants: { pageInfo: PageInfo; nodes: ShopifyVariantNode[] };
}

// The catalogue sync (modules/catalogue/sync.ts) pages through every product with this.
export const PRODUCTS_PAGE_QUERY = /* GraphQL */ `
  query CataloguePage($first: Int!, $after: String, $variantsFirst: Int!, $mediaFirst: Int!) {
    products(first: $first, after: $after, sortKey: ID) {
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        id
        legacyResourceId
        handle
        title
        descriptionHtml
        vendor
        productType
        tags
        status
        updatedAt
        featuredMedia {
          ... on MediaImage {
            image {
              url
              altText
            }
          }
        }
        media(first: $mediaFirst) {
          nodes {
            mediaContentType
            alt
            ... on MediaImage {
              image {
                url
                altText
              }
            }
          }
        }
        variants(first: $variantsFirst) {
          pageInfo {
            hasNextPage
            endCursor
          }
          nodes {
            ...SyncVariant
          }
        }
      }
    }
  }
  ${SYNC_VARIANT_FRAGMENT}
`;
export interface ProductsPageResult {
  products: { pageInfo: PageInfo; nodes: ShopifyProductNode[] };
}

// The catalogue sync reads the rest of a product's variants with this when the page's first batch
// has more.
export const PRODUCT_VARIANTS_QUERY = /* GraphQL */ `
  query ProductVariants($id: ID!, $first: Int!, $after: String) {
    product(id: $id) {
      variants(first: $first, after: $after) {
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          ...SyncVariant
        }
      }
    }
  }
  ${SYNC_VARIANT_FRAGMENT}
`;
export interface ProductVariantsResult {
  product: { variants: { pageInfo: PageInfo; nodes: ShopifyVariantNode[] } } | null;
}

// The draft fields the order hand-off keeps: the same in the tag lookup and the create.
const DRAFT_FIELDS = /* GraphQL */ `id name status invoiceUrl`;

export interface DraftNode {
  id: string;
  name: string;
  status: string;
  invoiceUrl: string;
}

// The order hand-off (modules/orders/handoff.ts) looks a draft up by its order tag before every
// retry, so a create whose answer was lost is never repeated.
export const DRAFT_BY_TAG_QUERY = /* GraphQL */ `
  query DraftByTag($query: String!) {
    draftOrders(first: 1, query: $query) { nodes { ${DRAFT_FIELDS} } }
  }
`;
export interface DraftByTagResult {
  draftOrders: { nodes: DraftNode[] };
}

// The order hand-off creates the paid order's draft (free to the shopper) with this.
export const DRAFT_CREATE_MUTATION = /* GraphQL */ `
  mutation DraftOrderCreate($input: DraftOrderInput!) {
    draftOrderCreate(input: $input) {
      draftOrder { ${DRAFT_FIELDS} }
      userErrors { field message }
    }
  }
`;
export interface DraftCreateResult {
  draftOrderCreate: { draftOrder: DraftNode | null; userErrors: UserError[] };
}

// The order hand-off's reconcile pass asks this about open drafts whose webhooks never came.
export const DRAFT_STATUS_QUERY = /* GraphQL */ `
  query DraftOrderStatus($id: ID!) {
    draftOrder(id: $id) {
      id
      status
      invoiceUrl
      order {
        id
        name
        displayFulfillmentStatus
      }
    }
  }
`;
export interface DraftStatusResult {
  draftOrder: {
    id: string;
    status: string;
    invoiceUrl: string;
    /** The order the completed draft became; `name` is Shopify's "#1001". */
    order: { id: string; name: string; displayFulfillmentStatus: string } | null;
  } | null;
}

// The webhook subscription (modules/orders/webhooks.ts) subscribes the shop's endpoint to each
// order topic with this, at start-up.
export const WEBHOOK_SUBSCRIBE_MUTATION = /* GraphQL */ `
  mutation Subscribe($topic: WebhookSubscriptionTopic!, $webhookSubscription: WebhookSubscriptionInput!) {
    webhookSubscriptionCreate(topic: $topic, webhookSubscription: $webhookSubscription) {
      webhookSubscription {
        id
      }
      userErrors {
        field
        message
      }
    }
  }
`;
export interface WebhookSubscribeResult {
  webhookSubscriptionCreate: { webhookSubscription: { id: string } | null; userErrors: UserError[] };
}

// The live start checks (server/ops/live-checks.ts) and `npm run doctor` read the shop's webhook
// subscriptions with this, to confirm Shopify will tell the shop about its orders.
export const WEBHOOK_SUBSCRIPTIONS_QUERY = /* GraphQL */ `
  query WebhookSubscriptions($first: Int!, $topics: [WebhookSubscriptionTopic!]) {
    webhookSubscriptions(first: $first, topics: $topics) {
      nodes {
        id
        topic
        uri
      }
    }
  }
`;
export interface WebhookSubscriptionsResult {
  webhookSubscriptions: { nodes: Array<{ id: string; topic: string; uri: string }> };
}

// The live start checks and `npm run doctor` ask this once: does the token work, and is it the
// store SHOPIFY_STORE_DOMAIN names (SHOPIFY_API_ORIGIN could point at another)?
export const SHOP_QUERY = /* GraphQL */ `
  query Shop {
    shop {
      name
      myshopifyDomain
    }
  }
`;
export interface ShopResult {
  shop: { name: string; myshopifyDomain: string };
}

// The full catalogue sync asks Shopify for every product with this bulk query (run by
// BULK_RUN_QUERY_MUTATION; Shopify answers with a JSONL file). Bulk queries take no page sizes: each
// product is one line, and each of its media and variants a line of its own after it carrying
// `__parentId` (the product's id). At most five connections, nested at most two deep.
export const BULK_PRODUCTS_QUERY = /* GraphQL */ `
  {
    products {
      edges {
        node {
          id
          legacyResourceId
          handle
          title
          descriptionHtml
          vendor
          productType
          tags
          status
          updatedAt
          featuredMedia {
            ... on MediaImage {
              image {
                url
                altText
              }
            }
          }
          media {
            edges {
              node {
                id
                mediaContentType
                alt
                ... on MediaImage {
                  image {
                    url
                    altText
                  }
                }
              }
            }
          }
          variants {
            edges {
              node {
                ...SyncVariant
              }
            }
          }
        }
      }
    }
  }
  ${SYNC_VARIANT_FRAGMENT}
`;

const BULK_OPERATION_FIELDS = /* GraphQL */ `id status errorCode createdAt completedAt objectCount rootObjectCount fileSize url partialDataUrl`;

export interface BulkOperationNode {
  id: string;
  status: string;
  errorCode: string | null;
  createdAt: string;
  completedAt: string | null;
  /** Lines written so far (products, media and variants); UnsignedInt64, a string. */
  objectCount: string;
  /** Products written so far. */
  rootObjectCount: string;
  fileSize: string | null;
  url: string | null;
  partialDataUrl: string | null;
}

interface BulkOperationUserError extends UserError {
  code: string | null;
}

// Starts a bulk query (the catalogue sync sends BULK_PRODUCTS_QUERY).
export const BULK_RUN_QUERY_MUTATION = /* GraphQL */ `
  mutation BulkRunQuery($query: String!) {
    bulkOperationRunQuery(query: $query) {
      bulkOperation { ${BULK_OPERATION_FIELDS} }
      userErrors { field message code }
    }
  }
`;
export interface BulkRunQueryResult {
  bulkOperationRunQuery: { bulkOperation: BulkOperationNode | null; userErrors: BulkOperationUserError[] };
}

// The sync polls its bulk operation with this until it ends.
export const BULK_OPERATION_QUERY = /* GraphQL */ `
  query BulkOperation($id: ID!) {
    bulkOperation(id: $id) { ${BULK_OPERATION_FIELDS} }
  }
`;
export interface BulkOperationResult {
  bulkOperation: BulkOperationNode | null;
}

// What the shop's bulk query is doing: asked when Shopify refuses a new one because one runs.
export const CURRENT_BULK_OPERATION_QUERY = /* GraphQL */ `
  query CurrentBulkOperation {
    currentBulkOperation(type: QUERY) { ${BULK_OPERATION_FIELDS} }
  }
`;
export interface CurrentBulkOperationResult {
  currentBulkOperation: BulkOperationNode | null;
}

// A products/* webhook makes the shop read that one product again with this (the webhook's body is
// only a trigger: one code path builds the catalogue rows).
export const PRODUCT_QUERY = /* GraphQL */ `
  query Product($id: ID!, $variantsFirst: Int!, $mediaFirst: Int!) {
    product(id: $id) {
      id
      legacyResourceId
      handle
      title
      descriptionHtml
      vendor
      productType
      tags
      status
      updatedAt
      featuredMedia {
        ... on MediaImage {
          image {
            url
            altText
          }
        }
      }
      media(first: $mediaFirst) {
        nodes {
          mediaContentType
          alt
          ... on MediaImage {
            image {
              url
              altText
            }
          }
        }
      }
      variants(first: $variantsFirst) {
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          ...SyncVariant
        }
      }
    }
  }
  ${SYNC_VARIANT_FRAGMENT}
`;
export interface ProductResult {
  product: ShopifyProductNode | null;
}

// An inventory_levels/update webhook makes the shop read the variant's stock again with this.
export const INVENTORY_ITEM_QUERY = /* GraphQL */ `
  query InventoryItem($id: ID!) {
    inventoryItem(id: $id) {
      id
      variant {
        id
        inventoryQuantity
        availableForSale
        product {
          id
        }
      }
    }
  }
`;
export interface InventoryItemResult {
  inventoryItem: {
    id: string;
    variant: { id: string; inventoryQuantity: number | null; availableForSale: boolean; product: { id: string } } | null;
  } | null;
}
