import type { ReactNode } from 'react';
import { useParams } from 'react-router-dom';
import type { Product } from '../../../../common/api';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useShopNames } from '../../../lib/public-config';
import { useProduct } from '../api/get-product';
import { BackToShop, isNotFound, ProductLoadError, ProductNotFound } from './product-not-found';

interface ProductRouteProps {
  className: string;
  /** What shows while the product loads. */
  loading: ReactNode;
  children: (product: Product) => ReactNode;
}

/**
 * The product a /product(s)/:id route shows, one rule for both product pages: the document title
 * follows it; not found and load errors (with a retry) are said the same way.
 */
export function ProductRoute({ className, loading, children }: ProductRouteProps) {
  const { id = '' } = useParams();
  const { data: product, error, isError, isFetching, refetch } = useProduct(id);
  const { shopName } = useShopNames();
  useDocumentTitle(product?.title ?? null, shopName);

  return (
    <div className={className}>
      {product ? (
        children(product)
      ) : isError ? (
        isNotFound(error) ? (
          <ProductNotFound />
        ) : (
          <ProductLoadError error={error} onRetry={() => void refetch()} retrying={isFetching} />
        )
      ) : (
        loading
      )}
    </div>
  );
}

/** The product pages' first row: back to the shop, its padding flush with the page's edge. */
export function ProductPageBack() {
  return (
    <div className="-ml-4">
      <BackToShop />
    </div>
  );
}
