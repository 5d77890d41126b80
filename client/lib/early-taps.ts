import { EARLY_TAPS_GLOBAL } from '../../common/shop-render';

interface EarlyTaps {
  take(): HTMLButtonElement[];
}

/**
 * The buttons tapped on a server-rendered page before its scripts had run (recorded by the page's
 * loader, server/pages/shop-pages.ts), taken once just before hydration: recording stops, so a tap is
 * never replayed twice. None on a page the browser renders itself.
 */
export function takeEarlyTaps(): HTMLButtonElement[] {
  const taps = (window as unknown as Record<string, EarlyTaps | undefined>)[EARLY_TAPS_GLOBAL];
  return taps?.take() ?? [];
}

/** Taps each button again, once the page is hydrated, unless it has gone or been disabled since. */
export function replayTaps(buttons: readonly HTMLButtonElement[]): void {
  for (const button of buttons) if (button.isConnected && !button.disabled) button.click();
}
