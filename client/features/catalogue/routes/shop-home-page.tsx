import { HardDriveDownload } from 'lucide-react';
import { DEFAULT_CATALOGUE_FILTER, isDefaultFilter } from '../../../../common/catalogue-view';
import { Button } from '../../../components/ui/button';
import { useConfig, useShopNames } from '../../../lib/public-config';
import { CatalogueControls } from '../components/catalogue-controls';
import { CommunityLink } from '../components/community-link';
import { ExclusiveNotice } from '../components/exclusive-notice';
import { FlashSaleBanner } from '../components/flash-sale-banner';
import { HeritageSection } from '../components/heritage-section';
import { LazyShopFaq } from '../components/lazy-shop-faq';
import { ProductGrid, ProductGridEmpty, ProductGridError, ProductGridNoMatch, ProductGridSkeleton } from '../components/product-grid';
import { ShopHero } from '../components/shop-hero';
import { Web3Footer } from '../components/web3-footer';
import { useCatalogueResults } from '../hooks/use-catalogue-results';
import { useCatalogueView } from '../hooks/use-catalogue-view';
import { useCelebration } from '../hooks/use-celebration';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { SavedOfflineNotice } from '../components/saved-offline-notice';
import { savedResultsText } from '../lib/saved-offline-text';

export function ShopHomePage() {
  const names = useShopNames();
  const { data: config } = useConfig();
  const { view, change } = useCatalogueView();
  const results = useCatalogueResults(view);
  const { products, total } = results;
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
          <SavedOfflineNotice saidBelow={Boolean(results.saved && filtered)} />
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
            <CatalogueControls view={view} facets={results.facets} onChange={change} busy={results.loading} />
          )}
          {/* The default view offline is the saved products: the notice above says so already (and gives way to this line). */}
          {results.saved && filtered && (
            <p data-testid="saved-results-note" className="flex items-start gap-2 text-sm text-muted-foreground">
              <HardDriveDownload aria-hidden className="mt-0.5 size-4 shrink-0" />
              <span>{savedResultsText(results.saved.connection, results.saved.count)}</span>
            </p>
          )}
          {products ? (
            products.length > 0 ? (
              <ProductGrid products={products} view={results.shownView} busy={results.placeholder} more={results.more} />
            ) : filtered ? (
              <ProductGridNoMatch search={view.q} onClear={clear} />
            ) : (
              <ProductGridEmpty />
            )
          ) : results.error ? (
            <ProductGridError message={results.error.message} onRetry={results.retry} retrying={results.retrying} />
          ) : (
            <ProductGridSkeleton />
          )}
        </section>

        <LazyShopFaq
          aboveSettled={!results.pending}
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
