// The contract's catalogue queries (reference §2.1), verbatim: the emulator must answer the full
// query the reference documents. The sync's own, smaller query (modules/catalogue/sync.ts) is
// exercised end to end by the catalogue integration tests.

export const CATALOGUE_PAGE_QUERY = /* GraphQL */ `
  query CatalogPage($first: Int!, $after: String, $query: String, $variantsFirst: Int!, $mediaFirst: Int!) {
    products(first: $first, after: $after, query: $query, sortKey: UPDATED_AT) {
      pageInfo { hasNextPage endCursor }
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
        featuredMedia { ... on MediaImage { id image { url altText width height } } }
        media(first: $mediaFirst) {
          nodes {
            id
            mediaContentType
            alt
            ... on MediaImage { image { url altText width height } }
          }
        }
        variantsCount { count }
        variants(first: $variantsFirst) {
          pageInfo { hasNextPage endCursor }
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
            selectedOptions { name value }
            image { url altText }
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
        pageInfo { hasNextPage endCursor }
        nodes { id legacyResourceId title inventoryQuantity availableForSale }
      }
    }
  }
`;
