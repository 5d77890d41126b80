import { Maximize2 } from 'lucide-react';
import { lazy, memo, Suspense, useState, type CSSProperties } from 'react';
import type { Product } from '../../../../common/api';
import { productImages } from '../../../../common/product-image-url';
import { SOLD_OUT_LABEL } from '../../../../common/availability';
import { firstDescriptionLine } from '../../../../common/clean-description';
import { formatPogPrice } from '../../../lib/format-pog-price';
import { cn } from '../../../lib/utils';
import { useProductPurchase } from '../hooks/use-product-purchase';
import { PackagePlaceholder, ProductImage } from './product-image';
import { PurchaseControls } from './purchase-controls';
import { UsdReference } from '../../../components/ui/usd-reference';

const ProductDetailPanel = lazy(() => import('./product-detail-panel').then((m) => ({ default: m.ProductDetailPanel })));

/** Most dots under a card image; beyond that a '+N' chip. */
export const MAX_IMAGE_DOTS = 5;
interface ProductCardProps {
  product: Product;
  index: number;
  /**
   * Seconds before the card fades in, once the grid reveals it (on screen first, or scrolled into
   * view: lib/card-stagger); undefined until then, the card kept transparent where motion is allowed.
   */
  revealDelay?: number;
}

/** Memoized: revealing a card (its delay) re-renders that card, not the whole grid. */
export const ProductCard = memo(function ProductCard({ product, index, revealDelay }: ProductCardProps) {
  const purchase = useProductPurchase(product);
  const [detailsOpen, setDetailsOpen] = useState(false);
  // Mount the panel on first open only, then keep it so its close animation can play.
  const [detailsMounted, setDetailsMounted] = useState(false);
  const openDetails = () => {
    setDetailsMounted(true);
    setDetailsOpen(true);
  };
  const revealed = revealDelay !== undefined;
  const style: CSSProperties | undefined = revealed ? { animationDelay: `${revealDelay}s` } : undefined;

  return (
    <article
      data-testid="product-card"
      data-product-id={product.id}
      data-card-index={index}
      data-revealed={revealed || undefined}
      aria-labelledby={`product-${product.id}-title`}
      style={style}
      className={cn(
        'flex flex-col overflow-hidden rounded-(--radius-cap) border border-border bg-card shadow-sm',
        'motion-safe:transition-transform motion-safe:duration-200 motion-safe:hover:scale-[1.02] hover:shadow-md',
        revealed ? 'motion-safe:animate-card-in' : 'motion-safe:opacity-0',
      )}
    >
      <CardImage product={product} soldOut={purchase.isSoldOut} onOpenDetails={openDetails} priority={index === 0} />
      <div className="flex flex-1 flex-col gap-3 p-4">
        <div className="grid gap-1">
          <h3 id={`product-${product.id}-title`} className="line-clamp-2 text-lg leading-snug font-bold">
            {product.title}
          </h3>
          <p className="line-clamp-2 text-sm text-muted-foreground">{firstDescriptionLine(product.description)}</p>
        </div>
        <div className="flex flex-wrap items-baseline gap-x-2">
          <p className="text-xl font-extrabold text-brand tabular-nums" data-testid="product-price">
            {formatPogPrice(purchase.selectedVariant?.price ?? product.price)}
          </p>
          <UsdReference pogs={purchase.selectedVariant?.price ?? product.price} />
        </div>
        <div className="mt-auto">
          <PurchaseControls purchase={purchase} variant="card" />
        </div>
      </div>
      {detailsMounted && (
        <Suspense fallback={null}>
          <ProductDetailPanel product={product} purchase={purchase} open={detailsOpen} onOpenChange={setDetailsOpen} />
        </Suspense>
      )}
    </article>
  );
});

interface CardImageProps {
  product: Product;
  soldOut: boolean;
  onOpenDetails: () => void;
  /** The first card's photo: the home's largest paint, preloaded by the server. */
  priority: boolean;
}

/** Tap/click cycles through the images when there is more than one. */
function CardImage({ product, soldOut, onOpenDetails, priority }: CardImageProps) {
  const images = productImages(product);
  const [current, setCurrent] = useState(0);
  const index = current < images.length ? current : 0;
  const image = images[index];
  const extra = images.length - MAX_IMAGE_DOTS;

  return (
    <div className="relative aspect-square overflow-hidden bg-muted" data-testid="card-image" data-image-index={index}>
      <ProductImage
        key={image?.url}
        src={image?.url}
        alt={image?.alt || product.title}
        layout="card"
        // Only the photo shown first: the next ones (tap to cycle) load when asked for.
        priority={priority && index === 0}
        fallback={<PackagePlaceholder label={`No image for ${product.title}`} />}
      />
      {images.length > 1 && (
        <button
          type="button"
          className="absolute inset-0 cursor-pointer focus-visible:outline-3 focus-visible:-outline-offset-4 focus-visible:outline-ring"
          aria-label={`Show next image of ${product.title} (image ${index + 1} of ${images.length})`}
          onClick={() => setCurrent((index + 1) % images.length)}
        />
      )}
      {soldOut && (
        <div data-testid="sold-out-overlay" className="pointer-events-none absolute inset-0 flex items-center justify-center bg-black/55">
          <span className="rounded-full border-2 border-white bg-black/60 px-5 py-2 text-lg font-extrabold tracking-widest text-white">
            {SOLD_OUT_LABEL}
          </span>
        </div>
      )}
      {images.length > 1 && (
        <div className="pointer-events-none absolute inset-x-0 bottom-3 flex items-center justify-center gap-1.5" aria-hidden>
          {images.slice(0, MAX_IMAGE_DOTS).map((img, i) => (
            <span
              key={`${img.url}-${i}`}
              data-testid="image-dot"
              data-active={i === index || undefined}
              className={cn(
                'size-2.5 rounded-full border border-black/20 shadow-sm',
                i === index ? 'bg-brand ring-2 ring-white' : 'bg-white/90',
              )}
            />
          ))}
          {extra > 0 && (
            <span
              data-testid="image-more"
              className={cn(
                'rounded-full px-2 py-0.5 text-xs font-bold shadow-sm',
                index >= MAX_IMAGE_DOTS ? 'bg-brand text-brand-foreground' : 'bg-white/90 text-foreground',
              )}
            >
              +{extra}
            </span>
          )}
        </div>
      )}
      <button
        type="button"
        data-testid="details-button"
        aria-label={`View details for ${product.title}`}
        onClick={onOpenDetails}
        className="absolute top-3 right-3 inline-flex size-11 items-center justify-center rounded-full bg-white/95 text-foreground shadow-md hover:bg-white hover:text-brand focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
      >
        <Maximize2 aria-hidden className="size-5" />
      </button>
    </div>
  );
}
