import { useMemo, useState } from 'react';
import { DEFAULT_CATALOGUE_FILTER, filterToSearchParams, isDefaultFilter } from '../../../../common/catalogue-view';
import { Button } from '../../../components/ui/button';
import { apiErrorText, ApiError } from '../../../lib/api-client';
import { useConfig, useShopNames } from '../../../lib/public-config';
import { productsOfPages, useCatalogueFacets, useCataloguePages } from '../api/get-catalogue-page';
import { CatalogueControls } from '../components/catalogue-controls';
import { CommunityLink } from '../components/community-link';
import { ExclusiveNotice } from '../components/exclusive-notice';
import { FlashSaleBanner } from '../components/flash-sale-banner';
import { HeritageSection } from '../components/heritage-section';
import { LazyShopFaq } from '../components/lazy-shop-faq';
import { ProductGrid, ProductGridEmpty, ProductGridError, ProductGridNoMatch, ProductGridSkeleton } from '../components/product-grid';
import { ShopHero } from '../components/shop-hero';
import { Web3Footer } from '../components/web3-footer';
import { useCatalogueView } from '../hooks/use-catalogue-view';
import { useCelebration } from '../hooks/use-celebration';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { SavedOfflineNotice } from '../components/saved-offline-notice';

const errorText = (error: Error) => (error instanceof ApiError ? apiErrorText(error) : error.message);

export function ShopHomePage() {
  const names = useShopNames();
  const { data: config } = useConfig();
  const { view, change } = useCatalogueView();
  const viewKey = filterToSearchParams(view).toString();
  const pages = useCataloguePages(view);
  const facets = useCatalogueFacets();
  const products = useMemo(() => (pages.data ? productsOfPages(pages.data.pages) : undefined), [pages.data]);
  // The total of the freshest page: the catalogue may have changed since the first.
  const total = pages.data?.pages.at(-1)?.total ?? 0;
  // The view whose products are on screen (the previous one while the next one's first page loads).
  const [shownView, setShownView] = useState(viewKey);
  if (pages.data && !pages.isPlaceholderData && shownView !== viewKey) setShownView(viewKey);
  const filtered = !isDefaultFilter(view);
  const clear = () => change(DEFAULT_CATALOGUE_FILTER);
  useDocumentTitle(null, names.shopName);
  useCelebration(Boolean(products && products.length > 0));

  return (
    <>
      <ShopHero productName={names.productName} currencyLabel={names.currencyLabel} />
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-6 sm:px-6 sm:py-8 lg:px-8">
        <div className="grid gap-3">
          <ExclusiveNotice productName={names.productName} currencyLabel={names.currencyLabel} />
          <FlashSaleBanner />
          <SavedOfflineNotice />
        </div>

        <section aria-labelledby="collection-title" className="grid gap-4">
          <div className="flex min-h-11 flex-wrap items-center justify-between gap-x-3 gap-y-1">
            <h2 id="collection-title" className="text-2xl font-black tracking-tight">
              The Collection
            </h2>
            <div className="flex items-center gap-1">
              {products && total > 0 && (
                <p className="text-sm text-muted-foreground" data-testid="product-count" aria-live="polite">
                  {total} {total === 1 ? 'item' : 'items'}
                </p>
              )}
              {filtered && (
                <Button variant="link" size="sm" onClick={clear} data-testid="catalogue-clear">
                  Clear
                </Button>
              )}
            </div>
          </div>
          {/* Without products at all (the default view empty) there is nothing to search or filter. */}
          {!(products && products.length === 0 && !filtered) && (
            <CatalogueControls view={view} facets={facets.data} onChange={change} busy={pages.isPlaceholderData && pages.isFetching} />
          )}
          {products ? (
            products.length > 0 ? (
              <ProductGrid
                products={products}
                view={shownView}
                busy={pages.isPlaceholderData}
                more={{
                  hasMore: pages.hasNextPage,
                  loading: pages.isFetchingNextPage,
                  error: pages.isFetchNextPageError && pages.error ? errorText(pages.error) : null,
                  onLoadMore: () => void pages.fetchNextPage({ cancelRefetch: false }),
                }}
              />
            ) : filtered ? (
              <ProductGridNoMatch search={view.q} onClear={clear} />
            ) : (
              <ProductGridEmpty />
            )
          ) : pages.isError ? (
            <ProductGridError message={pages.error.message} onRetry={() => void pages.refetch()} retrying={pages.isFetching} />
          ) : (
            <ProductGridSkeleton />
          )}
        </section>

        <LazyShopFaq
          aboveSettled={!pages.isPending}
          productName={names.productName}
          tokenSymbol={names.tokenSymbol}
          brandUrl={config?.brandUrl ?? null}
        />
        <HeritageSection productName={names.productName} />
        <CommunityLink url={config?.communityUrl ?? null} productName={names.productName} />
      </div>
      <Web3Footer currencyLabel={names.currencyLabel} chainName={names.chainName} />
    </>
  );
}
