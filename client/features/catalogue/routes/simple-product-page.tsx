import type { Product } from '../../../../common/api';
import { simplePageImageUrl } from '../../../../common/product-image-url';
import { formatPogPrice } from '../../../lib/format-pog-price';
import { AddToCartButton } from '../components/add-to-cart-button';
import { ProductDescription } from '../components/product-description';
import { PackagePlaceholder, ProductImage } from '../components/product-image';
import { ProductPageBack, ProductRoute } from '../components/product-route';
import { useProductPurchase } from '../hooks/use-product-purchase';
import { cheapestVariantId } from '../lib/cheapest-variant';

/** /products/:id — the simple product page: image, title, description, min price, add. */
export function SimpleProductPage() {
  const loading = (
    <p role="status" className="py-16 text-center text-lg text-muted-foreground">
      Loading...
    </p>
  );
  return (
    <ProductRoute className="mx-auto max-w-3xl px-4 py-6 sm:px-6" loading={loading}>
      {(product) => <SimpleProduct key={product.id} product={product} />}
    </ProductRoute>
  );
}

function SimpleProduct({ product }: { product: Product }) {
  // No selector on this page: the button adds one of the variant the shown price belongs to.
  const purchase = useProductPurchase(product, cheapestVariantId(product));
  return (
    <article data-testid="simple-product" className="grid gap-6">
      <ProductPageBack />
      <div className="aspect-square overflow-hidden rounded-(--radius-cap) bg-muted sm:aspect-[4/3]">
        <ProductImage
          src={simplePageImageUrl(product)}
          alt={product.title}
          layout="simplePage"
          priority
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
