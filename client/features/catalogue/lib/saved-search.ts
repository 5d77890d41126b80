import type { Product } from '../../../../common/api';
import { countFacets, prepareScan, scanCatalogue, type ScannedProduct } from '../../../../common/catalogue-scan';
import type { CatalogueFacets, CatalogueFilter } from '../../../../common/catalogue-view';
import { savedCatalogue, type CachedQuery } from '../../../lib/saved-catalogue';

/** The filters' values offered offline: as many as the server's facets list. */
const SAVED_FACET_VALUES = 100;

/** The products the device saved, ready to search: read once, searched at every keystroke. */
export interface SavedSearch {
  /** How many different products the device saved. */
  count: number;
  scanned: readonly ScannedProduct[];
  /** The filters' values among the saved products, with how many saved products have each. */
  facets: CatalogueFacets;
}

/** The saved catalogue queries (app/persistence.ts), as one list to search, each product once. */
export function prepareSavedSearch(queries: readonly CachedQuery[]): SavedSearch {
  const { products, placeOf } = savedCatalogue(queries);
  return { count: products.length, scanned: prepareScan(products, placeOf), facets: countFacets(products, SAVED_FACET_VALUES) };
}

/**
 * Every saved product a view (search, filters, sort) shows, in its order: the server's matching
 * rules (common/catalogue-scan.ts), on what the device has.
 */
export function searchSaved(saved: SavedSearch, filter: CatalogueFilter): Product[] {
  return scanCatalogue(saved.scanned, filter);
}
