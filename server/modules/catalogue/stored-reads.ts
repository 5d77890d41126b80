/**
 * The catalogue's reads that are answered before Koa's middleware (server/lib/fast-lane.ts): the list,
 * one product, the facets, and a page of a view at an address the app's route has answered for this
 * catalogue version (page-answers.ts), when their stored answer is in memory and current.
 * Everything else about these routes (a rebuild to wait for, an unknown id, a query not read yet,
 * a 404) is left to their routes in routes.ts.
 */
import type { StoredRead } from '../../lib/fast-lane';
import type { CatalogueService } from './service';

const LIST = '/api/products';
const ONE = '/api/products/';
const PAGES = '/api/catalogue/products';
const FACETS = '/api/catalogue/facets';

export function catalogueStoredReads(catalogue: CatalogueService): StoredRead {
  return (path) => {
    if (path.startsWith(PAGES)) {
      const list = path[PAGES.length] === '?' || path.length === PAGES.length ? catalogue.currentList() : undefined;
      const answer = list && catalogue.pages.find(list, path);
      return answer && { route: PAGES, answer };
    }
    if (path === FACETS) {
      const list = catalogue.currentList();
      const answer = list && catalogue.pages.storedFacets(list);
      return answer && { route: FACETS, answer };
    }
    // Any other query is the app's to read (it refuses a NUL in one, for instance).
    if (!path.startsWith(LIST) || path.includes('?')) return undefined;
    const list = catalogue.currentList();
    if (!list) return undefined;
    if (path.length === LIST.length) return { route: LIST, answer: list };
    const segment = path.slice(ONE.length);
    // Only `/api/products/<id>`: the router decodes the id the same way.
    if (!path.startsWith(ONE) || !segment || segment.includes('/')) return undefined;
    let id: string;
    try {
      id = decodeURIComponent(segment);
    } catch {
      return undefined;
    }
    const answer = list.product(id);
    return answer && { route: `${ONE}:id`, answer };
  };
}
