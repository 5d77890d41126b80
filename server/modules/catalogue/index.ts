/**
 * Catalogue module: Shopify access (real client or emulator), sync, and the shop's product API.
 */
export { CatalogueService, productTitle, toApiProduct, toApiVariant, type ListedVariant, type ProductListSnapshot } from './service';
export { catalogueRoutes } from './routes';
export { ShopifyGraphql, ShopifyRequestError, type ShopifyGraphqlOptions, type QueryCost } from './shopify-client';
export { syncCatalogue, bumpCatalogueVersion, getState, setState, type SyncOptions } from './sync';
