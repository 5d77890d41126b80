import { useCallback, useEffect, useState } from 'react';
import { preloadOnDemand, useOnDemand } from '../../../lib/use-on-demand';
import { CART_TOGGLE_ATTRIBUTE } from '../lib/cart-events';
import type { CartDrawerProps } from './cart-drawer';

const loadCartDrawer = () => import('./cart-drawer');

/** Starts loading the drawer's code before it is asked for (a tap on the way, an add to cart). */
export function preloadCartDrawer(): Promise<void> {
  return preloadOnDemand(loadCartDrawer);
}

/**
 * The cart drawer, mounted on its first opening: its code (the sheet, the line items, the pay
 * button) is not in the main bundle. It loads when the shopper reaches for the header's cart
 * button (hover, pointer down, focus) or adds to the cart, and the drawer shows as soon as it has
 * arrived. From then on it stays mounted, so closing animates and reopening is instant. If the
 * code cannot be loaded, the drawer stays closed and the next opening tries again.
 */
export function CartDrawer(props: CartDrawerProps) {
  const { open, onOpenChange } = props;
  const [wanted, setWanted] = useState(open);
  if (!wanted && open) setWanted(true);
  const close = useCallback(() => {
    setWanted(false);
    onOpenChange(false);
  }, [onOpenChange]);
  const drawer = useOnDemand(wanted, loadCartDrawer, close);

  // Intent on the header's cart button: load before the click lands.
  useEffect(() => {
    if (drawer) return;
    const onIntent = (event: Event) => {
      if (event.target instanceof Element && event.target.closest(`[${CART_TOGGLE_ATTRIBUTE}]`)) void preloadCartDrawer();
    };
    const events = ['pointerover', 'pointerdown', 'focusin'] as const;
    for (const type of events) document.addEventListener(type, onIntent, true);
    return () => {
      for (const type of events) document.removeEventListener(type, onIntent, true);
    };
  }, [drawer]);

  return drawer ? <drawer.CartDrawer {...props} /> : null;
}
