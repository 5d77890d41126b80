import { useConfig, useShopNames } from '../../../lib/public-config';
import { useProducts } from '../api/get-products';
import { CommunityLink } from '../components/community-link';
import { ExclusiveNotice } from '../components/exclusive-notice';
import { FlashSaleBanner } from '../components/flash-sale-banner';
import { HeritageSection } from '../components/heritage-section';
import { LazyShopFaq } from '../components/lazy-shop-faq';
import { ProductGrid, ProductGridEmpty, ProductGridError, ProductGridSkeleton } from '../components/product-grid';
import { ShopHero } from '../components/shop-hero';
import { Web3Footer } from '../components/web3-footer';
import { useCelebration } from '../hooks/use-celebration';
import { useDocumentTitle } from '../../../lib/use-document-title';

export function ShopHomePage() {
  const names = useShopNames();
  const { data: config } = useConfig();
  const products = useProducts();
  useDocumentTitle(null, names.shopName);
  useCelebration(Boolean(products.data && products.data.length > 0));

  return (
    <>
      <ShopHero productName={names.productName} currencyLabel={names.currencyLabel} />
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-6 sm:px-6 sm:py-8 lg:px-8">
        <div className="grid gap-3">
          <ExclusiveNotice productName={names.productName} currencyLabel={names.currencyLabel} />
          <FlashSaleBanner />
        </div>

        <section aria-labelledby="collection-title" className="grid gap-4">
          <div className="flex items-baseline justify-between gap-3">
            <h2 id="collection-title" className="text-2xl font-black tracking-tight">
              The Collection
            </h2>
            {products.data && products.data.length > 0 && (
              <p className="text-sm text-muted-foreground" data-testid="product-count">
                {products.data.length} {products.data.length === 1 ? 'item' : 'items'}
              </p>
            )}
          </div>
          {products.data ? (
            products.data.length > 0 ? (
              <ProductGrid products={products.data} />
            ) : (
              <ProductGridEmpty />
            )
          ) : products.isError ? (
            <ProductGridError message={products.error.message} onRetry={() => void products.refetch()} retrying={products.isFetching} />
          ) : (
            <ProductGridSkeleton />
          )}
        </section>

        <LazyShopFaq
          aboveSettled={!products.isPending}
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
