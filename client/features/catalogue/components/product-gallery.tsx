import { useState } from 'react';
import type { Product } from '../../../../common/api';
import { productImages } from '../../../../common/product-image-url';
import { cn } from '../../../lib/utils';
import { ProductImage } from './product-image';

/** Most thumbnails under the large image. */
export const MAX_THUMBNAILS = 4;

/** Large image with up to 4 thumbnails and '+N more images'. */
export function ProductGallery({ product, eager = false }: { product: Product; eager?: boolean }) {
  const images = productImages(product);
  const [current, setCurrent] = useState(0);
  const index = current < images.length ? current : 0;
  const image = images[index];
  const more = images.length - MAX_THUMBNAILS;

  return (
    <div className="grid gap-3">
      <div className="aspect-square overflow-hidden rounded-(--radius-cap) bg-muted">
        <ProductImage
          key={image?.url}
          src={image?.url}
          alt={image?.alt || product.title}
          layout="productPage"
          // The first photo is the page's largest paint (preloaded by the server); one picked later loads at once too.
          priority={eager}
          fallback={
            <div
              data-testid="image-placeholder"
              className="flex size-full flex-col items-center justify-center gap-2 text-muted-foreground"
            >
              <span aria-hidden className="text-6xl">
                📦
              </span>
              <span className="font-medium">No image available</span>
            </div>
          }
        />
      </div>
      {images.length > 1 && (
        <div className="flex flex-wrap items-center gap-2">
          {images.slice(0, MAX_THUMBNAILS).map((thumb, i) => (
            <button
              key={`${thumb.url}-${i}`}
              type="button"
              data-testid="detail-thumbnail"
              aria-label={`Show image ${i + 1} of ${images.length}`}
              aria-pressed={i === index}
              onClick={() => setCurrent(i)}
              className={cn(
                'size-16 overflow-hidden rounded-xl border-2 bg-muted focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
                i === index ? 'border-brand' : 'border-transparent hover:border-border',
              )}
            >
              <ProductImage key={thumb.url} src={thumb.url} alt="" layout="thumbnail" fallback={<span aria-hidden>📦</span>} />
            </button>
          ))}
          {more > 0 && (
            <span data-testid="detail-more-images" className="text-sm font-medium text-muted-foreground">
              +{more} more images
            </span>
          )}
        </div>
      )}
    </div>
  );
}
