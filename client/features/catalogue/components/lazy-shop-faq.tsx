import { useRef, type ComponentProps } from 'react';
import { useNearViewport } from '../../../lib/use-near-viewport';
import { useOnDemand } from '../../../lib/use-on-demand';
import type { ShopFaq as ShopFaqComponent } from './shop-faq';

const loadShopFaq = () => import('./shop-faq');

/**
 * The FAQ, below the product grid: its code (the Radix accordion) loads when the shopper scrolls
 * within a screen of it, not with the first screen (`aboveSettled`: the grid above is no longer
 * its loading skeleton, whose height says nothing of the page's). Until then an empty block of about its closed
 * height holds its place (measured with the demo shop: 455 px on a 390 px phone, where two
 * questions wrap, 391 px from 640 px), so nothing below it jumps when it appears.
 */
export function LazyShopFaq({ aboveSettled, ...props }: ComponentProps<typeof ShopFaqComponent> & { aboveSettled: boolean }) {
  const placeholder = useRef<HTMLDivElement>(null);
  const near = useNearViewport(placeholder, aboveSettled);
  const faq = useOnDemand(near, loadShopFaq);
  if (faq) return <faq.ShopFaq {...props} />;
  return <div ref={placeholder} aria-hidden data-testid="faq-placeholder" className="min-h-[455px] sm:min-h-[391px]" />;
}
