import { useState } from 'react';
import { useOnDemand } from '../../lib/use-on-demand';
import { useToasts } from './use-toast';

const loadToaster = () => import('./toast');

/** Starts loading the toast UI when a toast is about to be shown (e.g. while a request runs). */
export function preloadToaster(): void {
  void loadToaster().catch(() => undefined);
}

/**
 * The toast area, mounted from the first toast on: the store (use-toast.ts) is in the main
 * bundle, the Radix toast UI loads when something is first shown, and the toast appears as soon
 * as it arrives. Once mounted it stays, so later toasts show at once.
 */
export function LazyToaster() {
  const toasts = useToasts();
  const [wanted, setWanted] = useState(false);
  if (!wanted && toasts.length > 0) setWanted(true);
  const ui = useOnDemand(wanted, loadToaster);
  return ui ? <ui.Toaster /> : null;
}
