import { useState } from 'react';
import { cn } from '../../../lib/utils';

/** A line's thumbnail; the package emoji when there is none or it fails to load. */
export function CartItemImage({ src, title, className }: { src: string | null; title: string; className?: string }) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  return (
    <div className={cn('shrink-0 overflow-hidden rounded-xl border border-border bg-muted', className)}>
      {src && failedSrc !== src ? (
        <img
          src={src}
          alt=""
          loading="lazy"
          decoding="async"
          width={160}
          height={160}
          onError={() => setFailedSrc(src)}
          className="size-full object-cover"
        />
      ) : (
        <div
          role="img"
          aria-label={`No image for ${title}`}
          data-testid="cart-item-placeholder"
          className="flex size-full items-center justify-center text-2xl select-none"
        >
          <span aria-hidden>📦</span>
        </div>
      )}
    </div>
  );
}
