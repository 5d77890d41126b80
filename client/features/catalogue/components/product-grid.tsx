import { LoaderCircle, PackageOpen, RefreshCw, SearchX, TriangleAlert } from 'lucide-react';
import { startTransition, Suspense, useEffect, useEffectEvent, useMemo, useRef, useState } from 'react';
import type { Product } from '../../../../common/api';
import { Button } from '../../../components/ui/button';
import { Skeleton } from '../../../components/ui/skeleton';
import { useOnServerRenderedPage } from '../../../lib/server-rendered';
import { cn } from '../../../lib/utils';
import { cardRevealDelays } from '../lib/card-stagger';
import { ProductCard } from './product-card';

const GRID = 'grid grid-cols-1 gap-5 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4';

/** The next page of the grid's view: whether there is one, and how to ask for it. */
export interface MoreProducts {
  hasMore: boolean;
  loading: boolean;
  /** Why the last request for more failed, if it did. */
  error: string | null;
  onLoadMore: () => void;
}

/**
 * The grid, in pages: the products loaded so far, and below them, while the view has more, a
 * "Load more" button that the grid also presses itself as the shopper scrolls near it.
 */
export function ProductGrid({
  products,
  view = '',
  more,
  busy = false,
}: {
  products: Product[];
  /** Names the view (search, filters, sort) shown: another view's cards come in steps again. */
  view?: string;
  more?: MoreProducts;
  busy?: boolean;
}) {
  const shown = useCardsShown(products, view);
  const complete = shown.length === products.length;
  const { gridRef, delays } = useCardReveal(shown, complete);
  return (
    <div className="grid gap-6">
      <div
        className={cn(GRID, 'motion-safe:transition-opacity', busy && 'opacity-60')}
        data-testid="product-grid"
        aria-busy={busy || undefined}
        ref={gridRef}
      >
        {shown.map((product, index) => (
          // Each card its own boundary: hydrating the server's cards comes after the page around
          // them, in slices that leave the page responsive, not in one long task.
          <Suspense key={product.id} fallback={null}>
            <ProductCard product={product} index={index} revealDelay={delays.get(product.id)} />
          </Suspense>
        ))}
      </div>
      {more?.hasMore && <LoadMore more={more} watch={complete && !busy} />}
    </div>
  );
}

/** How far below the screen the end of the grid is when the next page is asked for. */
const LOAD_AHEAD = '1200px 0px';

/**
 * The "Load more" button, pressed by the grid itself once it comes within LOAD_AHEAD of the
 * screen (`watch`: not while the cards already loaded are still being added); the button stays
 * for a keyboard, a screen reader, or a browser without IntersectionObserver.
 */
