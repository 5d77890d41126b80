import { useCallback } from 'react';

/**
 * The bars that stay on screen at its top and bottom (the sticky site header, an open cart
 * drawer's header, the install bar), measured, so that what must not hide under them keeps clear
 * of them whatever their height (text wrapping, a larger font, a phone's safe areas): the toast
 * area and the end of the page. Written on <html> as two CSS variables, in px:
 *
 *  - `--edge-top`: how far down from the screen's top the top bars reach;
 *  - `--edge-bottom`: how far up from the screen's bottom the bottom bars reach.
 */
export type ScreenEdge = 'top' | 'bottom';

const bars = new Map<HTMLElement, ScreenEdge>();
let observer: ResizeObserver | null = null;

function measure() {
  const height = document.documentElement.clientHeight;
  let top = 0;
  let bottom = 0;
  for (const [bar, edge] of bars) {
    const box = bar.getBoundingClientRect();
    if (edge === 'top') top = Math.max(top, box.bottom);
    else bottom = Math.max(bottom, height - box.top);
  }
  const style = document.documentElement.style;
  style.setProperty('--edge-top', `${Math.ceil(top)}px`);
  style.setProperty('--edge-bottom', `${Math.ceil(bottom)}px`);
}

/** A ref for a bar that stays at the screen's `edge` while it is on the page (React calls its cleanup when it leaves). */
export function useScreenEdge(edge: ScreenEdge): (bar: HTMLElement | null) => (() => void) | undefined {
  return useCallback(
    (bar: HTMLElement | null) => {
      if (!bar) return undefined;
      if (!observer) {
        observer = new ResizeObserver(measure);
        window.addEventListener('resize', measure);
      }
      bars.set(bar, edge);
      observer.observe(bar, { box: 'border-box' });
      measure();
      return () => {
        bars.delete(bar);
        observer?.unobserve(bar);
        measure();
      };
    },
    [edge],
  );
}
