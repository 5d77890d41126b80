import { useParams } from 'react-router-dom';
import type { Product } from '../../../../common/api';
import { formatPogPrice } from '../../../lib/format-pog-price';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useShopNames } from '../../../lib/public-config';
import { useProduct } from '../api/get-product';
import { AddToCartButton } from '../components/add-to-cart-button';
import { ProductDescription } from '../components/product-description';
import { BackToShop, isNotFound, ProductLoadError, ProductNotFound } from '../components/product-not-found';
import { PackagePlaceholder, ProductImage } from '../components/product-image';
import { useProductPurchase } from '../hooks/use-product-purchase';

/** /products/:id — the spec's simple product page: image, title, description, min price, add. */
export function SimpleProductPage() {
  const { id = '' } = useParams();
  const { data: product, error, isError, isFetching, refetch } = useProduct(id);
  const { shopName } = useShopNames();
  useDocumentTitle(product?.title ?? null, shopName);

  return (
    <div className="mx-auto max-w-3xl px-4 py-6 sm:px-6">
      {product ? (
        <SimpleProduct key={product.id} product={product} />
      ) : isError ? (
        isNotFound(error) ? (
          <ProductNotFound />
        ) : (
          <ProductLoadError error={error} onRetry={() => void refetch()} retrying={isFetching} />
        )
      ) : (
        <p role="status" className="py-16 text-center text-lg text-muted-foreground">
          Loading...
        </p>
      )}
    </div>
  );
}

/** The variant at the minimum price, preferring one that is not sold out. */
function cheapestVariantId(product: Product): string | null {
  const ranked = [...product.variants]
    .filter((v) => v.id)
    .sort((a, b) => Number(a.isSoldOut) - Number(b.isSoldOut) || Number(a.price) - Number(b.price));
  return ranked[0]?.id ?? null;
}

function SimpleProduct({ product }: { product: Product }) {
  // No selector on this page: the button adds one of the variant the shown price belongs to.
  const purchase = useProductPurchase(product, cheapestVariantId(product));
  return (
    <article data-testid="simple-product" className="grid gap-6">
      <div className="-ml-4">
        <BackToShop />
      </div>
      <div className="aspect-square overflow-hidden rounded-(--radius-cap) bg-muted sm:aspect-[4/3]">
        <ProductImage
          src={product.featuredImage?.url ?? product.images[0]?.url}
          alt={product.title}
          loading="eager"
          fallback={<PackagePlaceholder label={`No image for ${product.title}`} />}
        />
      </div>
      <h1 className="text-3xl font-black tracking-tight">{product.title}</h1>
      <ProductDescription description={product.description} />
      <p className="text-2xl font-extrabold text-brand tabular-nums" data-testid="product-price">
        {formatPogPrice(product.priceRange.minVariantPrice.amount)}
      </p>
      <AddToCartButton purchase={purchase} variant="card" className="sm:w-auto sm:justify-self-start" />
    </article>
  );
}

export { SimpleProductPage as Component };
