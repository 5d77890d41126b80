/**
 * Catalogue module: the sync from Shopify (through `server/shopify`) and the shop's product API.
 */
export { CatalogueService, toApiProduct, toApiVariant, type ListedVariant, type ProductListSnapshot } from './service';
export { catalogueRoutes } from './routes';
export { syncCatalogue, bumpCatalogueVersion, type SyncOptions } from './sync';
