/**
 * Catalogue module: the sync from Shopify (through `server/shopify`) and the shop's product API.
 */
export { CatalogueService, productTitle, type ListedVariant, type ProductListSnapshot } from './service';
export { catalogueRoutes } from './routes';
export { catalogueStoredReads } from './stored-reads';
export { bumpCatalogueVersion } from './sync';
export type { SyncStart } from './sync-job';
export {
  inventoryPage,
  listInventory,
  lockProductsTitled,
  lockVariantAdminFields,
  takeSoldUnits,
  writeCustomTitle,
  writeVariantAdminFields,
} from './inventory';
export { joinVariantFacts, lockVariantStock, type VariantFacts } from './variant-facts';
/** The data of the merchant's `catalogue.synced` webhook event (server/wiring.ts hands it to the sender). */
export { syncRunEventData } from './webhook-data';
