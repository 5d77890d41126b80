import type { Product } from '../../../../common/api';
import { Skeleton } from '../../../components/ui/skeleton';
import { useShopNames } from '../../../lib/public-config';
import { DetailPurchaseSection, DetailSpecSection } from '../components/product-detail-body';
import { ProductGallery } from '../components/product-gallery';
import { ProductPageBack, ProductRoute } from '../components/product-route';
import { useProductPurchase } from '../hooks/use-product-purchase';

/** /product/:id — the full detail (the side panel's content) as a page. */
export function ProductPage() {
  return (
    <ProductRoute className="mx-auto max-w-6xl px-4 py-6 sm:px-6 lg:px-8" loading={<ProductPageSkeleton />}>
      {(product) => <ProductDetailView key={product.id} product={product} />}
    </ProductRoute>
  );
}

function ProductDetailView({ product }: { product: Product }) {
  const purchase = useProductPurchase(product);
  const { productName } = useShopNames();
  return (
    <article data-testid="product-page" className="grid gap-8">
      <ProductPageBack />
      <div className="grid gap-8 md:grid-cols-2 md:items-start">
        <ProductGallery product={product} eager />
        <div className="grid gap-5">
          <div>
            <p className="text-xs font-semibold tracking-wide text-brand uppercase">Product Details and Specifications</p>
            <h1 className="mt-1 text-3xl font-black tracking-tight">{product.title}</h1>
          </div>
          <DetailPurchaseSection product={product} purchase={purchase} productName={productName} />
        </div>
      </div>
      <DetailSpecSection product={product} productName={productName} heading="h2" />
    </article>
  );
}

function ProductPageSkeleton() {
  return (
    <div className="grid gap-8 md:grid-cols-2" role="status" aria-live="polite">
      <span className="sr-only">Loading product…</span>
      <Skeleton shape="cap" className="aspect-square" />
      <div className="grid content-start gap-4">
        <Skeleton className="h-9 w-3/4" />
        <Skeleton className="h-8 w-1/3" />
        <Skeleton shape="pill" className="h-11 w-full" />
        <Skeleton shape="pill" className="h-12 w-full" />
        <Skeleton className="h-24 w-full" />
      </div>
    </div>
  );
}

export { ProductPage as Component };
