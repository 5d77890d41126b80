import { useSyncExternalStore } from 'react';

const never = () => () => undefined;

/**
 * False on the server and while the browser hydrates the server's HTML, true from then on (and
 * at once in a page the browser renders itself). For what only the browser can know (its user
 * agent, display mode, storage): rendering it before hydration ends would not match the
 * server's markup.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
