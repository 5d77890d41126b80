import { useState } from 'react';
import { responsiveImage, type ImageLayout } from '../../../../common/product-image-url';
import { cn } from '../../../lib/utils';

interface ProductImageProps {
  src: string | null | undefined;
  alt: string;
  /** Where it is shown: picks the `sizes` for the srcset of sized variants (common/product-image-url). */
  layout: ImageLayout;
  className?: string;
  /** Shown when there is no image or it failed to load. */
  fallback: React.ReactNode;
  /**
   * The page's main photo (the first card, the product page's image): loaded at once with high
   * priority (the server preloads the same URL). Every other photo loads lazily, decoded off the main thread.
   */
  priority?: boolean;
}

/**
 * A product photo that hides itself and shows the fallback when missing or broken.
 * Width and height give the square box the photo fills (object-cover), so nothing shifts as it loads.
 */
export function ProductImage({ src, alt, layout, className, fallback, priority = false }: ProductImageProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  if (!src || failedSrc === src) return <>{fallback}</>;
  const image = responsiveImage(src, layout);
  return (
    <img
      srcSet={image.srcSet}
      sizes={image.sizes}
      src={image.src}
      alt={alt}
      loading={priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
      decoding={priority ? undefined : 'async'}
      width={800}
      height={800}
      onError={() => setFailedSrc(src)}
      // A server-rendered photo may have failed before React was there to hear it: once its
      // request is over, decoding a broken one rejects.
      ref={(img) => {
        if (img?.complete && img.currentSrc) img.decode().catch(() => setFailedSrc(src));
      }}
      className={cn('size-full object-cover', className)}
    />
  );
}

/** The package-emoji placeholder used on cards. */
export function PackagePlaceholder({ className, label = 'No image' }: { className?: string; label?: string }) {
  return (
    <div
      role="img"
      aria-label={label}
      data-testid="image-placeholder"
      className={cn('flex size-full items-center justify-center bg-muted text-6xl select-none', className)}
    >
      <span aria-hidden>📦</span>
    </div>
  );
}
