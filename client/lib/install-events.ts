/** Chromium's `beforeinstallprompt` event (not in TypeScript's DOM types). */
export interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<unknown>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed'; platform?: string }>;
}

/**
 * Chromium's install offer, kept from the moment this module runs (the entry imports it, with the
 * page's first scripts, before hydration): a repeat visit, whose service worker already controls the page, can be
 * offered the install before React has hydrated, and an offer nobody listened for is lost (the
 * browser shows its own mini-infobar instead of the shop's button). `appinstalled` forgets it.
 */
export const installState: { prompt: BeforeInstallPromptEvent | null; installed: boolean } = { prompt: null, installed: false };
const installListeners = new Set<() => void>();
export const installChanged = (change: Partial<typeof installState>) => {
  Object.assign(installState, change);
  for (const listener of installListeners) listener();
};
if (typeof window !== 'undefined') {
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    installChanged({ prompt: event as BeforeInstallPromptEvent });
  });
  window.addEventListener('appinstalled', () => installChanged({ installed: true, prompt: null }));
}
export const subscribeInstall = (listener: () => void) => {
  installListeners.add(listener);
  return () => installListeners.delete(listener);
};
