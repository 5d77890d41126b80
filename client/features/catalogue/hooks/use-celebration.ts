import { useEffect } from 'react';

/** Session-storage key marking that the celebration already ran in this browser session. */
export const CELEBRATION_STORAGE_KEY = 'pogs-shop:celebrated';
const DELAY_MS = 1500;
const DURATION_MS = 2500;
const PIECES = 40;

function alreadyCelebrated(): boolean {
  try {
    return window.sessionStorage.getItem(CELEBRATION_STORAGE_KEY) !== null;
  } catch {
    return true; // storage blocked: do not risk showing it on every visit
  }
}

/**
 * Confetti once per browser session: 1.5 s after the product list first loads
 * non-empty, a 40-piece burst with sparkles for 2.5 s, then it stops. Skipped when the user
 * prefers reduced motion. canvas-confetti is loaded only when it is about to run.
 */
export function useCelebration(ready: boolean): void {
  useEffect(() => {
    if (!ready || alreadyCelebrated()) return;
    if (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return;

    let stopTimer: ReturnType<typeof setTimeout> | undefined;
    let reset: (() => void) | undefined;
    let canvas: HTMLCanvasElement | undefined;
    let cancelled = false;
    const finish = () => {
      reset?.();
      canvas?.remove();
      canvas = undefined;
    };
    const startTimer = setTimeout(async () => {
      try {
        window.sessionStorage.setItem(CELEBRATION_STORAGE_KEY, new Date().toISOString());
      } catch {
        // ignore: worst case it shows again next visit
      }
      const { create } = await import('canvas-confetti');
      if (cancelled) return;
      // Its own canvas, drawn by a worker (OffscreenCanvas): the pieces fly without taking the
      // page's main thread while the shopper starts scrolling and tapping. Above the page and its
      // sticky header (z-40), below dialogs and sheets (z-50); never in the way of a tap.
      canvas = document.createElement('canvas');
      canvas.dataset.testid = 'celebration';
      canvas.setAttribute('aria-hidden', 'true');
      Object.assign(canvas.style, { position: 'fixed', inset: '0', width: '100%', height: '100%', zIndex: '45', pointerEvents: 'none' });
      document.body.appendChild(canvas);
      const confetti = create(canvas, { resize: true, useWorker: true, disableForReducedMotion: true });
      reset = () => confetti.reset();
      const colors = ['#6d28d9', '#fde047', '#f472b6', '#38bdf8', '#ffffff'];
      const base = { colors, ticks: 150 };
      // The burst: round "caps"…
      void confetti({
        ...base,
        particleCount: PIECES - 10,
        spread: 75,
        startVelocity: 42,
        origin: { x: 0.5, y: 0.55 },
        shapes: ['circle', 'square'],
      });
      // …and sparkles: star pieces from both sides.
      void confetti({ ...base, particleCount: 5, angle: 60, spread: 55, origin: { x: 0, y: 0.65 }, shapes: ['star'], scalar: 1.2 });
      void confetti({ ...base, particleCount: 5, angle: 120, spread: 55, origin: { x: 1, y: 0.65 }, shapes: ['star'], scalar: 1.2 });
      stopTimer = setTimeout(finish, DURATION_MS);
    }, DELAY_MS);

    return () => {
      cancelled = true;
      clearTimeout(startTimer);
      clearTimeout(stopTimer);
      finish();
    };
  }, [ready]);
}
