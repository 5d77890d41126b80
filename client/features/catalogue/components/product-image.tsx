import { useState } from 'react';
import { cn } from '../../../lib/utils';

interface ProductImageProps {
  src: string | null | undefined;
  alt: string;
  className?: string;
  /** Shown when there is no image or it failed to load. */
  fallback: React.ReactNode;
  loading?: 'eager' | 'lazy';
  sizes?: string;
}

/** A product photo that hides itself and shows the fallback when missing or broken (spec §8). */
export function ProductImage({ src, alt, className, fallback, loading = 'lazy' }: ProductImageProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  if (!src || failedSrc === src) return <>{fallback}</>;
  return (
    <img
      src={src}
      alt={alt}
      loading={loading}
      decoding="async"
      width={800}
      height={800}
      onError={() => setFailedSrc(src)}
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
