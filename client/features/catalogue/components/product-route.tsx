import type { ReactNode } from 'react';
import { useParams } from 'react-router-dom';
import type { Product } from '../../../../common/api';
import { useConnection } from '../../../lib/online-status';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useShopNames } from '../../../lib/public-config';
import { useProduct } from '../api/get-product';
import { useSavedProduct } from '../hooks/use-saved-products';
import { BackToShop, isNotFound, ProductLoadError, ProductNotFound } from './product-not-found';
import { ProductNotSaved } from './product-not-saved';

interface ProductRouteProps {
  className: string;
  /** What shows while the product loads. */
  loading: ReactNode;
  children: (product: Product) => ReactNode;
}

/**
 * The product a /product(s)/:id route shows, one rule for both product pages: the document title
 * follows it; not found and load errors (with a retry) are said the same way. Without the server,
 * the product opens from what the device saved, or the page says it is not saved.
 */
export function ProductRoute({ className, loading, children }: ProductRouteProps) {
  const { id = '' } = useParams();
  const { data, error, isError, isFetching, refetch } = useProduct(id);
  const connection = useConnection();
  // Without the server, a product the device saved in a page of the grid or the list still opens.
  const unanswered = isError && connection !== 'online' && !isNotFound(error);
  const saved = useSavedProduct(id, unanswered && !data);
  const product = data ?? saved;
  const { shopName } = useShopNames();
  useDocumentTitle(product?.title ?? null, shopName);

  return (
    <div className={className}>
      {product ? (
        children(product)
      ) : isError ? (
        isNotFound(error) ? (
          <ProductNotFound />
        ) : unanswered ? (
          <ProductNotSaved connection={connection} />
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
