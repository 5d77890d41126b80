import { ExternalLink } from 'lucide-react';
import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import type { Product } from '../../../../common/api';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '../../../components/ui/sheet';
import { OPEN_CART_EVENT } from '../../cart';
import { useShopNames } from '../../../lib/public-config';
import type { ProductPurchase } from '../hooks/use-product-purchase';
import { DetailPurchaseSection, DetailSpecSection } from './product-detail-body';
import { ProductGallery } from './product-gallery';

interface ProductDetailPanelProps {
  product: Product;
  /** Shared with the card, so the choice made in one shows in the other. */
  purchase: ProductPurchase;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** The detail side panel: a sheet from the right, full width on phones. */
export function ProductDetailPanel({ product, purchase, open, onOpenChange }: ProductDetailPanelProps) {
  const { productName } = useShopNames();
  // When the cart drawer opens (after an add), this modal panel steps aside: left open, it would
  // keep the page's scroll lock and focus trap under the drawer.
  useEffect(() => {
    if (!open) return;
    const close = () => onOpenChange(false);
    window.addEventListener(OPEN_CART_EVENT, close);
    return () => window.removeEventListener(OPEN_CART_EVENT, close);
  }, [open, onOpenChange]);
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent data-testid="detail-panel" aria-describedby={`detail-${product.id}-description`}>
        <header className="border-b border-border px-5 pt-5 pr-16 pb-4">
          <SheetDescription id={`detail-${product.id}-description`} tone="eyebrow">
            Product Details and Specifications
          </SheetDescription>
          <SheetTitle className="mt-1">{product.title}</SheetTitle>
        </header>
        <div className="flex-1 overflow-y-auto overscroll-contain px-5 py-5">
          <div className="grid gap-6">
            <ProductGallery product={product} eager />
            <DetailPurchaseSection product={product} purchase={purchase} productName={productName} />
            <DetailSpecSection product={product} productName={productName} heading="h3" />
            <Link
              to={`/product/${encodeURIComponent(product.id)}`}
              onClick={() => onOpenChange(false)}
              className="inline-flex h-11 items-center justify-center gap-2 rounded-full border border-input font-semibold hover:bg-muted focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
            >
              Open full page
              <ExternalLink aria-hidden className="size-4" />
            </Link>
          </div>
        </div>
      </SheetContent>
    </Sheet>
  );
}
