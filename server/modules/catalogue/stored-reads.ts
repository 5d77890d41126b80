/**
 * The catalogue's reads that are answered before Koa's middleware (server/lib/fast-lane.ts): the list
 * and one product, when their stored answer is in memory and current. Everything else about these
 * routes (a rebuild to wait for, an unknown id, a 404) is left to their routes in routes.ts.
 */
import type { StoredRead } from '../../lib/fast-lane';
import type { CatalogueService } from './service';

const LIST = '/api/products';
const ONE = '/api/products/';

export function catalogueStoredReads(catalogue: CatalogueService): StoredRead {
  return (path) => {
    if (!path.startsWith(LIST)) return undefined;
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
