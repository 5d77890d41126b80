import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useState } from 'react';
import type { InventoryItem } from '../../../../common/admin';
import { Button } from '../../../components/ui/button';

type Image = InventoryItem['shopifyData']['images'][number];

/**
 * The group card's images: previous/next only when there is more than one. Each is
 * shown whole (contained, not cropped to the box): the admin sees every corner of the photo,
 * whatever its shape.
 */
export function ImageCarousel({ images, title }: { images: readonly Image[]; title: string }) {
  const [index, setIndex] = useState(0);
  const [failed, setFailed] = useState<ReadonlySet<string>>(new Set());
  const current = images.length > 0 ? images[index % images.length] : null;
  const step = (by: number) => setIndex((i) => (i + by + images.length) % images.length);

  return (
    <div className="relative aspect-[4/3] overflow-hidden bg-muted" data-testid="group-carousel" data-image-index={index}>
      {current && !failed.has(current.url) ? (
        <img
          src={current.url}
          alt={current.alt ?? title}
          loading="lazy"
          decoding="async"
          className="size-full object-contain"
          onError={() => setFailed((f) => new Set(f).add(current.url))}
        />
      ) : (
        <div role="img" aria-label="No image" className="flex size-full items-center justify-center text-5xl select-none">
          <span aria-hidden>📦</span>
        </div>
      )}
      {images.length > 1 && (
        <>
          <Button
            variant="overlay"
            size="icon"
            aria-label="Previous image"
            className="absolute top-1/2 left-2 -translate-y-1/2"
            onClick={() => step(-1)}
            data-testid="carousel-previous"
          >
            <ChevronLeft aria-hidden />
          </Button>
          <Button
            variant="overlay"
            size="icon"
            aria-label="Next image"
            className="absolute top-1/2 right-2 -translate-y-1/2"
            onClick={() => step(1)}
            data-testid="carousel-next"
          >
            <ChevronRight aria-hidden />
          </Button>
          <span className="absolute right-2 bottom-2 rounded-full bg-black/60 px-2 py-0.5 text-xs font-semibold text-white tabular-nums">
            {(index % images.length) + 1} / {images.length}
          </span>
        </>
      )}
    </div>
  );
}
