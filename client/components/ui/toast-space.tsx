/**
 * On a phone, toasts show at the top, below the bars there (the site header, the open cart
 * drawer's header). Placed right below such a bar, this is as tall as the toast area while it
 * shows a toast (`--toast-space`, which the toast area in toast.tsx writes), so the toast takes its own room instead
 * of covering what is below the bar: the admin's tabs, the drawer's lines and their remove
 * buttons. Wider screens show toasts at the bottom left, and this takes no room there.
 */
export function ToastSpace() {
  return <div aria-hidden data-testid="toast-space" className="h-(--toast-space,0px) shrink-0 sm:hidden" />;
}
