/**
 * The header's round controls (44 px touch target; icon-only on phones, with the label from 640 px
 * up): Orders, Admin, the wallet control and the cart button share it.
 */
export const navItemClass =
  'relative inline-flex h-11 min-w-11 items-center justify-center gap-1.5 rounded-full px-0 sm:px-3 text-sm font-semibold text-foreground ' +
  'hover:bg-muted focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring [&_svg]:size-5 [&_svg]:shrink-0';
