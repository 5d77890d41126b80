import type { Product } from '../../../../common/api';
import { formatPogPrice } from '../../../lib/format-pog-price';
import type { ProductPurchase } from '../hooks/use-product-purchase';
import { HeritageNote } from './heritage-note';
import { ProductDescription } from './product-description';
import { HeritageCollectionTable, ProductDetailsTable, type SpecHeading } from './product-spec-tables';
import { PurchaseControls } from './purchase-controls';
import { UsdReferenceFigure as UsdReference } from '../../../components/ui/usd-reference-figure';

/** Price with 'Exclusive {product} pricing'. */
export function DetailPrice({ price, productName }: { price: string; productName: string }) {
  return (
    <div>
      <div className="flex flex-wrap items-baseline gap-x-3">
        <p className="text-3xl font-extrabold text-brand tabular-nums" data-testid="detail-price">
          {formatPogPrice(price)}
        </p>
        <UsdReference pogs={price} className="text-base" />
      </div>
      <p className="text-sm font-medium text-muted-foreground">Exclusive {productName} pricing</p>
    </div>
  );
}

interface DetailBodyProps {
  product: Product;
  purchase: ProductPurchase;
  productName: string;
}

/** Price, controls and description: the part beside the gallery. */
export function DetailPurchaseSection({ product, purchase, productName }: DetailBodyProps) {
  return (
    <div className="grid gap-5">
      <DetailPrice price={purchase.selectedVariant?.price ?? product.price} productName={productName} />
      <PurchaseControls purchase={purchase} variant="detail" />
      <section aria-label="Description">
        <ProductDescription description={product.description} />
      </section>
    </div>
  );
}

/** The tables and heritage note below, headed one level below the page's or the panel's title (`heading`). */
export function DetailSpecSection({ product, productName, heading }: Omit<DetailBodyProps, 'purchase'> & { heading: SpecHeading }) {
  return (
    <div className="grid gap-4">
      <HeritageCollectionTable product={product} productName={productName} heading={heading} />
      <ProductDetailsTable product={product} productName={productName} heading={heading} />
      <HeritageNote productName={productName} heading={heading} />
    </div>
  );
}