function LoadMore({ more, watch }: { more: MoreProducts; watch: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  const load = useEffectEvent(() => {
    if (!more.loading && !more.error) more.onLoadMore();
  });
  useEffect(() => {
    const target = ref.current;
    if (!watch || !target || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && load(), {
      rootMargin: LOAD_AHEAD,
    });
    observer.observe(target);
    return () => observer.disconnect();
  }, [watch, more.loading]);

  return (
    <div ref={ref} className="grid justify-items-center gap-2" data-testid="load-more">
      {more.error && (
        <p role="alert" className="text-center text-sm text-destructive">
          We couldn&apos;t load more products: {more.error}
        </p>
      )}
      <Button variant="outline" onClick={more.onLoadMore} disabled={more.loading} busy={more.loading} aria-live="polite">
        {more.loading ? <LoaderCircle aria-hidden className="motion-safe:animate-spin" /> : null}
        {more.loading ? 'Loading more…' : more.error ? 'Try Again' : 'Load more'}
      </Button>
    </div>
  );
}

/** Cards added per step: after the first ones on the page a visit starts on, and from each page loaded. */
const CARDS_PER_STEP = 3;

/**
 * The cards to render. On the page a visit starts on, when the server rendered it, the server and
 * the hydration render the first cards only (REVEALED_FROM_START: a phone's screen and a desktop's
 * first row), which keeps the page's HTML, its first layout and the hydration small; the rest
 * follow right after, CARDS_PER_STEP at a time, each step a transition React renders in slices
 * and a commit small enough to lay out without blocking a tap. A page the browser renders (coming
 * back to the shop) renders the cards it has at once, so a restored scroll position finds its
 * card; the cards of each page loaded after, and of another view, come in steps again.
 */
function useCardsShown(products: Product[], view: string): Product[] {
  const fromServer = useOnServerRenderedPage();
  const [count, setCount] = useState(() => (fromServer ? REVEALED_FROM_START : products.length));
  const [countedView, setCountedView] = useState(view);
  if (view !== countedView) {
    setCountedView(view);
    setCount(REVEALED_FROM_START);
  }
  const done = count >= products.length;
  useEffect(() => {
    if (done) return;
    const timer = setTimeout(() => startTransition(() => setCount((shown) => shown + CARDS_PER_STEP)), 0);
    return () => clearTimeout(timer);
  }, [count, done]);
  return useMemo(() => (done ? products : products.slice(0, count)), [count, done, products]);
}

/**
 * When each card fades in (lib/card-stagger): the cards on screen first, staggered by their
 * index, then the others as they are scrolled into view. With reduced motion, or without
 * IntersectionObserver, every card is revealed at once (and, reduced, not animated at all).
 */
function useCardReveal(products: Product[], complete: boolean) {
  const gridRef = useRef<HTMLDivElement>(null);
  // The first cards are revealed from the start, in the server's HTML too: they fade in with the
  // first paint, before any JavaScript runs (and are the home's largest paint on a phone).
  const [delays, setDelays] = useState<ReadonlyMap<string, number>>(() => initialReveal(products));
  const firstScreen = useRef(true);
  const revealed = useRef(new Set(delays.keys()));

  useEffect(() => {
    const grid = gridRef.current;
    if (!grid) return;
    const reveal = (cards: HTMLElement[]) => {
      const fresh = cards.filter((card) => !revealed.current.has(card.dataset.productId!));
      if (fresh.length === 0) return;
      const byIndex = new Map(fresh.map((card) => [Number(card.dataset.cardIndex), card.dataset.productId!]));
      const batch = cardRevealDelays([...byIndex.keys()], firstScreen.current);
      // While the grid is still filling in (its first cards, then the rest in steps), what is on
      // screen is still the first screen: the stagger follows the index across the steps.
      if (complete) firstScreen.current = false;
      for (const id of byIndex.values()) revealed.current.add(id);
      setDelays((previous) => {
        const next = new Map(previous);
        for (const [index, delay] of batch) next.set(byIndex.get(index)!, delay);
        return next;
      });
    };
    const cards = [...grid.querySelectorAll<HTMLElement>('[data-card-index]')];
    const reducedMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    if (reducedMotion || typeof IntersectionObserver === 'undefined') {
      reveal(cards);
      return;
    }
    const observer = new IntersectionObserver((entries) => {
      const shown = entries.filter((entry) => entry.isIntersecting).map((entry) => entry.target as HTMLElement);
      for (const card of shown) observer.unobserve(card);
      reveal(shown);
      // The first report covers every card: an empty first screen still ends the first screen.
      if (complete) firstScreen.current = false;
    });
    for (const card of cards) if (!revealed.current.has(card.dataset.productId!)) observer.observe(card);
    return () => observer.disconnect();
  }, [products, complete]);

  return { gridRef, delays };
}

/** How many cards are revealed before the grid is measured: a desktop's first row, a phone's first card and more. */
export const REVEALED_FROM_START = 4;

function initialReveal(products: Product[]): ReadonlyMap<string, number> {
  const first = products.slice(0, REVEALED_FROM_START);
  const delays = cardRevealDelays(
    first.map((_, index) => index),
    true,
  );
  return new Map(first.map((product, index) => [product.id, delays.get(index)!]));
}

export function ProductGridSkeleton({ count = 8 }: { count?: number }) {
  return (
    <div className={GRID} data-testid="product-grid-loading" role="status" aria-live="polite">
      <span className="sr-only">Loading products…</span>
      {Array.from({ length: count }, (_, i) => (
        <div key={i} className="overflow-hidden rounded-(--radius-cap) border border-border bg-card">
          <Skeleton shape="square" className="aspect-square" />
          <div className="grid gap-3 p-4">
            <Skeleton className="h-6 w-3/4" />
            <Skeleton className="h-4 w-full" />
            <Skeleton className="h-7 w-1/3" />
            <Skeleton shape="pill" className="h-11 w-full" />
            <Skeleton shape="pill" className="h-12 w-full" />
          </div>
        </div>
      ))}
    </div>
  );
}

export function ProductGridError({ message, onRetry, retrying }: { message: string; onRetry: () => void; retrying: boolean }) {
  return (
    <div
      role="alert"
      data-testid="products-error"
      className="mx-auto grid max-w-md justify-items-center gap-3 rounded-(--radius-cap) border border-border bg-card p-8 text-center"
    >
      <TriangleAlert aria-hidden className="size-10 text-destructive" />
      <h3 className="text-lg font-bold">We couldn&apos;t load the products</h3>
      <p className="text-sm break-words text-muted-foreground">{message}</p>
      <Button onClick={onRetry} disabled={retrying}>
        <RefreshCw aria-hidden className={retrying ? 'motion-safe:animate-spin' : undefined} />
        Try Again
      </Button>
    </div>
  );
}

/** A search or filters that match nothing (the catalogue itself has products: see ProductGridEmpty). */
export function ProductGridNoMatch({ search, onClear }: { search: string; onClear: () => void }) {
  return (
    <div
      data-testid="products-no-match"
      role="status"
      className="mx-auto grid max-w-md justify-items-center gap-3 rounded-(--radius-cap) border border-dashed border-input bg-card p-8 text-center"
    >
      <SearchX aria-hidden className="size-10 text-muted-foreground" />
      <h3 className="text-lg font-bold break-words">{search ? `No products match "${search}"` : 'No products match these filters'}</h3>
      <p className="text-sm text-muted-foreground">Try other words, or clear the search and filters to see every product.</p>
      <Button variant="outline" onClick={onClear}>
        Clear filters
      </Button>
    </div>
  );
}

export function ProductGridEmpty() {
  return (
    <div
      data-testid="products-empty"
      className="mx-auto grid max-w-md justify-items-center gap-3 rounded-(--radius-cap) border border-dashed border-input bg-card p-8 text-center"
    >
      <PackageOpen aria-hidden className="size-10 text-muted-foreground" />
      <h3 className="text-lg font-bold">No products yet</h3>
      <p className="text-sm text-muted-foreground">New heritage pieces are on their way. Check back soon.</p>
    </div>
  );
}
