import { useState, useSyncExternalStore } from 'react';
import { preloadOnDemand, useOnDemand } from '../../lib/use-on-demand';
import { useToasts } from './use-toast';

const loadToaster = () => import('./toast');

// Set once the toast UI has been preloaded: the (empty) toast area then mounts ahead of the
// toast, so the toast shows at once and stacks as it would with an eager Toaster.
let preloaded = false;
const preloadListeners = new Set<() => void>();
const subscribePreloaded = (listener: () => void) => {
  preloadListeners.add(listener);
  return () => void preloadListeners.delete(listener);
};

/** Starts loading the toast UI when a toast is about to be shown (e.g. while a request runs). */
export function preloadToaster(): Promise<void> {
  return preloadOnDemand(loadToaster).then(() => {
    if (preloaded) return;
    preloaded = true;
    for (const listener of preloadListeners) listener();
  });
}

/**
 * The toast area, mounted from the first toast (or preload) on: the store (use-toast.ts) is in
 * the main bundle, the Radix toast UI loads when something is first shown, and the toast appears
 * as soon as it arrives. Once mounted it stays, so later toasts show at once.
 */
export function LazyToaster() {
  const toasts = useToasts();
  const ahead = useSyncExternalStore(
    subscribePreloaded,
    () => preloaded,
    () => false,
  );
  const [wanted, setWanted] = useState(false);
  if (!wanted && (ahead || toasts.length > 0)) setWanted(true);
  const ui = useOnDemand(wanted, loadToaster);
  return ui ? <ui.Toaster /> : null;
}
