import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { filterFromSearchParams, filterToSearchParams, type CatalogueFilter } from '../../../../common/catalogue-view';
import { KEEP_SCROLL } from '../../../lib/use-scroll-restoration';

/**
 * The home's view (search, filters, sort) as its URL's query holds it, so a view can be shared
 * and survives a reload. `change` writes a new view into the URL: as a new history entry (a
 * filter, a sort: Back undoes it) or in place of the current one (`replace`: each word typed in
 * the search, so Back is not a list of every prefix). The page stays where it is scrolled.
 */
export function useCatalogueView() {
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => filterFromSearchParams(params), [params]);
  const change = useCallback(
    (next: Partial<CatalogueFilter>, { replace = false }: { replace?: boolean } = {}) =>
      setParams((current) => filterToSearchParams({ ...filterFromSearchParams(current), ...next }), { replace, state: KEEP_SCROLL }),
    [setParams],
  );
  return { view, change };
}
