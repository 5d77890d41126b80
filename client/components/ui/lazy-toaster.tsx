import { useEffect, useState, useSyncExternalStore } from 'react';
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

// Resolved once the toast area is on the page (LazyToaster below has rendered the Radix UI).
let markMounted: () => void = () => undefined;
const mounted = new Promise<void>((resolve) => (markMounted = resolve));
/** The area's viewport is set by Radix in renders that follow its mount: a task later it is there. */
const afterMount = () => mounted.then(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
/** Longest wait for the area: a toast must never hold up what follows it (e.g. an add to cart). */
const MOUNT_WAIT_MS = 2_000;

/**
 * Starts loading the toast UI when a toast is about to be shown (e.g. while a request runs).
 * Resolves once the toast area is mounted (or the load failed, or after MOUNT_WAIT_MS), so a
 * toast shown next renders in the area at once: its layer is then opened before a drawer opened
 * with it, and Escape closes the drawer, as with an eagerly mounted area.
 */
export function preloadToaster(): Promise<void> {
  return preloadOnDemand(loadToaster).then(() => {
    if (!preloaded) {
      preloaded = true;
      for (const listener of preloadListeners) listener();
    }
    return Promise.race([afterMount(), new Promise<void>((resolve) => setTimeout(resolve, MOUNT_WAIT_MS))]);
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
  useEffect(() => {
    if (ui) markMounted();
  }, [ui]);
  return ui ? <ui.Toaster /> : null;
}
