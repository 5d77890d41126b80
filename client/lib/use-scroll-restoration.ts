import { useEffect, useEffectEvent, useLayoutEffect } from 'react';
import { useLocation, useNavigationType } from 'react-router-dom';
import { ScrollPositions } from './scroll-positions';

const STORAGE_KEY = 'pogs-scroll-positions';
/** The shopper's own scrolling, which a restore in progress must not fight. */
const STOP_ON = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

/**
 * A navigation's state that keeps the page where it is scrolled: the home's search, filters and
 * sort change its URL (so a view can be shared and survives a reload) without leaving the page.
 */
export const KEEP_SCROLL = Object.freeze({ keepScroll: true });
const keepsScroll = (state: unknown) =>
  typeof state === 'object' && state !== null && (state as { keepScroll?: unknown }).keepScroll === true;

let store: ScrollPositions | null = null;
function positions(): ScrollPositions {
  if (!store) {
    let saved: string | null = null;
    try {
      saved = window.sessionStorage.getItem(STORAGE_KEY);
    } catch {
      // Storage refused (private mode, policy): positions last for this page only.
    }
    store = new ScrollPositions(saved);
  }
  return store;
}

function persist(): void {
  try {
    window.sessionStorage.setItem(STORAGE_KEY, positions().serialize());
  } catch {
    // As above: nothing to keep them in.
  }
}

/**
 * Back and forward return to where each page was scrolled (also after a reload); a new page
 * starts at the top, or at the element its #hash names. The router's own ScrollRestoration needs
 * its data router, which the shop does not load (app/router.tsx).
 */
export function useScrollRestoration(): void {
  const location = useLocation();
  const navigationType = useNavigationType();
  const key = ScrollPositions.keyOf(location);

  useEffect(() => {
    window.history.scrollRestoration = 'manual';
  }, []);

  // Every scroll is recorded for the page on screen (a read of scrollY and a map write), so the
  // position is known whenever the page is left, by a link, back or forward, or closing the tab.
  useEffect(() => {
    const record = () => positions().set(key, window.scrollY);
    window.addEventListener('scroll', record, { passive: true });
    window.addEventListener('pagehide', persist);
    return () => {
      window.removeEventListener('scroll', record);
      window.removeEventListener('pagehide', persist);
      persist();
    };
  }, [key]);

  // Once per page shown: `key` changes with every navigation (and names its location).
  const arrive = useEffectEvent(() => {
    if (navigationType === 'POP') {
      const y = positions().get(key);
      if (y !== undefined) return restore(y);
      return;
    }
    if (keepsScroll(location.state)) return;
    const target = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
  });
  useLayoutEffect(() => arrive(), [key]);
}

/** How long a position is tried for while the page grows into it. */
const RESTORE_FOR_MS = 3000;

/**
 * Scrolls to `y`, and again on each frame while the page is still too short to reach it (a
 * server-rendered home shows its first cards, then the rest in steps), until it is reached, the
 * shopper scrolls or taps, the page is left, or 3 s have passed. Returns the cancel.
 */
function restore(y: number): () => void {
  const until = performance.now() + RESTORE_FOR_MS;
  let frame = 0;
  const stop = () => {
    cancelAnimationFrame(frame);
    for (const type of STOP_ON) window.removeEventListener(type, stop);
  };
  const attempt = () => {
    window.scrollTo(0, y);
    if (Math.abs(window.scrollY - y) < 2 || performance.now() > until) stop();
    else frame = requestAnimationFrame(attempt);
  };
  for (const type of STOP_ON) window.addEventListener(type, stop, { passive: true });
  attempt();
  return stop;
}
