import { useLayoutEffect, useSyncExternalStore } from 'react';

/**
 * The performance mark set when the page's first render (or the hydration of the server's HTML)
 * commits, before any of its effects run: what was asked for before it is what the first screen
 * needed (the first-screen script budget, e2e/first-screen-js.spec.ts, counts up to it).
 */
export const FIRST_SCREEN_MARK = 'pogs:first-screen';

/** The longest wait for an idle moment once the page has loaded: a busy page still gets its extras. */
const IDLE_TIMEOUT_MS = 2_000;

let settled = false;
let marked = false;
const listeners = new Set<() => void>();

function settle() {
  if (settled) return;
  settled = true;
  for (const listener of listeners) listener();
  listeners.clear();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/**
 * Rendered once, last, at the root of the page (main.tsx and the server's tree alike): its layout
 * effect runs as the first render or the hydration commits. It sets FIRST_SCREEN_MARK, then waits
 * for the page's load event and the browser's first idle moment (at most IDLE_TIMEOUT_MS more)
 * before useAfterFirstScreen turns true.
 */
export function FirstScreenMark(): null {
  useLayoutEffect(() => {
    if (marked) return;
    marked = true;
    performance.mark(FIRST_SCREEN_MARK);
    const whenIdle = () => {
      if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(settle, { timeout: IDLE_TIMEOUT_MS });
      else setTimeout(settle, 0);
    };
    if (document.readyState === 'complete') whenIdle();
    else window.addEventListener('load', whenIdle, { once: true });
  }, []);
  return null;
}

/**
 * False until the first screen is up (FirstScreenMark), the page has loaded and the browser is
 * first idle; then true for good. What the first screen does not need (the install offer's bar)
 * waits for it, so the page's own code and hydration have the network
 * and the main thread while a shopper first looks and taps. False on the server.
 */
export function useAfterFirstScreen(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => settled,
    () => false,
  );
}
