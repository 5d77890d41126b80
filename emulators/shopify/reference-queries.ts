// The contract's queries (reference §2.1 catalogue, §4.1/§4.6 draft orders, §5.1 webhooks),
// verbatim: the emulator must answer the full documents the reference gives. The sync's own, smaller query (modules/catalogue/sync.ts) is
// exercised end to end by the catalogue integration tests.

export const CATALOGUE_PAGE_QUERY = /* GraphQL */ `
  query CatalogPage($first: Int!, $after: String, $query: String, $variantsFirst: Int!, $mediaFirst: Int!) {
    products(first: $first, after: $after, query: $query, sortKey: UPDATED_AT) {
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
        createdAt
        updatedAt
        totalInventory
        featuredMedia {
          ... on MediaImage {
            id
            image {
              url
              altText
              width
              height
            }
          }
        }
        media(first: $mediaFirst) {
          nodes {
            id
            mediaContentType
            alt
            ... on MediaImage {
              image {
                url
                altText
                width
                height
              }
            }
          }
        }
        variantsCount {
          count
        }
        variants(first: $variantsFirst) {
          pageInfo {
            hasNextPage
            endCursor
          }
          nodes {
            id
            legacyResourceId
            title
            sku
            barcode
            price
            compareAtPrice
            inventoryQuantity
            availableForSale
            selectedOptions {
              name
              value
            }
            image {
              url
              altText
            }
            updatedAt
          }
        }
      }
    }
  }
`;

export const PRODUCT_VARIANTS_PAGE_QUERY = /* GraphQL */ `
  query ProductVariantsPage($id: ID!, $first: Int!, $after: String) {
    product(id: $id) {
      variants(first: $first, after: $after) {
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          id
          legacyResourceId
          title
          inventoryQuantity
          availableForSale
        }
      }
    }
  }
`;

export const DRAFT_ORDER_CREATE_MUTATION = /* GraphQL */ `
  mutation DraftOrderCreate($input: DraftOrderInput!) {
    draftOrderCreate(input: $input) {
      draftOrder {
        id
        legacyResourceId
        name
        status
        invoiceUrl
        createdAt
        totalPriceSet {
          shopMoney {
            amount
            currencyCode
          }
        }
        customAttributes {
          key
          value
        }
        tags
      }
      userErrors {
        field
        message
      }
    }
  }
`;

export const DRAFT_ORDER_STATUS_QUERY = /* GraphQL */ `
  query DraftOrderStatus($id: ID!) {
    draftOrder(id: $id) {
      id
      status
      completedAt
      invoiceUrl
      order {
        id
        legacyResourceId
        name
        displayFinancialStatus
        displayFulfillmentStatus
        shippingAddress {
          name
          address1
          address2
          city
          province
          provinceCode
          zip
          country
          countryCodeV2
          phone
        }
        fulfillments(first: 10) {
          id
          status
          createdAt
          trackingInfo(first: 5) {
            company
            number
            url
          }
        }
      }
    }
  }
`;

export const WEBHOOK_SUBSCRIPTION_CREATE_MUTATION = /* GraphQL */ `
  mutation webhookSubscriptionCreate($topic: WebhookSubscriptionTopic!, $webhookSubscription: WebhookSubscriptionInput!) {
    webhookSubscriptionCreate(topic: $topic, webhookSubscription: $webhookSubscription) {
      webhookSubscription {
        id
        topic
        format
        includeFields
        uri
      }
      userErrors {
        field
        message
      }
    }
  }
`;
